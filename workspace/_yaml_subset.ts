// Private: an exact parser for the subset of YAML that manifests are written
// in, so that reading one does not load and warm up a full YAML parser (the
// largest part of a command's start-up). Block mappings and sequences, compact
// mappings in sequence items, flow collections (over several lines too, one
// entry's key and value on one line), one-line quoted scalars, one-line plain
// scalars resolved by the YAML 1.2 core schema as
// npm:yaml resolves them, comments. Anything else (anchors, aliases, tags,
// block scalars, multi-line scalars or flow collections, documents markers,
// directives, tabs, non-string keys, a duplicate key, anything npm:yaml may call
// an error) makes it answer `undefined`, and the caller parses with npm:yaml,
// whose value and messages are then the ones used: this parser only ever
// answers what npm:yaml's `toJS()` would, or nothing.

import { pointerTokens } from "../model/json_pointer.ts";

/** A 1-based line and column (in UTF-16 code units, as npm:yaml's `LineCounter` counts). */
export interface SubsetPlace {
  line: number;
  column: number;
}

/** Where a node starts, and for a collection where its entries do. */
export interface PlacedNode {
  at: SubsetPlace;
  /** A mapping's entries by key, in order. */
  entries?: Map<string, { key: SubsetPlace; node: PlacedNode }>;
  /** A sequence's items. */
  items?: PlacedNode[];
}

/** What {@linkcode parseYamlSubset} gives for a manifest it reads alone. */
export interface SubsetDocument {
  /** The value, as npm:yaml's `parseDocument(text, { uniqueKeys: true }).toJS()` gives it. */
  value: Record<string, unknown>;
  /** Where each node starts, as npm:yaml's node ranges say. */
  root: PlacedNode;
}

/** The deepest nesting this parser reads; deeper documents go to npm:yaml (and its limit check). */
const MAX_DEPTH = 64;
/** Characters this parser leaves to npm:yaml wherever they appear. */
const UNUSUAL =
  // deno-lint-ignore no-control-regex -- control characters are what it looks for
  /[\x00-\x09\x0B\x0C\x0E-\x1F\x7F-\x9F\u00A0\u2028\u2029\uFEFF\uFFFE\uFFFF]|\r(?!\n)/;
/** Characters no plain scalar this parser reads may start with. */
const INDICATOR = new Set("-?:,[]{}#&*!|>'\"%@`");
const FLOW_STOP = new Set(",[]{}");
/** The first characters of a plain scalar that the core schema may resolve to other than a string. */
const MAY_RESOLVE = new Set("-+.0123456789~nNtTfF");
const ESCAPES: Record<string, string> = {
  "0": "\0",
  a: "\x07",
  b: "\b",
  e: "\x1b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
  v: "\v",
  N: "\u0085",
  _: "\u00a0",
  L: "\u2028",
  P: "\u2029",
  " ": " ",
  '"': '"',
  "/": "/",
  "\\": "\\",
};
const HEX_DIGITS: Record<string, number> = { x: 2, u: 4, U: 8 };

/** Thrown inside the parser for anything it leaves to npm:yaml. */
class Unsupported {}
const UNSUPPORTED = new Unsupported();
function bail(): never {
  throw UNSUPPORTED;
}

/**
 * A plain scalar's value under the YAML 1.2 core schema, the tests in npm:yaml's
 * order (null, bool, octal, decimal and hex int, special, exponent and plain float).
 */
export function resolvePlain(s: string): unknown {
  // Every test below needs one of these first characters (or an empty string).
  if (s.length > 0 && !MAY_RESOLVE.has(s[0])) return s;
  if (/^(?:~|[Nn]ull|NULL)?$/.test(s)) return null;
  if (/^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/.test(s)) return s[0] === "t" || s[0] === "T";
  if (/^0o[0-7]+$/.test(s)) return parseInt(s.substring(2), 8);
  if (/^[-+]?[0-9]+$/.test(s)) return parseInt(s, 10);
  if (/^0x[0-9a-fA-F]+$/.test(s)) return parseInt(s.substring(2), 16);
  if (/^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/.test(s)) {
    return s.slice(-3).toLowerCase() === "nan"
      ? NaN
      : s[0] === "-"
      ? Number.NEGATIVE_INFINITY
      : Number.POSITIVE_INFINITY;
  }
  if (/^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/.test(s)) return parseFloat(s);
  if (/^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/.test(s)) return parseFloat(s);
  return s;
}

