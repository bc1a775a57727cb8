/**
 * Errors of a run stopped before it finished: its deadline passed, or the
 * caller aborted it. The backend is told to stop in both cases.
 *
 * @module
 */

import { RunError, type RunErrorOptions } from "./errors.ts";

/**
 * The run exceeded its deadline; the backend was told to stop.
 *
 * @example
 * ```ts
 * import { RunTimeoutError } from "@toolfoundation/core/run";
 *
 * const error = new RunTimeoutError(50, { toolId: "slow" });
 * console.log(error.code, error.timeoutMs); // timeout 50
 * ```
 */
export class RunTimeoutError extends RunError {
  /** The deadline that was exceeded, in milliseconds. */
  readonly timeoutMs: number;

  /**
   * Creates the instance.
   *
   * @param timeoutMs The deadline, in milliseconds.
   * @param options Cause, tool ID and backend.
   */
  constructor(timeoutMs: number, options?: RunErrorOptions) {
    super(
      "timeout",
      `tool ${JSON.stringify(options?.toolId ?? "")} timed out after ${timeoutMs} ms`,
      options,
    );
    this.timeoutMs = timeoutMs;
  }
}

/**
 * The caller aborted the run; `cause` is the signal's reason.
 *
 * @example
 * ```ts
 * import { RunCancelledError } from "@toolfoundation/core/run";
 *
 * console.log(new RunCancelledError({ toolId: "t" }).code); // cancelled
 * ```
 */
export class RunCancelledError extends RunError {
  /**
   * Creates the instance.
   *
   * @param options Cause (the abort reason), tool ID and backend.
   */
  constructor(options?: RunErrorOptions) {
    super("cancelled", `tool ${JSON.stringify(options?.toolId ?? "")} was cancelled`, options);
  }
}
