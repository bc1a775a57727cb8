// Private: the regular-expression engine of the validator. Every schema
// pattern (`pattern`, `patternProperties`, and the `additionalProperties`
// check that depends on them) runs here, never as a backtracking RegExp on
// untrusted input without a bound:
//
// 1. A pattern is parsed with ECMA-262 meaning (`u` flag) and printed as an
//    RE2 pattern with the same meaning (explicit code-point sets for `.`,
//    `\s`, `\d`, `\w`, `\p{..}` and classes; `^`/`$` at the ends of the input),
//    run by re2js in time linear in the input.
//    Lookbehinds run in linear time too (re2js's captureless lookbehinds).
// 2. Lookaheads right after a leading `^` (`^(?=.*\d)(?!.*\s).{8,}$`) are
//    each run as their own RE2 program at the start of the input: exact.
// 3. Anything else RE2 cannot express (other lookaheads, backreferences,
//    `i`/`m` modifiers) runs as a native RegExp only when its backtracking is
//    bounded by a small constant per input position (no unbounded quantifier,
//    few paths); otherwise the schema is refused with UnsupportedPatternError.

import { RE2JS } from "re2js";
import { type Node, parsePattern, PatternSyntaxError, type Ranges } from "./_regex_syntax.ts";

/** A compiled pattern: search semantics, like `RegExp.prototype.test`. */
export interface Matcher {
  /** How the pattern runs: `re2`, `re2-lookahead` (several RE2 programs) or `native-bounded`. */
  readonly engine: "re2" | "re2-lookahead" | "native-bounded";
  /** Whether the pattern matches somewhere in `text`. */
  test(text: string): boolean;
}

/** Why a pattern cannot be run with a bound; the compile refuses the schema. */
export class UnboundedPatternError extends Error {
  /** The pattern. */
  readonly pattern: string;
  /** What it uses that cannot run with a bound. */
  readonly reason: string;
  constructor(pattern: string, reason: string) {
    super(reason);
    this.pattern = pattern;
    this.reason = reason;
  }
}

/** Most backtracking paths per input position a native (bounded) pattern may have. */
export const NATIVE_PATH_LIMIT = 1000;
/** Largest RE2 program accepted (the cost per input character is at most this). */
export const MAX_PROGRAM_SIZE = 10_000;
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

class Untranslatable extends Error {}

function print(node: Node): Printed {
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

function re2(src: string): RE2JS {
  if (src.length > MAX_SOURCE) throw new Untranslatable("a program too large");
  let program: RE2JS;
  try {
    program = RE2JS.compile(src, src.includes("(?<") ? RE2JS.LOOKBEHINDS : 0);
  } catch (error) {
    throw new Untranslatable(`a construct RE2 refuses: ${(error as Error).message}`);
  }
  if (program.programSize() > MAX_PROGRAM_SIZE) {
    throw new Untranslatable(`more than ${MAX_PROGRAM_SIZE} RE2 instructions`);
  }
  return program;
}

// ---- Strategy 2: leading lookaheads ----

/** `^ (?=a) (?!b) rest` as separate RE2 programs, or undefined when not of that form. */
function leadingLookaheads(alt: Node): ((text: string) => boolean) | undefined {
  const items = alt.t === "seq" ? alt.items : [alt];
  if (items.length === 0 || items[0].t !== "assert" || items[0].kind !== "^") return undefined;
  const checks: { program: RE2JS; negative: boolean }[] = [];
  let i = 1;
  for (; i < items.length; i++) {
    const item = items[i];
    if (item.t === "assert" && item.kind === "^") continue;
    if (item.t !== "look" || item.behind) break;
    checks.push({ program: re2(`^(?:${print(item.body).src})`), negative: item.negative });
  }
  if (checks.length === 0) return undefined;
  const rest = re2(`^${print({ t: "seq", items: items.slice(i) }).src}`);
  return (text) => checks.every((c) => c.program.test(text) !== c.negative) && rest.test(text);
}

// ---- Strategy 3: bounded backtracking ----

/** An upper bound on backtracking paths per start position, or Infinity. */
function paths(node: Node): number {
  switch (node.t) {
    case "set":
    case "assert":
    case "backref":
      return 1;
    case "seq":
      return node.items.reduce((n, item) => Math.min(n * paths(item), Infinity), 1);
    case "alt":
      return node.alts.reduce((n, item) => n + paths(item), 0);
    case "look":
    case "modified":
      return paths(node.body);
    case "rep": {
      if (node.max === Infinity) return Infinity;
      const p = paths(node.body);
      let total = 0;
      for (let k = node.min; k <= node.max && total <= NATIVE_PATH_LIMIT; k++) {
        total += p ** k;
      }
      return total;
    }
  }
}

// ---- Compiling ----

const cache = new Map<string, Matcher | UnboundedPatternError>();
const CACHE_LIMIT = 5000;

/**
 * Compiles a schema pattern with ECMA-262 meaning into a matcher whose cost
 * is bounded. Cached by source.
 *
 * @throws {SyntaxError} When the pattern is not a valid ECMA-262 regular expression.
 * @throws {UnboundedPatternError} When it cannot run with a bound.
 */
export function compilePattern(source: string): Matcher {
  const found = cache.get(source);
  if (found instanceof UnboundedPatternError) throw found;
  if (found !== undefined) return found;
  let result: Matcher | UnboundedPatternError;
  try {
    result = build(source);
  } catch (error) {
    if (error instanceof SyntaxError) throw error;
    if (!(error instanceof UnboundedPatternError)) throw error;
    result = error;
  }
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value!);
  cache.set(source, result);
  if (result instanceof UnboundedPatternError) throw result;
  return result;
}

