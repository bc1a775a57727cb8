/**
 * Errors raised before anything runs: the tool ID is malformed, no tool has
 * it, or the tool has no backend the runner can execute.
 *
 * @module
 */

import { RunError, type RunErrorOptions } from "./errors.ts";

/**
 * No tool with this ID is registered.
 *
 * @example
 * ```ts
 * import { ToolNotFoundError } from "@toolfoundation/core/run";
 *
 * console.log(new ToolNotFoundError("math:add").code); // tool_not_found
 * ```
 */
export class ToolNotFoundError extends RunError {
  /**
   * Creates the instance.
   *
   * @param toolId The ID looked up.
   * @param options Cause.
   */
  constructor(toolId: string, options?: RunErrorOptions) {
    super("tool_not_found", `tool ${JSON.stringify(toolId)} is not registered`, {
      ...options,
      toolId,
    });
  }
}

/**
 * The tool ID is malformed; the cause is the model's `InvalidToolIdError`.
 *
 * @example
 * ```ts
 * import { ToolIdError } from "@toolfoundation/core/run";
 *
 * console.log(new ToolIdError("a:b:c", "only one ':' is allowed").code); // invalid_tool_id
 * ```
 */
export class ToolIdError extends RunError {
  /**
   * Creates the instance.
   *
   * @param toolId The rejected ID.
   * @param reason Why it was rejected.
   * @param options Cause.
   */
  constructor(toolId: string, reason: string, options?: RunErrorOptions) {
    super("invalid_tool_id", `invalid tool ID ${JSON.stringify(toolId)}: ${reason}`, {
      ...options,
      toolId,
    });
  }
}

/**
 * The tool has no backend the runner can execute (none registered, or none
 * configured: no handler, provider or MCP server of that name).
 *
 * @example
 * ```ts
 * import { NoBackendError } from "@toolfoundation/core/run";
 *
 * console.log(new NoBackendError("t", "no local handler \"x\"").code); // no_backend
 * ```
 */
export class NoBackendError extends RunError {
  /**
   * Creates the instance.
   *
   * @param toolId The tool.
   * @param reason What is missing.
   * @param options Cause.
   */
  constructor(toolId: string, reason: string, options?: RunErrorOptions) {
    super("no_backend", `no usable backend for tool ${JSON.stringify(toolId)}: ${reason}`, {
      ...options,
      toolId,
    });
  }
}
