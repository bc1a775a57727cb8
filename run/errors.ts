/**
 * The base of the runner's error hierarchy. Every error the runner raises
 * extends {@linkcode RunError} (itself a `ToolFoundationError`), has a stable
 * `code`, and keeps its `cause`, the tool ID and the backend that was selected
 * (when one was). The classes live by kind: lookup (`lookup_errors.ts`),
 * validation (`validation_errors.ts`), execution (`execution_errors.ts`) and
 * cancellation (`cancellation_errors.ts`). Cancellation, timeout and a tool
 * reporting failure (`isError`) are distinct classes and codes.
 *
 * @module
 */

import type { ToolBackend } from "../model/backend.ts";
import { ToolFoundationError } from "../model/errors.ts";

/** Every code a {@linkcode RunError} can carry. */
export type RunErrorCode =
  | "tool_not_found"
  | "invalid_tool_id"
  | "no_backend"
  | "input_validation"
  | "execution"
  | "output_validation"
  | "tool_error"
  | "timeout"
  | "cancelled"
  | "permission_denied"
  | "output_too_large";

/** Options shared by every run error. */
export interface RunErrorOptions {
  /** The underlying error. */
  cause?: unknown;
  /** The tool ID the run was for. */
  toolId?: string;
  /** The backend selected for the run, when one was. */
  backend?: ToolBackend;
}

/**
 * Base class of every error the runner raises.
 *
 * @example Matching on the code
 * ```ts
 * import { RunError, Runner } from "@toolfoundation/core/run";
 *
 * const runner = new Runner();
 * try {
 *   await runner.run("nope", {});
 * } catch (error) {
 *   if (error instanceof RunError) console.log(error.code, error.toolId); // tool_not_found nope
 * }
 * ```
 */
export class RunError extends ToolFoundationError {
  /** Stable, machine-readable code. */
  declare readonly code: RunErrorCode;
  /** The tool ID of the run. */
  toolId: string | undefined;
  /** The backend selected for the run, if any. */
  backend: ToolBackend | undefined;

  /**
   * Creates the instance.
   *
   * @param code Stable error code.
   * @param message Human-readable message.
   * @param options Cause, tool ID and backend.
   */
  constructor(code: RunErrorCode, message: string, options?: RunErrorOptions) {
    super(code, message, options);
    this.toolId = options?.toolId;
    this.backend = options?.backend;
  }
}