function build(source: string): Matcher {
  const native = new RegExp(source, "u"); // the ECMA-262 syntax check
  let tree: Node;
  try {
    tree = parsePattern(source);
  } catch (error) {
    if (error instanceof PatternSyntaxError) {
      throw new UnboundedPatternError(source, `it cannot be parsed safely: ${error.message}`);
    }
    throw error;
  }
  try {
    const program = re2(print(tree).src);
    return memoized({ engine: "re2", test: (text) => program.test(text) });
  } catch (error) {
    if (!(error instanceof Untranslatable)) throw error;
    const alts = tree.t === "alt" ? tree.alts : [tree];
    try {
      const plain: Node[] = [];
      const special: ((text: string) => boolean)[] = [];
      for (const alt of alts) {
        try {
          print(alt);
          plain.push(alt);
        } catch (inner) {
          if (!(inner instanceof Untranslatable)) throw inner;
          const split = leadingLookaheads(alt);
          if (split === undefined) throw inner;
          special.push(split);
        }
      }
      const rest = plain.length > 0 ? re2(print({ t: "alt", alts: plain }).src) : undefined;
      return memoized({
        engine: "re2-lookahead",
        test: (text) => (rest?.test(text) ?? false) || special.some((f) => f(text)),
      });
    } catch (inner) {
      if (!(inner instanceof Untranslatable)) throw inner;
      if (paths(tree) <= NATIVE_PATH_LIMIT) {
        return memoized({ engine: "native-bounded", test: (text) => native.test(text) });
      }
      throw new UnboundedPatternError(
        source,
        `the linear-time engine (RE2) cannot run it with its ECMA-262 meaning (it needs ` +
          `${inner.message}), and its backtracking is not bounded (an unbounded quantifier ` +
          `or more than ${NATIVE_PATH_LIMIT} paths)`,
      );
    }
  }
}

// ---- One evaluation pays once ----

let memo: Map<Matcher, Map<string, boolean>> | undefined;
const MEMO_MIN_LENGTH = 256;
let runs = 0;

function memoized(matcher: Matcher): Matcher {
  const self: Matcher = {
    engine: matcher.engine,
    test(text: string): boolean {
      if (memo === undefined || text.length < MEMO_MIN_LENGTH) {
        runs++;
        return matcher.test(text);
      }
      let results = memo.get(self);
      if (results === undefined) memo.set(self, results = new Map());
      let result = results.get(text);
      if (result === undefined) {
        runs++;
        results.set(text, result = matcher.test(text));
      }
      return result;
    },
  };
  return self;
}

/**
 * Runs `task` with pattern results remembered for long strings, so that a
 * check that evaluates an instance twice (once for the answer, once for the
 * failures) runs each pattern once per string.
 */
export function withPatternMemo<T>(task: () => T): T {
  if (memo !== undefined) return task();
  memo = new Map();
  try {
    return task();
  } finally {
    memo = undefined;
  }
}

/** How many times a pattern has been run on a string (for tests). */
export function patternRuns(): number {
  return runs;
}