/** Sets a key as npm:yaml's `toJS()` does (an inherited name becomes an own property). */
function setKey(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key in target) {
    Object.defineProperty(target, key, {
      value,
      writable: true,
      enumerable: true,
      configurable: true,
    });
  } else {
    target[key] = value;
  }
}

interface Line {
  /** The line without its line break. */
  raw: string;
  /** Leading spaces. */
  indent: number;
  /** 1-based line number. */
  row: number;
}

interface Parsed {
  value: unknown;
  node: PlacedNode;
}

/** Whether a plain scalar may start at `i` (no indicator, save `-` before a character that may follow it). */
function plainStart(raw: string, i: number): boolean {
  const c = raw[i];
  if (c === undefined || c === " " || c === "#") return false;
  if (c === "-") return /[^ ,[\]{}#]/.test(raw[i + 1] ?? " ");
  return !INDICATOR.has(c);
}

class SubsetParser {
  #lines: Line[];
  #i = 0;
  #maxDepth: number;

  constructor(lines: Line[], maxDepth: number) {
    this.#lines = lines;
    this.#maxDepth = Math.min(maxDepth, MAX_DEPTH);
  }

  parse(): Parsed {
    const first = this.#lines[0];
    if (first === undefined || first.indent !== 0 || this.#isDash(first, 0)) bail();
    const doc = this.#map(first, 0, 1);
    if (this.#i < this.#lines.length) bail();
    return doc;
  }

  #place(line: Line, col: number): SubsetPlace {
    return { line: line.row, column: col + 1 };
  }

  #isDash(line: Line, col: number): boolean {
    return line.raw[col] === "-" && (col + 1 === line.raw.length || line.raw[col + 1] === " ");
  }

  /** The first non-space index from `i`. */
  #skip(raw: string, i: number): number {
    while (raw[i] === " ") i++;
    return i;
  }

  /** Nothing but spaces and a comment from `i` to the end of the line. */
  #atEnd(raw: string, i: number): boolean {
    const j = this.#skip(raw, i);
    return j === raw.length || (raw[j] === "#" && (j > i || raw[j - 1] === " "));
  }

  /** A block node starting on the current line at its indentation. */
  #block(depth: number): Parsed {
    if (depth > this.#maxDepth) bail();
    const line = this.#lines[this.#i];
    return this.#isDash(line, line.indent)
      ? this.#seq(line.indent, depth, false)
      : this.#map(line, line.indent, depth);
  }

  /** The value after a `key:` or `-` with nothing else on its line (`col`: just past the indicator). */
  #nested(line: Line, col: number, owner: number, depth: number, mapValue: boolean): Parsed {
    this.#i++;
    const next = this.#lines[this.#i];
    if (next !== undefined && next.indent > owner) return this.#block(depth);
    if (mapValue && next !== undefined && next.indent === owner && this.#isDash(next, owner)) {
      if (depth > this.#maxDepth) bail();
      return this.#seq(owner, depth, true);
    }
    return { value: null, node: { at: this.#place(line, this.#skip(line.raw, col)) } };
  }

  /** A value on the rest of the line; the next line may not be indented past `owner`. */
  #inline(line: Line, col: number, owner: number, depth: number): Parsed {
    const raw = line.raw;
    let parsed: Parsed;
    let end: number;
    const c = raw[col];
    if (c === '"' || c === "'") {
      const q = this.#quoted(raw, col);
      parsed = { value: q.value, node: { at: this.#place(line, col) } };
      end = q.end;
    } else if (c === "[" || c === "{") {
      const f = this.#flow(col, owner, depth, true);
      parsed = f;
      end = f.end;
    } else {
      if (!plainStart(raw, col)) bail();
      let stop = raw.length;
      for (let j = col + 1; j < raw.length; j++) {
        if (raw[j] === "#" && raw[j - 1] === " ") {
          stop = j;
          break;
        }
      }
      const text = raw.slice(col, stop).trimEnd();
      if (text.includes(": ") || text.endsWith(":")) bail();
      parsed = { value: resolvePlain(text), node: { at: this.#place(line, col) } };
      end = stop;
    }
    if (!this.#atEnd(this.#lines[this.#i].raw, end)) bail();
    this.#i++;
    const next = this.#lines[this.#i];
    if (next !== undefined && next.indent > owner) bail();
    return parsed;
  }

  /** A one-line quoted scalar starting at `col`; `end` is just past its closing quote. */
  #quoted(raw: string, col: number): { value: string; end: number } {
    const quote = raw[col];
    let out = "";
    let i = col + 1;
    for (;;) {
      const c = raw[i];
      if (c === undefined) bail();
      if (c === quote) {
        if (quote === "'" && raw[i + 1] === "'") {
          out += "'";
          i += 2;
          continue;
        }
        return { value: out, end: i + 1 };
      }
      if (quote === '"' && c === "\\") {
        const e = raw[i + 1];
        const digits = HEX_DIGITS[e];
        if (digits !== undefined) {
          const hex = raw.slice(i + 2, i + 2 + digits);
          if (!new RegExp(`^[0-9a-fA-F]{${digits}}$`).test(hex)) bail();
          const code = parseInt(hex, 16);
          if (code > 0x10ffff) bail();
          out += String.fromCodePoint(code);
          i += 2 + digits;
          continue;
        }
        const escaped = ESCAPES[e];
        if (escaped === undefined) bail();
        out += escaped;
        i += 2;
        continue;
      }
      out += c;
      i++;
    }
  }

  /** A key at `col` and its `:`; `end` is just past the `:`. */
  #key(raw: string, col: number): { key: string; end: number } {
    let key: string;
    let colon: number;
    if (raw[col] === '"' || raw[col] === "'") {
      const q = this.#quoted(raw, col);
      key = q.value;
      colon = q.end;
      if (raw[colon] !== ":") bail();
    } else {
      colon = -1;
      for (let j = col; j < raw.length; j++) {
        if (raw[j] === ":" && (j + 1 === raw.length || raw[j + 1] === " ")) {
          colon = j;
          break;
        }
      }
      if (colon < 0 || !plainStart(raw, col)) bail();
      const text = raw.slice(col, colon).trimEnd();
      if (/[#,[\]{}]/.test(text)) bail();
      const value = resolvePlain(text);
      if (typeof value !== "string") bail();
      key = value;
    }
    if (colon - col > 1000 || key === "<<") bail();
    if (colon + 1 < raw.length && raw[colon + 1] !== " ") bail();
    return { key, end: colon + 1 };
  }

  /** Whether a `key:` starts at `col` (a compact mapping in a sequence item). */
  #startsKey(raw: string, col: number): boolean {
    if (raw[col] === '"' || raw[col] === "'") {
      const { end } = this.#quoted(raw, col);
      return raw[end] === ":";
    }
    if (raw[col] === "[" || raw[col] === "{") return false;
    for (let j = col; j < raw.length; j++) {
      if (raw[j] === "#" && j > col && raw[j - 1] === " ") return false;
      if (raw[j] === ":" && (j + 1 === raw.length || raw[j + 1] === " ")) return true;
    }
    return false;
  }

  /** A block mapping whose first key is on the current line at `col`, the rest at indentation `col`. */
  #map(first: Line, col: number, depth: number): Parsed {
    const value: Record<string, unknown> = {};
    const entries = new Map<string, { key: SubsetPlace; node: PlacedNode }>();
    let line = first;
    let at = col;
    for (;;) {
      const { key, end } = this.#key(line.raw, at);
      if (entries.has(key)) bail();
      const keyPlace = this.#place(line, at);
      const parsed = this.#atEnd(line.raw, end)
        ? this.#nested(line, end, col, depth + 1, true)
        : this.#inline(line, this.#skip(line.raw, end), col, depth + 1);
      setKey(value, key, parsed.value);
      entries.set(key, { key: keyPlace, node: parsed.node });
      const next = this.#lines[this.#i];
      if (next === undefined || next.indent < col) break;
      if (next.indent > col || this.#isDash(next, col)) bail();
      line = next;
      at = col;
    }
    return { value, node: { at: this.#place(first, col), entries } };
  }

  /** A block sequence at indentation `col` (`sameIndent`: the value of a key at that indentation). */
  #seq(col: number, depth: number, sameIndent: boolean): Parsed {
    const value: unknown[] = [];
    const items: PlacedNode[] = [];
    const first = this.#lines[this.#i];
    for (;;) {
      const line = this.#lines[this.#i];
      if (line === undefined || line.indent < col) break;
      if (line.indent > col) bail();
      if (!this.#isDash(line, col)) {
        if (sameIndent) break;
        bail();
      }
      const start = this.#skip(line.raw, col + 1);
      let parsed: Parsed;
      if (this.#atEnd(line.raw, col + 1)) {
        parsed = this.#nested(line, col + 1, col, depth + 1, false);
      } else if (this.#isDash(line, start)) {
        bail();
      } else if (this.#startsKey(line.raw, start)) {
        if (depth + 1 > this.#maxDepth) bail();
        parsed = this.#map(line, start, depth + 1);
      } else {
        parsed = this.#inline(line, start, col, depth + 1);
      }
      value.push(parsed.value);
      items.push(parsed.node);
    }
    return { value, node: { at: this.#place(first, col), items } };
  }

  /**
   * A flow collection at `col` of the current line, which may go on over the
   * next lines (each indented past `owner`; a line that starts with the closing
   * bracket of the `outer` collection, the one in block context, at least to
   * `owner`); `end` is just past its closing bracket, on
   * the line it ends on (then the current line).
   */
  #flow(col: number, owner: number, depth: number, outer: boolean): Parsed & { end: number } {
    if (depth > this.#maxDepth) bail();
    const open = this.#lines[this.#i];
    const map = open.raw[col] === "{";
    const close = map ? "}" : "]";
    const closing = outer ? close : undefined;
    const value: unknown = map ? {} : [];
    const entries = new Map<string, { key: SubsetPlace; node: PlacedNode }>();
    const items: PlacedNode[] = [];
    const node: PlacedNode = map
      ? { at: this.#place(open, col), entries }
      : { at: this.#place(open, col), items };
    let i = this.#flowSkip(col + 1, owner, closing);
    if (this.#lines[this.#i].raw[i] === close) return { value, node, end: i + 1 };
    for (;;) {
      const line = this.#lines[this.#i];
      const raw = line.raw;
      if (map) {
        const keyAt = i;
        let key: string;
        if (raw[i] === '"' || raw[i] === "'") {
          const q = this.#quoted(raw, i);
          key = q.value;
          i = q.end;
        } else {
          const p = this.#flowPlain(raw, i);
          if (typeof p.value !== "string" || p.value === "<<") bail();
          key = p.value;
          i = p.end;
        }
        if (raw[i] !== ":" || raw[i + 1] !== " " || entries.has(key)) bail();
        const v = this.#flowNode(this.#skip(raw, i + 1), owner, depth + 1);
        setKey(value as Record<string, unknown>, key, v.value);
        entries.set(key, { key: this.#place(line, keyAt), node: v.node });
        i = v.end;
      } else {
        const v = this.#flowNode(i, owner, depth + 1);
        (value as unknown[]).push(v.value);
        items.push(v.node);
        i = v.end;
      }
      i = this.#flowSkip(i, owner, closing);
      const c = this.#lines[this.#i].raw[i];
      if (c === close) return { value, node, end: i + 1 };
      if (c !== ",") bail();
      i = this.#flowSkip(i + 1, owner, closing);
      const after = this.#lines[this.#i].raw[i];
      // A trailing comma is allowed; an empty entry is not.
      if (after === close) return { value, node, end: i + 1 };
      if (after === ",") bail();
    }
  }

  /**
   * The next token inside a flow collection from `i` on the current line: past
   * spaces, a comment and line ends (the current line then moves on).
   */
  #flowSkip(i: number, owner: number, closing: string | undefined): number {
    let raw = this.#lines[this.#i].raw;
    for (;;) {
      const j = this.#skip(raw, i);
      if (j < raw.length && !(raw[j] === "#" && (j === 0 || raw[j - 1] === " "))) return j;
      this.#i++;
      const next = this.#lines[this.#i];
      if (next === undefined) bail();
      const closes = closing !== undefined && next.raw[next.indent] === closing;
      if (next.indent < owner || (next.indent === owner && !closes)) bail();
      raw = next.raw;
      i = next.indent;
    }
  }

  /** A value inside a flow collection at `i` of the current line (never a key: a `:` after it is left to npm:yaml). */
  #flowNode(i: number, owner: number, depth: number): Parsed & { end: number } {
    const line = this.#lines[this.#i];
    const raw = line.raw;
    const c = raw[i];
    if (c === "[" || c === "{") return this.#flow(i, owner, depth, false);
    if (c === '"' || c === "'") {
      const q = this.#quoted(raw, i);
      if (raw[this.#skip(raw, q.end)] === ":") bail();
      return { value: q.value, node: { at: this.#place(line, i) }, end: q.end };
    }
    const p = this.#flowPlain(raw, i);
    if (raw[p.end] === ":") bail();
    return { value: p.value, node: { at: this.#place(line, i) }, end: p.end };
  }

  /** A plain scalar inside a flow collection, up to `,[]{}`, a `:` or a comment; trailing spaces dropped. */
  #flowPlain(raw: string, i: number): { value: unknown; end: number } {
    if (!plainStart(raw, i)) bail();
    let j = i + 1;
    while (
      j < raw.length && !FLOW_STOP.has(raw[j]) && raw[j] !== ":" &&
      !(raw[j] === "#" && raw[j - 1] === " ")
    ) j++;
    let end = j;
    while (raw[end - 1] === " ") end--;
    return { value: resolvePlain(raw.slice(i, end)), end };
  }
}

/**
 * The value of YAML text and where its nodes start, when the text is a block
 * mapping in the subset this parser reads; `undefined` for anything else
 * (then parse it with npm:yaml). `maxDepth`: the deepest nesting it reads
 * (the document is depth 1), deeper documents are left to npm:yaml too.
 */
export function parseYamlSubset(text: string, maxDepth = MAX_DEPTH): SubsetDocument | undefined {
  if (UNUSUAL.test(text)) return undefined;
  const lines: Line[] = [];
  let row = 0;
  for (const piece of text.split("\n")) {
    row++;
    const raw = piece.endsWith("\r") ? piece.slice(0, -1) : piece;
    let indent = 0;
    while (raw[indent] === " ") indent++;
    if (indent === raw.length || raw[indent] === "#") continue;
    lines.push({ raw, indent, row });
  }
  try {
    const { value, node } = new SubsetParser(lines, maxDepth).parse();
    return { value: value as Record<string, unknown>, root: node };
  } catch (error) {
    if (error === UNSUPPORTED) return undefined;
    throw error;
  }
}

/**
 * The place of the node at `pointer`, or of the deepest node that exists on
 * the way to it; with `key`, of the last token's key in its mapping. The same
 * walk as `positionOf` over an npm:yaml document, over a {@linkcode PlacedNode}.
 */
export function placeOf(root: PlacedNode, pointer: string, key = false): SubsetPlace {
  let node: PlacedNode | undefined = root;
  let at = root.at;
  const tokens = pointerTokens(pointer);
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    if (node.entries !== undefined) {
      const pair = node.entries.get(token);
      if (pair === undefined) break;
      if (key && i === tokens.length - 1) {
        at = pair.key;
        break;
      }
      node = pair.node;
    } else if (node.items !== undefined) {
      node = node.items[Number(token)];
    } else {
      break;
    }
    if (node === undefined) break;
    at = node.at;
  }
  return at;
}
