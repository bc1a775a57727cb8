// Private entry of the validator's fast path: plain JavaScript checks compiled
// from the schema for the keywords they can answer exactly as Hyperjump does
// (2020-12 and draft-07), or the reason the whole schema stays on Hyperjump.
// The fast path only answers valid/invalid; failures and messages always come
// from Hyperjump.

import { compileDocument, Unsupported } from "./_compile.ts";
import { fastDialect, type SupportOptions, unsupportedReason } from "./_support.ts";
import type { ValidationFailure } from "../errors.ts";

export type { SupportOptions };
export { fastDialect };
export { MAX_REF_NESTING } from "./_compile.ts";

/**
 * A compiled fast check: `true` (valid), `false` (invalid), or `undefined`
 * when this value must be answered by Hyperjump (a `$ref` chain nested too
 * deep, or the call stack exhausted).
 */
export type FastCheck = (instance: unknown) => boolean | undefined;

/** The fast path's decision for one schema. */
export type FastPlan =
  | {
    check: FastCheck;
    run: (instance: unknown) => boolean;
    patterns: boolean;
    /** The failures of an invalid value, exactly as Hyperjump's would read; undefined: ask Hyperjump. */
    failures: ((instance: unknown) => ValidationFailure[]) | undefined;
    /** Whether `run` never throws and `failures` is defined: Hyperjump is never needed. */
    standalone: boolean;
    reason?: undefined;
  }
  | {
    check?: undefined;
    run?: undefined;
    patterns?: undefined;
    failures?: undefined;
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
  let check: (value: unknown) => boolean;
  let patterns: boolean;
  try {
    ({ check, patterns } = compileDocument(schema as never, fastDialect(options.dialect)!));
  } catch (error) {
    if (error instanceof Unsupported) return { reason: error.message };
    return { reason: `the fast compile failed (${(error as Error)?.message ?? String(error)})` };
  }
  return {
    patterns,
    failures: undefined,
    standalone: false,
    /** The generated check itself: a throw means "ask Hyperjump" (for callers that catch). */
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
  };
}

/**
 * Compiles a trusted document (one the validator ships, such as a flattened
 * meta-schema) without the document scan of {@linkcode planFastPath}: its
 * property names may be `$`-keywords. `true`/`false` is the exact answer;
 * `undefined` means "ask Hyperjump" (a bail). Throws when the document holds
 * anything the compiler does not do exactly.
 */
export function compileTrusted(schema: unknown, dialect: "2020-12" | "draft-07"): FastCheck {
  const { check } = compileDocument(schema as never, dialect);
  return (instance) => {
    try {
      return check(instance);
    } catch {
      return undefined;
    }
  };
}
