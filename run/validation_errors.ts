/**
 * Errors of schema validation: arguments that do not match a tool's input
 * schema (nothing runs), results that do not match its output schema (the
 * whole result is kept).
 *
 * @module
 */

import type { ValidationFailure } from "../model/mod.ts";
import { RunError, type RunErrorOptions } from "./errors.ts";
import type { RunResult } from "./result.ts";

/** Options of the validation errors. */
export interface ValidationRunErrorOptions extends RunErrorOptions {
  /** The failures found. */
  failures?: readonly ValidationFailure[];
}

/**
 * The arguments do not match the tool's input schema; nothing was executed.
 *
 * @example
 * ```ts
 * import { InputValidationError } from "@toolfoundation/core/run";
 *
 * const error = new InputValidationError("t", { n: "x" }, "/n: must be number");
 * console.log(error.code, error.args); // input_validation { n: "x" }
 * ```
 */
export class InputValidationError extends RunError {
  /** The rejected arguments. */
  readonly args: unknown;
  /** Every failure found. */
  readonly failures: readonly ValidationFailure[];

  /**
   * Creates the instance.
   *
   * @param toolId The tool.
   * @param args The rejected arguments.
   * @param detail What is wrong.
   * @param options Failures, cause and backend.
   */
  constructor(
    toolId: string,
    args: unknown,
    detail: string,
    options?: ValidationRunErrorOptions,
  ) {
    super("input_validation", `invalid arguments for tool ${JSON.stringify(toolId)}: ${detail}`, {
      ...options,
      toolId,
    });
    this.args = args;
    this.failures = options?.failures ?? [];
  }
}

/**
 * The result does not match the tool's output schema. The complete result is
 * kept in `result`: nothing is lost.
 *
 * @example
 * ```ts
 * import { localBackend } from "@toolfoundation/core/model";
 * import { OutputValidationError } from "@toolfoundation/core/run";
 *
 * const result = {
 *   tool: { name: "t", inputSchema: { type: "object" as const } },
 *   backend: localBackend("t"),
 *   structured: 42,
 *   durationMs: 1,
 * };
 * const error = new OutputValidationError(result, "/: must be string");
 * console.log(error.code, error.result.structured); // output_validation 42
 * ```
 */
export class OutputValidationError extends RunError {
  /** The whole run result that failed validation. */
  readonly result: RunResult;
  /** Every failure found. */
  readonly failures: readonly ValidationFailure[];

  /**
   * Creates the instance.
   *
   * @param result The run result.
   * @param detail What is wrong.
   * @param options Failures and cause (tool ID and backend come from the result).
   */
  constructor(result: RunResult, detail: string, options?: ValidationRunErrorOptions) {
    const toolId = options?.toolId ?? idOf(result);
    super("output_validation", `invalid result from tool ${JSON.stringify(toolId)}: ${detail}`, {
      ...options,
      toolId,
      backend: result.backend,
    });
    this.result = result;
    this.failures = options?.failures ?? [];
  }
}

function idOf(result: RunResult): string {
  return result.tool.namespace ? `${result.tool.namespace}:${result.tool.name}` : result.tool.name;
}
