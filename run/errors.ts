/**
 * The runner's error hierarchy. Every error extends {@linkcode RunError} (itself a
 * `ToolFoundationError`), has a stable `code`, and keeps its `cause`, the tool ID
 * and the backend that was selected (when one was). Cancellation, timeout and a
 * tool reporting failure (`isError`) are distinct classes and codes.
 *
 * @module
 */

import { type ToolBackend, ToolFoundationError, type ValidationFailure } from "../model/mod.ts";
import type { RunResult } from "./result.ts";
import { excerpt } from "./_text.ts";

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
  | "permission_denied";

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

/**
 * The backend failed to execute the tool: a handler threw, a process exited
 * non-zero, an HTTP status >= 400, garbage output, a lost connection.
 *
 * @example
 * ```ts
 * import { ExecutionError } from "@toolfoundation/core/run";
 *
 * const error = new ExecutionError("exit code 2: boom", { toolId: "t" });
 * console.log(error.code, error.message); // execution tool "t" failed: exit code 2: boom
 * ```
 */
export class ExecutionError extends RunError {
  /** Extra facts about the failure (exit code, HTTP status, stderr tail, body excerpt). */
  readonly details: Readonly<Record<string, unknown>>;

  /**
   * Creates the instance.
   *
   * @param detail What went wrong.
   * @param options Cause, tool ID, backend and details.
   */
  constructor(
    detail: string,
    options?: RunErrorOptions & { details?: Record<string, unknown> },
  ) {
    super(
      "execution",
      options?.toolId === undefined
        ? `execution failed: ${detail}`
        : `tool ${JSON.stringify(options.toolId)} failed: ${detail}`,
      options,
    );
    this.details = options?.details ?? {};
  }
}

/**
 * The tool ran and reported failure (MCP `isError: true`). The content the
 * tool returned is kept in `content`, the raw result in `mcpResult`.
 *
 * @example
 * ```ts
 * import { ToolResultError } from "@toolfoundation/core/run";
 *
 * const error = new ToolResultError([{ type: "text", text: "no such file" }], { toolId: "fs:read" });
 * console.log(error.code, error.message); // tool_error tool "fs:read" reported an error: no such file
 * ```
 */
export class ToolResultError extends RunError {
  /** The content blocks the tool returned. */
  readonly content: readonly unknown[];
  /** The raw MCP result, when the tool is an MCP tool. */
  readonly mcpResult: unknown;

  /**
   * Creates the instance.
   *
   * @param content The content blocks returned with the error.
   * @param options Cause, tool ID, backend and the raw MCP result.
   */
  constructor(content: readonly unknown[], options?: RunErrorOptions & { mcpResult?: unknown }) {
    const text = content
      .map((c) =>
        (c as { type?: string; text?: string })?.type === "text" ? (c as { text: string }).text : ""
      )
      .filter((t) => t !== "")
      .join("\n");
    super(
      "tool_error",
      `tool ${JSON.stringify(options?.toolId ?? "")} reported an error: ${
        text === "" ? "(no text content)" : excerpt(text, 2000)
      }`,
      options,
    );
    this.content = content;
    this.mcpResult = options?.mcpResult;
  }
}

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

/**
 * The runtime refused an operation the backend needed (a Deno permission:
 * spawning, network, files).
 *
 * @example
 * ```ts
 * import { PermissionDeniedError } from "@toolfoundation/core/run";
 *
 * console.log(new PermissionDeniedError("Requires run access").code); // permission_denied
 * ```
 */
export class PermissionDeniedError extends RunError {
  /**
   * Creates the instance.
   *
   * @param detail What was refused.
   * @param options Cause, tool ID and backend.
   */
  constructor(detail: string, options?: RunErrorOptions) {
    super(
      "permission_denied",
      options?.toolId === undefined
        ? `permission denied: ${detail}`
        : `tool ${JSON.stringify(options.toolId)}: permission denied: ${detail}`,
      options,
    );
  }
}
