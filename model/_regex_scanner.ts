// Private: the cursor over a pattern's code points and the character-set half
// of the ECMA-262 (`u` flag) pattern parser: class escapes, character escapes
// and character classes. `_regex_syntax.ts` extends it with the structure
// (alternatives, groups, quantifiers, assertions).

import {
  complement,
  DIGIT,
  escapeSet,
  MAX_CP,
  normalize,
  type Ranges,
  SPACE,
  WORD,
} from "./_regex_ranges.ts";

/** A node of a parsed pattern (declared here: a character class is one). */
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

/** Thrown for a pattern this parser cannot handle (too deep, or unknown syntax). */
export class PatternSyntaxError extends Error {}

/** The syntax characters, which an identity escape may name. */
export const SYNTAX = new Set("^$\\.*+?()[]{}|/");

/** The cursor over a pattern's code points, and the parsing of sets. */
export class Scanner {
  pos = 0;
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
