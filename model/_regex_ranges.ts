// Private: code-point sets of ECMA-262 regular expressions with the `u` flag:
// canonical ranges, their complement, and the exact sets of the class escapes
// (`\d`, `\w`, `\s`, `\p{...}`), taken from the engine itself, for the parser
// in `_regex_syntax.ts`.

/** Sorted, disjoint, non-adjacent inclusive code-point ranges: [lo0, hi0, lo1, hi1, ...]. */
export type Ranges = readonly number[];

/** The highest code point. */
export const MAX_CP = 0x10ffff;

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

/** The set of `\\d`. */
export const DIGIT: Ranges = [0x30, 0x39];
/** The set of `\\w`. */
export const WORD: Ranges = [0x30, 0x39, 0x41, 0x5a, 0x5f, 0x5f, 0x61, 0x7a];
/** The line terminators (what `.` does not match without the `s` flag). */
export const LINE_TERMINATORS: Ranges = [0x0a, 0x0a, 0x0d, 0x0d, 0x2028, 0x2029];
// ECMA-262 WhiteSpace (TAB, VT, FF, ZWNBSP, Zs) and LineTerminator; a test
// compares it with the engine's `\s` on every code point.
export const SPACE: Ranges = normalize([
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
export function escapeSet(source: string): Ranges {
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
