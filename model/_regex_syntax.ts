// Private: a parser for ECMA-262 regular expressions with the `u` flag (the
// form JSON Schema's `pattern`, `patternProperties` and Hyperjump use). It
// turns a pattern that `new RegExp(source, "u")` accepts into a small tree
// whose character sets are explicit code-point ranges with ECMA-262's meaning,
// so that the tree can be printed as an RE2 pattern with the same meaning.

import { complement, LINE_TERMINATORS, MAX_CP } from "./_regex_ranges.ts";
import { type Node, Scanner, SYNTAX } from "./_regex_scanner.ts";

export type { Node };

/** The deepest group nesting parsed (deeper patterns are refused, not overflowed). */
const MAX_GROUP_DEPTH = 100;

interface Flags {
  dotAll: boolean;
  modified: boolean;
}

/** The parser of a pattern's structure; the sets are parsed by {@linkcode Scanner}. */
class Parser extends Scanner {
  depth = 0;

  disjunction(flags: Flags): Node {
    const alts: Node[] = [this.alternative(flags)];
    while (this.eat("|")) alts.push(this.alternative(flags));
    return alts.length === 1 ? alts[0] : { t: "alt", alts };
  }

  alternative(flags: Flags): Node {
    const items: Node[] = [];
    while (this.pos < this.cps.length && this.peek() !== 0x7c && this.peek() !== 0x29) {
      items.push(this.term(flags));
    }
    return items.length === 1 ? items[0] : { t: "seq", items };
  }

  term(flags: Flags): Node {
    const c = this.peek()!;
    if (c === 0x5e) {
      this.pos++;
      return { t: "assert", kind: "^" };
    }
    if (c === 0x24) {
      this.pos++;
      return { t: "assert", kind: "$" };
    }
    if (this.startsWith("\\b") || this.startsWith("\\B")) {
      this.pos += 2;
      return { t: "assert", kind: this.cps[this.pos - 1] === 0x62 ? "b" : "B" };
    }
    if (this.startsWith("(?=") || this.startsWith("(?!")) {
      const negative = this.cps[this.pos + 2] === 0x21;
      this.pos += 3;
      return { t: "look", behind: false, negative, body: this.group(flags) };
    }
    if (this.startsWith("(?<=") || this.startsWith("(?<!")) {
      const negative = this.cps[this.pos + 3] === 0x21;
      this.pos += 4;
      return { t: "look", behind: true, negative, body: this.group(flags) };
    }
    const atom = this.atom(flags);
    return this.quantifier(atom);
  }

  group(flags: Flags): Node {
    if (++this.depth > MAX_GROUP_DEPTH) this.fail(`groups nest deeper than ${MAX_GROUP_DEPTH}`);
    const body = this.disjunction(flags);
    if (!this.eat(")")) this.fail("missing )");
    this.depth--;
    return body;
  }

  quantifier(atom: Node): Node {
    let min: number, max: number;
    const c = this.peek();
    if (c === 0x2a) [min, max] = [0, Infinity];
    else if (c === 0x2b) [min, max] = [1, Infinity];
    else if (c === 0x3f) [min, max] = [0, 1];
    else if (c === 0x7b) {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(String.fromCodePoint(...this.cps.slice(this.pos)));
      if (m === null) this.fail("bad quantifier");
      min = Number(m[1]);
      max = m[2] === undefined ? min : m[3] === "" ? Infinity : Number(m[3]);
      this.pos += m[0].length - 1;
    } else return atom;
    this.pos++;
    this.eat("?"); // laziness does not change whether a string matches
    return { t: "rep", body: atom, min, max };
  }

  atom(flags: Flags): Node {
    const c = this.peek()!;
    if (c === 0x2e) {
      this.pos++;
      return { t: "set", ranges: flags.dotAll ? [0, MAX_CP] : complement(LINE_TERMINATORS) };
    }
    if (c === 0x5b) return this.classNode();
    if (c === 0x28) return this.groupAtom(flags);
    if (c === 0x5c) {
      this.pos++;
      return this.atomEscape();
    }
    if (SYNTAX.has(String.fromCodePoint(c)) && c !== 0x2f) this.fail("unexpected syntax character");
    this.pos++;
    return { t: "set", ranges: [c, c] };
  }

  groupAtom(flags: Flags): Node {
    this.pos++;
    if (this.eat("?")) {
      if (this.eat(":")) return this.group(flags);
      if (this.eat("<")) {
        while (this.peek() !== undefined && this.peek() !== 0x3e) this.pos++;
        if (!this.eat(">")) this.fail("bad group name");
        return this.group(flags);
      }
      // Modifiers: (?ims-ims:...)
      let on = true;
      const next = { ...flags };
      let caseOrLines = false;
      while (this.peek() !== 0x3a) {
        const f = this.peek();
        if (f === undefined) this.fail("bad modifier group");
        this.pos++;
        if (f === 0x2d) on = false;
        else if (f === 0x73) next.dotAll = on;
        else if (f === 0x69 || f === 0x6d) caseOrLines ||= on;
        else this.fail("unknown modifier");
      }
      this.pos++;
      if (caseOrLines) next.modified = true;
      const body = this.group(next);
      return caseOrLines && !flags.modified ? { t: "modified", body } : body;
    }
    return this.group(flags);
  }

  atomEscape(): Node {
    const c = this.peek();
    if (c === undefined) this.fail("trailing backslash");
    if (c >= 0x31 && c <= 0x39) {
      while (this.peek() !== undefined && this.peek()! >= 0x30 && this.peek()! <= 0x39) this.pos++;
      return { t: "backref" };
    }
    if (c === 0x6b && this.peek(1) === 0x3c) {
      while (this.peek() !== undefined && this.peek() !== 0x3e) this.pos++;
      this.pos++;
      return { t: "backref" };
    }
    const set = this.classEscape(false);
    return { t: "set", ranges: set };
  }
}

/**
 * Parses an ECMA-262 pattern (`u` flag). The pattern must already be accepted
 * by `new RegExp(source, "u")`.
 *
 * @throws {PatternSyntaxError} When the pattern nests too deeply or uses syntax this parser does not know.
 */
export function parsePattern(source: string): Node {
  const parser = new Parser(source);
  const node = parser.disjunction({ dotAll: false, modified: false });
  if (parser.pos !== parser.cps.length) parser.fail("unbalanced )");
  return node;
}
