// Private entry of the validator's fast path: plain JavaScript checks compiled
// from the schema for the keywords they can answer exactly as Hyperjump does
// (2020-12 and draft-07), the failures of an invalid value exactly as
// Hyperjump's DETAILED output gives them (see _detailed.ts), or the reason the
// whole schema stays on Hyperjump. Nothing here loads Hyperjump.

import type { ValidationFailure } from "../errors.ts";
import { DEFAULT_MAX_DEPTH, ROOT_URI } from "../_dialect.ts";
import { compileDocument, Unsupported } from "./_compile.ts";
import { compileDetailed } from "./_detailed.ts";
import { fastDialect, type SupportOptions, unsupportedReason } from "./_support.ts";

export type { SupportOptions };
export { fastDialect };
export { MAX_REF_NESTING } from "./_compile.ts";

/**
 * A compiled fast check: `true` (valid), `false` (invalid), or `undefined`
 * when this value must be answered by Hyperjump (a `$ref` chain nested too
 * deep, or the call stack exhausted).
 */
export type FastCheck = (instance: unknown) => boolean | undefined;

/** The fast path's plan for a schema it compiled. */
export interface FastPlanned {
  /** The answer, or undefined when Hyperjump must answer this value. */
  check: FastCheck;
  /** The generated check itself: a throw means "ask Hyperjump" (for callers that catch). */
  run: (instance: unknown) => boolean;
  /** Whether any pattern runs (`pattern`, `patternProperties`). */
  patterns: boolean;
  /**
   * When `run` returning true proves the value JSON (finite numbers, plain
   * objects, nothing else) with at most this many nested containers: a
   * value it accepts within the depth limit needs no JSON check.
   */
  jsonLevels?: number;
  /**
   * With `jsonLevels`: whether a value is JSON within that many nested
   * containers (what model/_instance_check.ts finds, by the document's own
   * copy of the walk): a value `run` refuses is walked by it first.
   */
  json?: (instance: unknown) => boolean;
  /**
   * The failures of a value the check found invalid, exactly as Hyperjump's
   * DETAILED output through `toFailures` gives them; undefined when they cannot
   * be given exactly for this schema. A throw (a bail on a deep `$ref` chain,
   * an exhausted stack) means "ask Hyperjump".
   */
  failures: ((instance: unknown) => ValidationFailure[]) | undefined;
  /**
   * With `failures`: the generated code `failures` calls once it is made
   * (the same answers, one call less), else undefined.
   */
  failuresCode?: () => ((instance: unknown) => ValidationFailure[]) | undefined;
  /**
   * With `failures`: makes the generated code now if it is not yet made
   * (then `failuresCode` gives it), and returns it; undefined where code
   * cannot be generated (the units then give the failures).
   */
  makeFailures?: () => ((instance: unknown) => ValidationFailure[]) | undefined;
  /**
   * With `failures` and `json`: makes the generated code now if it is not
   * yet made, and returns its refusal function: `json` then the failures in
   * one function (`null` when `json` is false; see _refusal.ts for a throw
   * of the failures code); undefined where code cannot be generated.
   */
  makeRefusal?: () => ((instance: unknown) => ValidationFailure[] | null) | undefined;
  /** Why `failures` is undefined. */
  failuresReason?: string;
  /**
   * Whether neither `run` nor `failures` can ever throw for a value that
   * passed `instanceProblem` (no `$ref` cycle or chain deeper than
   * MAX_REF_NESTING) and `failures` is defined: Hyperjump is never needed.
   */
  standalone: boolean;
  reason?: undefined;
}

/** The fast path's decision for one schema. */
export type FastPlan =
  | FastPlanned
  | {
    check?: undefined;
    run?: undefined;
    patterns?: undefined;
    jsonLevels?: undefined;
    json?: undefined;
    failures?: undefined;
    failuresCode?: undefined;
    makeFailures?: undefined;
    makeRefusal?: undefined;
    failuresReason?: undefined;
    standalone?: undefined;
    reason: string;
  };

/**
 * Compiles the fast check of a schema that Hyperjump has already compiled
 * (so it is a valid schema of its dialect), or says why it stays on Hyperjump.
 */
export function planFastPath(schema: unknown, options: SupportOptions): FastPlan {
  const reason = unsupportedReason(schema, options);
  if (reason !== undefined) return { reason };
  const dialect = fastDialect(options.dialect)!;
  let check: (value: unknown) => boolean;
  let patterns: boolean;
  let jsonLevels: number | undefined;
  let json: ((instance: unknown) => boolean) | undefined;
  let walkSource: string | undefined;
  try {
    ({ check, patterns, jsonLevels, json, walkSource } = compileDocument(
      schema as never,
      dialect,
      options.maxDepth ?? DEFAULT_MAX_DEPTH,
    ));
  } catch (error) {
    if (error instanceof Unsupported) return { reason: error.message };
    return { reason: `the fast compile failed (${(error as Error)?.message ?? String(error)})` };
  }
  let failures: FastPlanned["failures"];
  let failuresCode: FastPlanned["failuresCode"];
  let makeFailures: FastPlanned["makeFailures"];
  let makeRefusal: FastPlanned["makeRefusal"];
  let failuresReason: string | undefined;
  let bounded = false;
  try {
    // With fanning-out references no walk is used (the check is the failures code's).
    const walk = options.fansOut ? undefined : walkSource;
    const detailed = compileDetailed(schema as never, dialect, ROOT_URI, options.fansOut, walk);
    bounded = detailed.bounded && !options.fansOut;
    failures = detailed.failures;
    failuresCode = detailed.made;
    makeFailures = detailed.generated;
    if (walk !== undefined) makeRefusal = detailed.refusal;
    // References that fan out: Hyperjump evaluates them with a budget, which
    // only an evaluation of every subschema Hyperjump evaluates can count
    // exactly (the check stops early): that evaluation answers, by the
    // failures' generated code where it can be made (the same evaluation,
    // counted the same way), else by the compiled closures.
    if (options.fansOut) check = detailed.counting() ?? detailed.valid;
  } catch (error) {
    failuresReason = error instanceof Unsupported
      ? error.message
      : `the failures compile failed (${(error as Error)?.message ?? String(error)})`;
    if (options.fansOut) return { reason: `references that fan out, and ${failuresReason}` };
  }
  return {
    patterns,
    // With fanning-out references the check is the DETAILED evaluation's.
    ...(jsonLevels === undefined || options.fansOut ? {} : { jsonLevels, json }),
    run: check,
    check: (instance) => {
      try {
        return check(instance);
      } catch {
        // A bail (FastPathBail), an exhausted stack, anything unforeseen:
        // Hyperjump answers this value, with its own errors.
        return undefined;
      }
    },
    failures,
    ...(failuresCode === undefined ? {} : { failuresCode }),
    ...(makeFailures === undefined ? {} : { makeFailures }),
    ...(makeRefusal === undefined ? {} : { makeRefusal }),
    ...(failuresReason === undefined ? {} : { failuresReason }),
    standalone: failures !== undefined && bounded,
  };
}
