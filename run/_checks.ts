// Private: compiled input/output checkers cached per registered tool, and the
// validation steps of the pipeline.

import {
  type CompiledSchema,
  formatFailures,
  SchemaValidationError,
  type SchemaValidator,
  type ToolBackend,
  type ValidationFailure,
} from "../model/mod.ts";
import { InputValidationError } from "./errors.ts";
import type { RegisteredTool } from "./registry.ts";
import { OutputValidationError, type RunResult } from "./result.ts";

/** The compiled schemas of one tool (or why they could not be compiled). */
export interface Checkers {
  input?: CompiledSchema;
  inputError?: unknown;
  output?: CompiledSchema;
  outputError?: unknown;
}

type Compiling = SchemaValidator & { compile?: (schema: unknown) => Promise<CompiledSchema> };

function failuresOf(error: unknown): readonly ValidationFailure[] {
  return error instanceof SchemaValidationError ? error.failures : [];
}

function detail(error: unknown): string {
  if (error instanceof SchemaValidationError) {
    return formatFailures(error.failures);
  }
  return error instanceof Error ? error.message : String(error);
}

/** Validation with compiled checkers when the validator can compile, else its async methods. */
export class ToolChecks {
  readonly #validator: Compiling;
  readonly #cache = new WeakMap<RegisteredTool, Checkers | Promise<Checkers>>();

  constructor(validator: SchemaValidator) {
    this.#validator = validator as Compiling;
  }

  /** The checkers of a tool: synchronously when already compiled. */
  get(entry: RegisteredTool): Checkers | Promise<Checkers> {
    const found = this.#cache.get(entry);
    if (found !== undefined) return found;
    const validator = this.#validator;
    if (typeof validator.compile !== "function") {
      const none: Checkers = {};
      this.#cache.set(entry, none);
      return none;
    }
    const compile = (schema: unknown) =>
      validator.compile!(schema).then(
        (compiled) => ({ compiled, error: undefined }),
        (error) => ({ compiled: undefined, error }),
      );
    const pending = Promise.all([
      compile(entry.tool.inputSchema),
      entry.tool.outputSchema === undefined
        ? { compiled: undefined, error: undefined }
        : compile(entry.tool.outputSchema),
    ]).then(([input, output]) => {
      const checkers: Checkers = {
        input: input.compiled,
        inputError: input.error,
        output: output.compiled,
        outputError: output.error,
      };
      this.#cache.set(entry, checkers);
      return checkers;
    });
    this.#cache.set(entry, pending);
    return pending;
  }

  /** Throws `InputValidationError` when the arguments do not match (a promise only without a compiled checker). */
  input(
    entry: RegisteredTool,
    backend: ToolBackend,
    args: unknown,
    checkers: Checkers,
  ): void | Promise<void> {
    const fail = (failure: unknown): never => {
      throw new InputValidationError(entry.id, args, detail(failure), {
        cause: failure,
        backend,
        failures: failuresOf(failure),
      });
    };
    if (checkers.input !== undefined) {
      let outcome;
      try {
        outcome = checkers.input.check(args);
      } catch (error) {
        return fail(error);
      }
      if (outcome.valid) return;
      return fail(
        new SchemaValidationError(outcome.failures, {
          subject: `input of tool ${JSON.stringify(entry.id)}`,
          instance: args,
        }),
      );
    }
    if (checkers.inputError !== undefined) return fail(checkers.inputError);
    return this.#validator.validateInput(entry.tool, args).then(() => undefined, fail);
  }

  /** The `OutputValidationError` of a result that does not match, else `undefined`. */
  async output(
    entry: RegisteredTool,
    result: RunResult,
    checkers: Checkers,
  ): Promise<OutputValidationError | undefined> {
    let failure: unknown;
    if (checkers.output !== undefined) {
      try {
        const outcome = checkers.output.check(result.structured);
        if (outcome.valid) return undefined;
        failure = new SchemaValidationError(outcome.failures, {
          subject: `output of tool ${JSON.stringify(entry.id)}`,
          instance: result.structured,
        });
      } catch (error) {
        failure = error;
      }
    } else if (checkers.outputError !== undefined) {
      failure = checkers.outputError;
    } else {
      try {
        await this.#validator.validateOutput(entry.tool, result.structured);
        return undefined;
      } catch (error) {
        failure = error;
      }
    }
    return new OutputValidationError(result, detail(failure), {
      cause: failure,
      toolId: entry.id,
      failures: failuresOf(failure),
    });
  }
}
