// Private: a parser for ECMA-262 regular expressions with the `u` flag (the
// form JSON Schema's `pattern`, `patternProperties` and Hyperjump use). It
// turns a pattern that `new RegExp(source, "u")` accepts into a small tree
// whose character sets are explicit code-point ranges with ECMA-262's meaning,
// so that the tree can be printed as an RE2 pattern with the same meaning.

/** Sorted, disjoint, non-adjacent inclusive code-point ranges: [lo0, hi0, lo1, hi1, ...]. */
export type Ranges = readonly number[];

/** A node of a parsed pattern. */
export type Node =
  | { t: "set"; ranges: Ranges }
  | { t: "seq"; items: Node[] }
  | { t: "alt"; alts: Node[] }
  | { t: "rep"; body: Node; min: number; max: number }
  | { t: "assert"; kind: "^" | "$" | "b" | "B" }
  | { t: "look"; behind: boolean; negative: boolean; body: Node }
  | { t: "backref" }
  /** A group under a modifier RE2 cannot express exactly (`i` or `m`). */
  | { t: "modified"; body: Node };

/** The deepest group nesting parsed (deeper patterns are refused, not overflowed). */
export const MAX_GROUP_DEPTH = 100;

const MAX_CP = 0x10ffff;

/** Normalizes a list of ranges (any order, overlapping) into canonical {@linkcode Ranges}. */
export function normalize(pairs: number[]): Ranges {
  const items: [number, number][] = [];
  for (let i = 0; i < pairs.length; i += 2) items.push([pairs[i], pairs[i + 1]]);
  items.sort((a, b) => a[0] - b[0]);
  const out: number[] = [];
  for (const [lo, hi] of items) {
    if (out.length > 0 && lo <= out[out.length - 1] + 1) {
      out[out.length - 1] = Math.max(out[out.length - 1], hi);
    } else {
      out.push(lo, hi);
    }
  }
  return out;
}

/** The code points not in `ranges`. */
export function complement(ranges: Ranges): Ranges {
  const out: number[] = [];
  let next = 0;
  for (let i = 0; i < ranges.length; i += 2) {
    if (ranges[i] > next) out.push(next, ranges[i] - 1);
    next = ranges[i + 1] + 1;
  }
  if (next <= MAX_CP) out.push(next, MAX_CP);
  return out;
}

// ---- Exact sets of the class escapes, taken from the engine itself ----

/** The set of `\s` (exported for the test that compares it with the engine). */
export function spaceSet(): Ranges {
  return SPACE;
}

const DIGIT: Ranges = [0x30, 0x39];
const WORD: Ranges = [0x30, 0x39, 0x41, 0x5a, 0x5f, 0x5f, 0x61, 0x7a];
const LINE_TERMINATORS: Ranges = [0x0a, 0x0a, 0x0d, 0x0d, 0x2028, 0x2029];
// ECMA-262 WhiteSpace (TAB, VT, FF, ZWNBSP, Zs) and LineTerminator; a test
// compares it with the engine's `\s` on every code point.
const SPACE: Ranges = normalize([
  0x09,
  0x0d,
  0x20,
  0x20,
  0xa0,
  0xa0,
  0x1680,
  0x1680,
  0x2000,
  0x200a,
  0x2028,
  0x2029,
  0x202f,
  0x202f,
  0x205f,
  0x205f,
  0x3000,
  0x3000,
  0xfeff,
  0xfeff,
]);
const cache = new Map<string, Ranges>();

// Index of code point `cp` in the string of all non-surrogate code points.
function indexToCodePoint(index: number): number {
  if (index < 0xd800) return index;
  if (index < 0xf800) return index + 0x800;
  return 0x10000 + ((index - 0xf800) >> 1);
}

let allText: string | undefined;

function allCodePoints(): string {
  if (allText !== undefined) return allText;
  // UTF-16 of every non-surrogate code point in order, decoded in one go.
  const units = new Uint16Array(0xf800 + 2 * 0x100000);
  let i = 0;
  for (let cp = 0; cp < 0xd800; cp++) units[i++] = cp;
  for (let cp = 0xe000; cp <= 0xffff; cp++) units[i++] = cp;
  for (let cp = 0x10000; cp <= MAX_CP; cp++) {
    units[i++] = 0xd800 + ((cp - 0x10000) >> 10);
    units[i++] = 0xdc00 + ((cp - 0x10000) & 0x3ff);
  }
  return allText = new TextDecoder("utf-16le").decode(units);
}

/**
 * The exact set of code points one class escape (`\s`, `\p{L}`, ...) matches
 * in this engine with the `u` flag, computed once by asking the engine about
 * every code point (so Unicode versions can never disagree).
 */
function escapeSet(source: string): Ranges {
  const found = cache.get(source);
  if (found !== undefined) return found;
  const all = allCodePoints();
  const pairs: number[] = [];
  for (const match of all.matchAll(new RegExp(`(?:${source})+`, "gu"))) {
    const first = indexToCodePoint(match.index);
    const endIndex = match.index + match[0].length;
    const lastUnit = all.charCodeAt(endIndex - 1);
    const last = indexToCodePoint(endIndex - (lastUnit >= 0xdc00 && lastUnit <= 0xdfff ? 2 : 1));
    if (first < 0xd800 && last > 0xdfff) pairs.push(first, 0xd7ff, 0xe000, last);
    else pairs.push(first, last);
  }
  const single = new RegExp(`^(?:${source})$`, "u");
  for (let cp = 0xd800; cp <= 0xdfff; cp++) {
    if (single.test(String.fromCharCode(cp))) pairs.push(cp, cp);
  }
  const ranges = normalize(pairs);
  cache.set(source, ranges);
  return ranges;
}

