// Private: the CompiledSchema a DefaultValidator hands out. The answer comes
// from the fast path when the schema has one, else from Hyperjump's FLAG
// output; the failures and their messages come from the fast path's exact
// copy of Hyperjump's DETAILED output when it has one for the schema (its
// generated code, made at the first refusal, writes them with the answer),
// else from Hyperjump's DETAILED output itself, computed when they are read.

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
import { allMembersEnumerable, type InstanceProblem } from "./_json.ts";
import { isPlainObject } from "./plain_object.ts";
import { lazyInvalid, lazyValidationError } from "./_lazy_failures.ts";
import type { FastPlan } from "./_fast/mod.ts";
import { REFUSAL_THREW } from "./_fast/_refusal.ts";
import type { JsonSchema } from "./tool.ts";

/** A generated refusal function (see _fast/_refusal.ts). */
type Refusal = (instance: unknown) => ValidationFailure[] | null;

/** Everything a compiled schema is made of. */
export interface CompiledSchemaParts {
  /** The schema (a private copy). */
  schema: JsonSchema;
  /** Its dialect, normalized. */
  dialect: string;
  /**
   * Runs Hyperjump's compiled validator on a value (with the validator's
   * format rule and evaluation budget); undefined only with a standalone
   * `plan`: then Hyperjump is not even loaded, and nothing here calls it.
   */
  evaluate: Evaluate | undefined;
  /**
   * Plans the fast path (generates its code), called on the first check so
   * that compiling costs what it cost before; undefined when it is off.
   */
  planFast: (() => FastPlan) | undefined;
  /** The fast path's plan when made at compile time (then `planFast` is not called). */
  plan?: FastPlan;
  /** The trusted documents by URI (for the keyword values messages quote). */
  trusted: ReadonlyMap<string, unknown>;
  /** Whether `format` asserts. */
  formatAssertion: boolean;
  /** Deepest instance nesting accepted. */
  maxDepth: number;
}

/** The answer for every valid value: one shared, frozen object (see `CompiledSchema.check`). */
const VALID: CheckResult = Object.freeze({ valid: true });

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

