// Private: compiles a schema that the fast path supports (see _support.ts)
// into one generated JavaScript function per schema object, straight-line
// code that answers valid/invalid exactly as Hyperjump does, keyword by
// keyword (each rule below mirrors the Hyperjump 1.18.0 keyword of the same
// name). Only numbers (checked finite), JSON-quoted names and indexes into a
// table of values are ever written into the code. Anything unexpected throws
// Unsupported, and the whole schema then stays on Hyperjump.
//
// With a depth limit, the root's code also proves a value it accepts JSON
// within that limit (the check the validator otherwise makes first, see
// model/_instance_check.ts), walking only what the schema leaves unchecked:
// see _cover.ts.
//
// This file holds the document's entry; the generator is in
// _compile_generator.ts (its core, `type`, `enum`, `const`),
// _compile_applicators.ts, _compile_scalars.ts, _compile_arrays.ts and
// _compile_objects.ts, what they share in _compile_values.ts.

import { testPattern } from "../_pattern_record.ts";
import { rootWalk, WALKER } from "./_cover.ts";
import { Generator } from "./_compile_generator.ts";
import {
  type Check,
  codePoints,
  type Dialect,
  FastPathBail,
  literal,
  type Schema,
  Unsupported,
} from "./_compile_values.ts";

export type { Check };
export { codePoints, FastPathBail, MAX_REF_NESTING, Unsupported } from "./_compile_values.ts";

/** Largest generated source accepted (bigger schemas stay on Hyperjump). */
const MAX_SOURCE = 2_000_000;

/** Deepest limit the proving check takes (beyond it the JSON check is iterative). */
const COVER_LIMIT = 2000;

/** A compiled document and whether it runs any pattern. */
export interface CompiledDocument {
  /** The check (resets its `$ref` nesting count on each call). */
  check: Check;
  /** Whether any pattern runs (`pattern`, `patternProperties`). */
  patterns: boolean;
  /**
   * When the check proves that a value it accepts is JSON (finite numbers,
   * plain objects, nothing else): the most nested containers of such a value.
   */
  jsonLevels: number | undefined;
  /**
   * With `jsonLevels`: whether a value is JSON within that many nested
   * containers, by the document's own copy of the walk (the same test as
   * model/_instance_check.ts's, with this document's type feedback).
   */
  json?: (value: unknown) => boolean;
  /**
   * With `jsonLevels`: the source of an expression whose value is a fresh
   * copy of `json` (the same walk), for other generated code to run in its
   * own scope.
   */
  walkSource?: string;
}

/**
 * Compiles a whole document. With `maxDepth` (at most COVER_LIMIT) the check
 * returning true also proves the value JSON within `maxDepth` nested
 * containers, as model/_instance_check.ts would find it.
 */
export function compileDocument(
  root: Schema,
  dialect: Dialect,
  maxDepth?: number,
): CompiledDocument {
  const cover = maxDepth !== undefined && Number.isInteger(maxDepth) && maxDepth >= 0 &&
      maxDepth <= COVER_LIMIT
    ? maxDepth
    : undefined;
  const generator = new Generator(root, dialect, cover);
  let entry: string;
  if (cover === undefined) entry = `return ${generator.call(root, "v")};`;
  else entry = `${generator.complete(root, "v", 0)}\nreturn true;`;
  while (generator.pending.length > 0) generator.generate(...generator.pending.pop()!);
  const reset = generator.counts ? "st.n = 0;\n" : "";
  // The walk, also returned: a value the check refuses is walked by it (by
  // the root's property names first, where it has some and objects nest).
  const names = cover !== undefined && cover > 0 && typeof root === "object" &&
      typeof root.properties === "object" && root.properties !== null
    ? Object.keys(root.properties)
    : [];
  const walk = cover === undefined
    ? ""
    : WALKER.replaceAll("MAX_DEPTH", literal(cover)) + (names.length > 0 ? rootWalk(names) : "");
  const walkEntry = names.length > 0 ? "j" : "(x) => w(x, 0)";
  const body = `${generator.code.join("\n")}\nreturn [function check(v) {\n${reset}${entry}\n}, ` +
    `${cover === undefined ? "undefined" : walkEntry}];`;
  const source = `${walk}${body}`;
  if (source.length > MAX_SOURCE) throw new Unsupported("a schema too large to generate code for");
  const state = { n: 0 };
  let check: Check;
  let json: ((value: unknown) => boolean) | undefined;
  try {
    [check, json] = new Function("c", "hasOwn", "tp", "cp", "st", "Bail", "OP", source)(
      generator.constants,
      Object.hasOwn,
      testPattern,
      codePoints,
      state,
      FastPathBail,
      Object.prototype,
    );
  } catch (error) {
    // e.g. code generation disallowed by the host (a content security policy).
    throw new Unsupported(`generated code that does not run (${(error as Error)?.message})`);
  }
  return {
    check,
    patterns: generator.patterns,
    jsonLevels: cover,
    ...(json ? { json, walkSource: `(() => {\n${walk}return ${walkEntry};\n})()` } : {}),
  };
}