// ---- The parser ----

/** Thrown for a pattern this parser cannot handle (too deep, or unknown syntax). */
export class PatternSyntaxError extends Error {}

interface Flags {
  dotAll: boolean;
  modified: boolean;
}

const SYNTAX = new Set("^$\\.*+?()[]{}|/");

class Parser {
  pos = 0;
  depth = 0;
  readonly cps: number[];

  constructor(source: string) {
    this.cps = [...source].map((c) => c.codePointAt(0)!);
  }

  peek(offset = 0): number | undefined {
    return this.cps[this.pos + offset];
  }

  eat(ch: string): boolean {
    if (this.peek() === ch.codePointAt(0)) {
      this.pos++;
      return true;
    }
    return false;
  }

  startsWith(text: string): boolean {
    for (let i = 0; i < text.length; i++) {
      if (this.peek(i) !== text.charCodeAt(i)) return false;
    }
    return true;
  }

  fail(what: string): never {
    throw new PatternSyntaxError(`${what} at offset ${this.pos}`);
  }

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

  /** After a backslash: a class escape or a character escape, as a set. */
  classEscape(inClass: boolean): Ranges {
    const c = this.peek()!;
    this.pos++;
    switch (c) {
      case 0x64: // d
        return DIGIT;
      case 0x44:
        return complement(DIGIT);
      case 0x77: // w
        return WORD;
      case 0x57:
        return complement(WORD);
      case 0x73: // s
        return SPACE;
      case 0x53:
        return complement(SPACE);
      case 0x70: // p
      case 0x50: {
        if (!this.eat("{")) this.fail("bad property escape");
        const start = this.pos;
        while (this.peek() !== undefined && this.peek() !== 0x7d) this.pos++;
        const name = String.fromCodePoint(...this.cps.slice(start, this.pos));
        if (!this.eat("}")) this.fail("bad property escape");
        const set = escapeSet(`\\p{${name}}`);
        return c === 0x70 ? set : complement(set);
      }
      default: {
        this.pos--;
        const cp = this.characterEscape(inClass);
        return [cp, cp];
      }
    }
  }

  /** A character escape's code point (the backslash already consumed). */
  characterEscape(inClass: boolean): number {
    const c = this.peek()!;
    this.pos++;
    switch (c) {
      case 0x66:
        return 0x0c;
      case 0x6e:
        return 0x0a;
      case 0x72:
        return 0x0d;
      case 0x74:
        return 0x09;
      case 0x76:
        return 0x0b;
      case 0x30:
        return 0;
      case 0x62:
        if (inClass) return 0x08;
        break;
      case 0x2d:
        if (inClass) return 0x2d;
        break;
      case 0x63: {
        const letter = this.peek();
        if (letter === undefined) break;
        this.pos++;
        return letter % 32;
      }
      case 0x78:
        return this.hex(2);
      case 0x75: {
        if (this.eat("{")) {
          const start = this.pos;
          while (this.peek() !== undefined && this.peek() !== 0x7d) this.pos++;
          const value = parseInt(String.fromCodePoint(...this.cps.slice(start, this.pos)), 16);
          if (!this.eat("}") || !(value <= MAX_CP)) this.fail("bad \\u{...}");
          return value;
        }
        const lead = this.hex(4);
        if (lead >= 0xd800 && lead <= 0xdbff && this.startsWith("\\u")) {
          const save = this.pos;
          this.pos += 2;
          const trail =
            /^[0-9a-fA-F]{4}$/.test(String.fromCodePoint(...this.cps.slice(this.pos, this.pos + 4)))
              ? this.hex(4)
              : -1;
          if (trail >= 0xdc00 && trail <= 0xdfff) {
            return 0x10000 + ((lead - 0xd800) << 10) + (trail - 0xdc00);
          }
          this.pos = save;
        }
        return lead;
      }
      default:
        if (SYNTAX.has(String.fromCodePoint(c))) return c;
    }
    this.fail("unknown escape");
  }

  hex(n: number): number {
    const text = String.fromCodePoint(...this.cps.slice(this.pos, this.pos + n));
    if (!new RegExp(`^[0-9a-fA-F]{${n}}$`).test(text)) this.fail("bad hex escape");
    this.pos += n;
    return parseInt(text, 16);
  }

  classNode(): Node {
    this.pos++;
    const negated = this.eat("^");
    const pairs: number[] = [];
    while (this.peek() !== 0x5d) {
      if (this.peek() === undefined) this.fail("missing ]");
      const lo = this.classAtom();
      if (this.peek() === 0x2d && this.peek(1) !== 0x5d && this.peek(1) !== undefined) {
        this.pos++;
        const hi = this.classAtom();
        if (lo.length !== 2 || hi.length !== 2 || lo[0] !== lo[1] || hi[0] !== hi[1]) {
          this.fail("class range of a class escape");
        }
        pairs.push(lo[0], hi[0]);
      } else {
        pairs.push(...lo);
      }
    }
    this.pos++;
    const set = normalize(pairs);
    return { t: "set", ranges: negated ? complement(set) : set };
  }

  classAtom(): Ranges {
    const c = this.peek()!;
    if (c === 0x5c) {
      this.pos++;
      return this.classEscape(true);
    }
    this.pos++;
    return [c, c];
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
