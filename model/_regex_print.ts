// Private: prints a parsed pattern (`_regex_syntax.ts`) as an RE2 pattern with
// the same meaning (explicit code-point sets, repeat counts within RE2's
// limits) and compiles it with re2js, for the engine in `_regex.ts`. What RE2
// cannot express with ECMA-262 meaning throws {@linkcode Untranslatable}.

import type { RE2JS } from "re2js";
import type { Ranges } from "./_regex_ranges.ts";
import type { Node } from "./_regex_syntax.ts";

/** Largest RE2 program accepted (the cost per input character is at most this). */
const MAX_PROGRAM_SIZE = 10_000;
const RE2_REPEAT_LIMIT = 1000;
const MAX_SOURCE = 200_000;

// ---- Printing a tree as RE2 ----

const hex = (cp: number): string => `\\x{${cp.toString(16)}}`;

function printSet(ranges: Ranges): string {
  if (ranges.length === 0) return "[^\\x{0}-\\x{10ffff}]";
  if (ranges.length === 2 && ranges[0] === ranges[1]) return hex(ranges[0]);
  let out = "[";
  for (let i = 0; i < ranges.length; i += 2) {
    out += ranges[i] === ranges[i + 1] ? hex(ranges[i]) : `${hex(ranges[i])}-${hex(ranges[i + 1])}`;
  }
  return out + "]";
}

/** Printed RE2 text and the largest product of nested repeat counts inside it. */
interface Printed {
  src: string;
  nest: number;
}

/** A construct RE2 cannot run with its ECMA-262 meaning (the message names it). */
export class Untranslatable extends Error {}

/** Prints a tree as RE2 source (`nest`: the product of the enclosing repeat counts). */
export function print(node: Node): Printed {
  switch (node.t) {
    case "set":
      return { src: printSet(node.ranges), nest: 1 };
    case "seq": {
      const parts = node.items.map(print);
      return {
        src: parts.map((p) => p.src).join(""),
        nest: Math.max(1, ...parts.map((p) => p.nest)),
      };
    }
    case "alt": {
      const parts = node.alts.map(print);
      return {
        src: `(?:${parts.map((p) => p.src).join("|")})`,
        nest: Math.max(1, ...parts.map((p) => p.nest)),
      };
    }
    case "assert":
      return { src: node.kind === "^" ? "^" : node.kind === "$" ? "$" : `\\${node.kind}`, nest: 1 };
    case "rep":
      return printRep(node.body, node.min, node.max);
    case "look": {
      // re2js runs captureless lookbehinds in linear time (RE2JS.LOOKBEHINDS).
      if (!node.behind) throw new Untranslatable("a lookahead that is not right after a leading ^");
      const body = print(node.body);
      return { src: `(?<${node.negative ? "!" : "="}${body.src})`, nest: body.nest };
    }
    case "backref":
      throw new Untranslatable("a backreference");
    case "modified":
      throw new Untranslatable("an `i` or `m` modifier group");
  }
}

/**
 * `body{min,max}` within RE2's rule that nested repeat counts multiply to at
 * most 1000: larger counts become a concatenation of smaller repeats, which
 * matches exactly the same strings.
 */
function printRep(bodyNode: Node, min: number, max: number): Printed {
  if (min > MAX_PROGRAM_SIZE || (max !== Infinity && max > MAX_PROGRAM_SIZE)) {
    throw new Untranslatable(`a repetition count above ${MAX_PROGRAM_SIZE}`);
  }
  const body = print(bodyNode);
  const b = `(?:${body.src})`;
  const chunk = Math.floor(RE2_REPEAT_LIMIT / body.nest);
  if (chunk < 1) throw new Untranslatable("nested repetition counts above 1000");
  const fits = (n: number) => n <= chunk;
  if (max === Infinity) {
    if (min === 0) return { src: `${b}*`, nest: body.nest };
    if (min === 1) return { src: `${b}+`, nest: body.nest };
    if (fits(min)) return { src: `${b}{${min},}`, nest: body.nest * min };
    return { src: `${repeatExactly(b, min, chunk)}${b}*`, nest: body.nest * chunk };
  }
  if (fits(max)) {
    if (min === 0 && max === 1) return { src: `${b}?`, nest: body.nest };
    return {
      src: min === max ? `${b}{${min}}` : `${b}{${min},${max}}`,
      nest: body.nest * Math.max(1, max),
    };
  }
  return { src: repeatExactly(b, min, chunk) + upTo(b, max - min, chunk), nest: body.nest * chunk };
}

/**
 * `b{0,n}` for n above RE2's limit, unambiguous so that few states are alive
 * at once: either a full chunk and then up to the rest, or fewer than a chunk.
 */
function upTo(b: string, n: number, chunk: number): string {
  if (n <= chunk) return `${b}{0,${n}}`;
  return `(?:${b}{${chunk}}${upTo(b, n - chunk, chunk)}|${b}{0,${chunk - 1}})`;
}

function repeatExactly(b: string, count: number, chunk: number): string {
  let src = "";
  for (let left = count; left > 0; left -= chunk) src += `${b}{${Math.min(left, chunk)}}`;
  return src;
}

// re2js (about 900 KB of JavaScript) loads on first need, not at start: a
// process that compiles no pattern never pays for it. The one module-level
// variable of the engine, written once.
let engine: typeof RE2JS | undefined;

/**
 * Loads re2js, once; resolves at once when it is loaded. The validator calls
 * it before compiling any schema that may hold a pattern (compiling a pattern
 * is synchronous).
 */
export async function loadRegexEngine(): Promise<void> {
  engine ??= (await import("re2js")).RE2JS;
}

/** Compiles RE2 source, refusing a program too large. */
export function re2(src: string): RE2JS {
  if (engine === undefined) {
    // A defect of the caller, never of the schema: say so, loudly.
    throw new Error("re2js is not loaded: await loadRegexEngine() before compiling a pattern");
  }
  if (src.length > MAX_SOURCE) throw new Untranslatable("a program too large");
  let program: RE2JS;
  try {
    program = engine.compile(src, src.includes("(?<") ? engine.LOOKBEHINDS : 0);
  } catch (error) {
    throw new Untranslatable(`a construct RE2 refuses: ${(error as Error).message}`);
  }
  if (program.programSize() > MAX_PROGRAM_SIZE) {
    throw new Untranslatable(`more than ${MAX_PROGRAM_SIZE} RE2 instructions`);
  }
  return program;
}