/** Builds the compiled schema. */
export function compiledSchema(parts: CompiledSchemaParts): CompiledSchema {
  const { schema, dialect, evaluate, trusted } = parts;
  const { maxDepth } = parts;
  if (evaluate === undefined && parts.plan?.standalone !== true) {
    throw new TypeError("compiledSchema: a schema without Hyperjump needs a standalone plan");
  }
  let planFast = parts.plan === undefined ? parts.planFast : undefined;
  let fast: ((instance: unknown) => boolean) | undefined;
  let fastPatterns = false;
  let fastFailures: ((instance: unknown) => ValidationFailure[]) | undefined;
  // The generated failures code once made: what `fastFailures` then calls.
  let fastCode: (() => ((instance: unknown) => ValidationFailure[]) | undefined) | undefined;
  // Makes the generated failures code (at the first refusal); undefined once
  // asked, or when the plan has none.
  let makeCode: (() => ((instance: unknown) => ValidationFailure[]) | undefined) | undefined;
  // The generated failures code an invalid answer runs at once (see `invalid`).
  let eagerCode: ((instance: unknown) => ValidationFailure[]) | undefined;
  // Makes the generated refusal function (the walk, then the failures, in
  // one function: see _fast/_refusal.ts); undefined once asked, or without one.
  let makeRefusal: (() => Refusal | undefined) | undefined;
  // The refusal function once made; null where none can be.
  let refusal: Refusal | null | undefined;
  // Whether the fast check accepting a value proves it JSON within maxDepth.
  let proves = false;
  // With `proves`: the document's own walk, true for a value JSON within maxDepth.
  let json: (instance: unknown) => boolean = () => false;
  const adopt = (plan: FastPlan): void => {
    fast = plan.run;
    fastPatterns = plan.patterns ?? false;
    fastFailures = plan.failures;
    fastCode = plan.failuresCode;
    makeCode = plan.makeFailures;
    makeRefusal = plan.makeRefusal;
    proves = plan.jsonLevels !== undefined && plan.jsonLevels <= maxDepth;
    if (proves && plan.json !== undefined) json = plan.json;
  };
  if (parts.plan !== undefined) adopt(parts.plan);
  const lookup = (base: string): unknown => {
    if (base === ROOT_URI) return schema;
    if (isPlainObject(schema) && typeof schema.$id === "string") {
      try {
        if (new URL(schema.$id, ROOT_URI).href.split("#")[0] === base) return schema;
      } catch { /* not a URL */ }
    }
    return trusted.get(base);
  };
  const hyperjumpFailures = (given: unknown, record: PatternRecord): ValidationFailure[] =>
    recorded(record, () =>
      guarded(() => {
        const instance = allMembersEnumerable(given);
        const output = evaluate!(instance, "DETAILED");
        return toFailures(output.valid ? [] : output.errors ?? [], instance, lookup, ROOT_URI);
      }));
  /** The failures of an invalid value (`record`, when given, holds the patterns its check ran). */
  const failuresOf = (
    instance: unknown,
    given: PatternRecord | undefined,
  ): ValidationFailure[] => {
    if (fastFailures !== undefined) {
      const compute = fastFailures;
      try {
        // Without patterns there is nothing to record or to remember; once
        // made, the generated code is called straight away.
        if (!fastPatterns) {
          if (fastCode === undefined) return compute(instance);
          const code = fastCode();
          if (code === undefined) return compute(instance);
          fastFailures = code;
          fastCode = undefined;
          return code(instance);
        }
        const record = given ?? {};
        return recorded(record, () => withPatternMemo(() => compute(instance)));
      } catch (error) {
        // A bail on a deep $ref chain, an exhausted stack, a location
        // Hyperjump cannot print either: Hyperjump says what it says.
        if (evaluate === undefined) {
          return guarded(() => {
            throw error;
          });
        }
      }
    }
    return hyperjumpFailures(instance, given ?? {});
  };
  /**
   * The answer for a JSON value the fast check refused: its failures written
   * at once by the generated code (made at the first refusal), a plain
   * `{ valid: false, failures }`. Where there is no such code, or it throws
   * (a bail on a deep `$ref` chain, an exhausted stack: Hyperjump's to say,
   * with its errors, when read), the failures are computed when read.
   */
  const invalid = (instance: unknown, record: PatternRecord | undefined): CheckResult => {
    let code = eagerCode;
    if (code === undefined) {
      if (makeCode === undefined) return lazyInvalid(failuresOf, instance, record);
      const make = makeCode;
      makeCode = undefined;
      code = make();
      if (code === undefined) return lazyInvalid(failuresOf, instance, record);
      eagerCode = fastFailures = code;
      fastCode = undefined;
    }
    try {
      if (!fastPatterns) return { valid: false, failures: code(instance) };
      const run = code;
      return {
        valid: false,
        failures: recorded(record ?? {}, () => withPatternMemo(() => run(instance))),
      };
    } catch {
      return lazyInvalid(failuresOf, instance, record);
    }
  };
  const slow = (instance: unknown): CheckResult => {
    const record: PatternRecord = {};
    const valid = recorded(
      record,
      () => guarded(() => evaluate!(allMembersEnumerable(instance), "FLAG").valid),
    );
    return valid ? VALID : lazyInvalid(failuresOf, instance, record);
  };
  // The paths below capture nothing but the compiled schema's own state, and
  // the invalid result holds its arguments rather than a closure: the invalid
  // answer (the commonest failure) allocates that result and nothing else.
  /** The answer for a value the JSON check found wrong: its failure, or the depth error. */
  const problem = (bad: InstanceProblem): CheckResult => {
    if (bad.depth) throw new InstanceDepthError(maxDepth, bad.location);
    return { valid: false, failures: [bad.failure!] };
  };
  /**
   * The answer for a value the fast check threw on (a bail on a deep $ref
   * chain, an exhausted stack) once the JSON check passed: Hyperjump answers
   * this value, with its own errors; without Hyperjump, the error, typed.
   */
  const thrown = (instance: unknown, error: unknown): CheckResult => {
    if (evaluate === undefined) {
      return guarded(() => {
        throw error;
      });
    }
    return slow(instance);
  };
  /** The fast check's answer (recording patterns into `record`), or what it threw. */
  const attempt = (instance: unknown, record: PatternRecord): boolean | { error: unknown } => {
    const previous = swapPatternRecord(record);
    try {
      return fast!(instance);
    } catch (error) {
      return { error };
    } finally {
      swapPatternRecord(previous);
    }
  };
  /** The answer for a value when the fast check does not prove JSON values: the JSON check first. */
  const unproved = (instance: unknown): CheckResult => {
    const bad = instanceProblem(instance, maxDepth);
    if (bad !== undefined) return problem(bad);
    if (fast === undefined) return slow(instance);
    if (!fastPatterns) {
      let answer: boolean;
      try {
        answer = fast(instance);
      } catch (error) {
        return thrown(instance, error);
      }
      return answer === true ? VALID : invalid(instance, undefined);
    }
    const record: PatternRecord = {};
    const answer = attempt(instance, record);
    if (answer === true) return VALID;
    if (answer === false) return invalid(instance, record);
    return thrown(instance, answer.error);
  };
  /**
   * The answer once the fast check, which proves the values it accepts JSON
   * within the depth limit (_fast/_cover.ts), did not accept this one: the
   * JSON check comes first as for any schema (the document's own walk, then,
   * only when it finds something, the located check); on a JSON value the
   * answer stands (there the strict tests answer as the plain ones do).
   */
  const refused = (
    instance: unknown,
    answer: boolean | { error: unknown },
    record: PatternRecord | undefined,
  ): CheckResult => {
    const bad = json(instance) ? undefined : instanceProblem(instance, maxDepth);
    if (bad !== undefined) return problem(bad);
    if (answer === false) return invalid(instance, record);
    return thrown(instance, (answer as { error: unknown }).error);
  };
  /**
   * `refused` for a value the fast check answered false, by the refusal
   * function: the walk and the failures in one call. The same answers: a
   * value the walk does not prove JSON gets the located check (its failure
   * or the depth error; else its failures as below); failures code that
   * throws leaves the failures to be computed when read.
   */
  const refusedOnce = (
    run: Refusal,
    instance: unknown,
    record: PatternRecord | undefined,
  ): CheckResult => {
    const failures = fastPatterns
      ? recorded(record ?? {}, () => withPatternMemo(() => run(instance)))
      : run(instance);
    if (failures === null) {
      const bad = instanceProblem(instance, maxDepth);
      if (bad !== undefined) return problem(bad);
      return invalid(instance, record);
    }
    if (failures === REFUSAL_THREW) return lazyInvalid(failuresOf, instance, record);
    return { valid: false, failures };
  };
  /** The refusal function, made at the first refusal; null where there is none. */
  const refusalOf = (): Refusal | null => {
    if (refusal !== undefined) return refusal;
    const make = makeRefusal;
    makeRefusal = undefined;
    return refusal = make?.() ?? null;
  };
  const check = (instance: unknown): CheckResult => {
    if (planFast !== undefined) {
      const plan = planFast();
      planFast = undefined;
      adopt(plan);
    }
    if (!proves) return unproved(instance);
    if (!fastPatterns) {
      let answer: boolean;
      try {
        answer = fast!(instance);
      } catch (error) {
        return refused(instance, { error }, undefined);
      }
      if (answer === true) return VALID;
      const run = refusal ?? refusalOf();
      return run === null
        ? refused(instance, answer, undefined)
        : refusedOnce(run, instance, undefined);
    }
    const record: PatternRecord = {};
    const answer = attempt(instance, record);
    if (answer === true) return VALID;
    if (answer !== false) return refused(instance, answer, record);
    const run = refusal ?? refusalOf();
    return run === null ? refused(instance, answer, record) : refusedOnce(run, instance, record);
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
