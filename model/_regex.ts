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

import type { RE2JS } from "re2js";
import { print, re2, Untranslatable } from "./_regex_print.ts";

export { loadRegexEngine } from "./_regex_print.ts";
import { PatternSyntaxError } from "./_regex_scanner.ts";
import { type Node, parsePattern } from "./_regex_syntax.ts";

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
const NATIVE_PATH_LIMIT = 1000;

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
  // The ECMA-262 syntax check; the native engine's program if it comes to that.
  const sticky = new RegExp(source, "uy");
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
        return memoized({
          engine: "native-bounded",
          test: (text) => searchByCodePoint(sticky, text),
        });
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

/**
 * Whether a sticky `u` RegExp matches at some code point boundary of `text`:
 * the search ECMA-262 specifies. V8's own unanchored search with the `u` flag
 * also tries the positions inside a surrogate pair, where `\B` or a negative
 * lookbehind can match (`/\B/u.exec("a😀a").index` is 2 in V8).
 */
function searchByCodePoint(sticky: RegExp, text: string): boolean {
  for (let i = 0;;) {
    sticky.lastIndex = i;
    if (sticky.test(text)) return true;
    if (i >= text.length) return false;
    i += (text.codePointAt(i) ?? 0) > 0xffff ? 2 : 1;
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
