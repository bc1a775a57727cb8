// Private: the CompiledSchema a DefaultValidator hands out. The answer comes
// from the fast path when the schema has one, else from Hyperjump's FLAG
// output; the failures and their messages always come from Hyperjump's
// DETAILED output, computed only when they are read.

import {
  EvaluationDepthError,
  InstanceDepthError,
  InvalidSchemaError,
  SchemaValidationError,
  ToolFoundationError,
  type ValidationFailure,
} from "./errors.ts";
import type { CheckResult, CompiledSchema } from "./schema_validator.ts";
import type { Output } from "./_hyperjump.ts";
import { ROOT_URI } from "./_dialect.ts";
import { toFailures } from "./_messages.ts";
import { withPatternMemo } from "./_regex.ts";
import { type PatternRecord, swapPatternRecord } from "./_pattern_record.ts";
import { instanceProblem } from "./_instance_check.ts";
import { isPlainObject } from "./_json_pointer.ts";
import { lazyInvalid, lazyValidationError } from "./_lazy_failures.ts";
import type { FastPlan } from "./_fast/mod.ts";
import type { JsonSchema } from "./tool.ts";

/** Everything a compiled schema is made of. */
export interface CompiledSchemaParts {
  /** The schema (a private copy). */
  schema: JsonSchema;
  /** Its dialect, normalized. */
  dialect: string;
  /**
   * Runs Hyperjump's compiled validator on a value (with the validator's
   * format rule and evaluation budget), or undefined when Hyperjump was not
   * loaded because the fast path answers everything alone (`standalone`).
   */
  evaluate: Evaluate | undefined;
  /**
   * Plans the fast path (generates its code), called on the first check so
   * that compiling costs what it cost before; undefined when it is off.
   */
  planFast: (() => FastPlan) | undefined;
  /** The fast path's plan when it is already made (a standalone one: `evaluate` is undefined). */
  plan?: FastPlan;
  /** The trusted documents by URI (for the keyword values messages quote). */
  trusted: ReadonlyMap<string, unknown>;
  /** Whether `format` asserts. */
  formatAssertion: boolean;
  /** Deepest instance nesting accepted. */
  maxDepth: number;
}

/** A Hyperjump evaluation of one value in one output format. */
export type Evaluate = (instance: unknown, format: "FLAG" | "DETAILED") => Output;

/** Runs a Hyperjump evaluation with the validator's error rules. */
function guarded<T>(task: () => T): T {
  try {
    return withPatternMemo(task);
  } catch (error) {
    if (error instanceof RangeError) {
      throw new EvaluationDepthError("validating the value", { cause: error });
    }
    if (error instanceof ToolFoundationError) throw error;
    // Hyperjump failing on a schema it accepted: the schema's problem, typed.
    throw new InvalidSchemaError(
      `the schema could not be evaluated (${(error as Error)?.message ?? String(error)})`,
      { cause: error },
    );
  }
}

function recorded<T>(record: PatternRecord, task: () => T): T {
  const previous = swapPatternRecord(record);
  try {
    return task();
  } finally {
    swapPatternRecord(previous);
  }
}

/** Stands in for Hyperjump where it was not loaded: reaching it is a defect. */
const noHyperjump: Evaluate = () => {
  throw new Error("Hyperjump is not loaded for a schema the fast path answers alone");
};

/** Builds the compiled schema. */
export function compiledSchema(parts: CompiledSchemaParts): CompiledSchema {
  const { schema, dialect, trusted } = parts;
  const evaluate = parts.evaluate ?? noHyperjump;
  let planFast = parts.plan !== undefined ? () => parts.plan! : parts.planFast;
  const ownFailures = parts.plan?.failures;
  let fast: ((instance: unknown) => boolean) | undefined;
  let fastPatterns = false;
  const { maxDepth } = parts;
  const lookup = (base: string): unknown => {
    if (base === ROOT_URI) return schema;
    if (isPlainObject(schema) && typeof schema.$id === "string") {
      try {
        if (new URL(schema.$id, ROOT_URI).href.split("#")[0] === base) return schema;
      } catch { /* not a URL */ }
    }
    return trusted.get(base);
  };
  const failuresOf = (instance: unknown, record: PatternRecord): ValidationFailure[] =>
    recorded(record, () =>
      guarded(() => {
        const output = evaluate(instance, "DETAILED");
        return toFailures(output.valid ? [] : output.errors ?? [], instance, lookup, ROOT_URI);
      }));
  const slow = (instance: unknown): CheckResult => {
    const record: PatternRecord = {};
    const valid = recorded(
      record,
      () => guarded(() => evaluate(instance, "FLAG").valid),
    );
    return valid ? { valid: true } : lazyInvalid(() => failuresOf(instance, record));
  };
  const check = (instance: unknown): CheckResult => {
    const bad = instanceProblem(instance, maxDepth);
    if (bad !== undefined) {
      if (bad.depth) throw new InstanceDepthError(maxDepth, bad.location);
      return { valid: false, failures: [bad.failure!] };
    }
    if (planFast !== undefined) {
      const plan = planFast();
      planFast = undefined;
      fast = plan.run;
      fastPatterns = plan.patterns ?? false;
    }
    if (fast !== undefined) {
      // A throw of the generated check (a bail on a deep $ref chain, an
      // exhausted stack): Hyperjump answers this value, with its own errors.
      let answer: boolean | undefined;
      let record: PatternRecord | undefined;
      let previous: PatternRecord | undefined;
      if (fastPatterns) previous = swapPatternRecord(record = {});
      try {
        answer = fast(instance);
      } catch {
        answer = undefined;
      } finally {
        if (fastPatterns) swapPatternRecord(previous);
      }
      if (answer === true) return { valid: true };
      if (answer === false) {
        if (ownFailures !== undefined) return lazyInvalid(() => ownFailures(instance));
        return lazyInvalid(() => failuresOf(instance, record ?? {}));
      }
    }
    return slow(instance);
  };
  return {
    dialect,
    check,
    assert(instance: unknown, subject?: string): void {
      const result = check(instance);
      if (result.valid) return;
      const own = Object.getOwnPropertyDescriptor(result, "failures");
      if (own !== undefined && "value" in own) {
        throw new SchemaValidationError(own.value, { subject, instance });
      }
      throw lazyValidationError(() => result.failures, subject, instance);
    },
  };
}
