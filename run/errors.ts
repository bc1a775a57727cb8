/**
 * Every error the runner raises, in one place (but `OutputValidationError`,
 * which is declared with the run result it keeps, in `result.ts`). Each extends
 * {@linkcode RunError} (itself a `ToolFoundationError`), has a stable `code`
 * from {@linkcode RunErrorCode}, and keeps its `cause`, the tool ID and the
 * backend that was selected (when one was). By kind: lookup (the ID is
 * malformed, unknown, or has no backend), validation (input or output schema),
 * execution (the backend failed, the tool reported failure, a permission was
 * refused, the output was too large) and cancellation (timeout, abort).
 * Cancellation, timeout and a tool reporting failure (`isError`) are distinct
 * classes and codes.
 *
 * @module
 */

import type { ToolBackend } from "../model/backend.ts";
import {
  type ModelErrorCode,
  ToolFoundationError,
  type ValidationFailure,
} from "../model/errors.ts";
import {
  executionMessage,
  outputTooLargeMessage,
  permissionDeniedMessage,
  toolErrorMessage,
} from "./_error_text.ts";

/**
 * Every code a {@linkcode RunError} can carry. `invalid_tool_id` is the
 * model's code (see `ModelErrorCode`): {@linkcode ToolIdError} wraps the
 * model's `InvalidToolIdError` and keeps its code.
 */
export type RunErrorCode =
  | "tool_not_found"
  | Extract<ModelErrorCode, "invalid_tool_id">
  | "no_backend"
  | "input_validation"
  | "execution"
  | "output_validation"
  | "tool_error"
  | "timeout"
  | "cancelled"
  | "permission_denied"
  | "output_too_large"
  | "auth_login_required"
  | "auth_failed"
  | "chain_reference";

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
 * import assert from "node:assert/strict";
 * import { RunError, Runner } from "@toolfoundation/core/run";
 *
 * const runner = new Runner();
 * await assert.rejects(
 *   runner.run("nope", {}),
 *   (error) => error instanceof RunError && error.code === "tool_not_found" && error.toolId === "nope",
 * );
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

// Lookup: errors raised before anything runs: the tool ID is malformed, no tool has it, or the
// tool has no backend the runner can execute.

/**
 * No tool with this ID is registered.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ToolNotFoundError } from "@toolfoundation/core/run";
 *
 * assert.equal(new ToolNotFoundError("math:add").code, "tool_not_found");
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
 * import assert from "node:assert/strict";
 * import { ToolIdError } from "@toolfoundation/core/run";
 *
 * assert.equal(new ToolIdError("a:b:c", "only one ':' is allowed").code, "invalid_tool_id");
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
 * import assert from "node:assert/strict";
 * import { NoBackendError } from "@toolfoundation/core/run";
 *
 * assert.equal(new NoBackendError("t", "no local handler \"x\"").code, "no_backend");
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

// Validation: arguments that do not match a tool's input schema (nothing runs). Results that do
// not match its output schema are an `OutputValidationError`, declared with the result it keeps
// (`result.ts`: a result carries such errors as warnings, so each type names the other).

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
 * import assert from "node:assert/strict";
 * import { InputValidationError } from "@toolfoundation/core/run";
 *
 * const error = new InputValidationError("t", { n: "x" }, "/n: must be number");
 * assert.equal(error.code, "input_validation");
 * assert.deepEqual(error.args, { n: "x" });
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

// Execution: a backend that could not execute a tool (it failed, or the runtime refused an
// operation it needed) and a tool that ran and reported failure.

/**
 * The backend failed to execute the tool: a handler threw, a process exited
 * non-zero, an HTTP status >= 400, garbage output, a lost connection.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ExecutionError } from "@toolfoundation/core/run";
 *
 * const error = new ExecutionError("exit code 2: boom", { toolId: "t" });
 * assert.equal(error.code, "execution");
 * assert.equal(error.message, 'tool "t" failed: exit code 2: boom');
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
    super("execution", executionMessage(detail, options?.toolId), options);
    this.details = options?.details ?? {};
  }
}

/**
 * The tool ran and reported failure (MCP `isError: true`). The content the
 * tool returned is kept in `content`, the raw result in `mcpResult`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ToolResultError } from "@toolfoundation/core/run";
 *
 * const error = new ToolResultError([{ type: "text", text: "no such file" }], { toolId: "fs:read" });
 * assert.equal(error.code, "tool_error");
 * assert.equal(error.message, 'tool "fs:read" reported an error: no such file');
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
  constructor(
    content: readonly unknown[],
    options?: RunErrorOptions & {
      mcpResult?: unknown;
      /** Scrubs secrets from the content's text before it is cut for the message. */
      redact?: (text: string) => string;
    },
  ) {
    super("tool_error", toolErrorMessage(content, options?.toolId, options?.redact), options);
    this.content = content;
    this.mcpResult = options?.mcpResult;
  }
}

/**
 * The runtime refused an operation the backend needed (a Deno permission:
 * spawning, network, files).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { PermissionDeniedError } from "@toolfoundation/core/run";
 *
 * assert.equal(new PermissionDeniedError("Requires run access").code, "permission_denied");
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
    super("permission_denied", permissionDeniedMessage(detail, options?.toolId), options);
  }
}

/**
 * A module tool's sandbox refused something its manifest grant does not cover
 * (code `permission_denied`). Unlike the CLI's own permission checks (exit 3),
 * this is the tool's failure (exit 1): the fix is the tool's `permissions:`
 * grant in the manifest, not a flag of the CLI.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isSandboxDenial, SandboxDeniedError } from "./errors.ts";
 *
 * const error = new SandboxDeniedError("cannot read /etc/passwd", { toolId: "t" });
 * assert.equal(error.code, "permission_denied");
 * assert.ok(isSandboxDenial(error));
 * ```
 */
export class SandboxDeniedError extends PermissionDeniedError {
  /** Always true: the tool's grant refused it, not the CLI's flags. */
  readonly sandbox: true = true;

  /**
   * Creates the error.
   *
   * @param detail What was refused and which grant to change.
   * @param options Cause and tool ID.
   */
  constructor(detail: string, options?: RunErrorOptions) {
    super(detail, options);
  }
}

/** Whether an error is a module tool's sandbox denial (see {@linkcode SandboxDeniedError}). */
export function isSandboxDenial(error: unknown): boolean {
  return error instanceof SandboxDeniedError ||
    (error as { sandbox?: unknown } | null)?.sandbox === true;
}

/**
 * A tool's output (a provider's response, a process's stdout, a module tool's
 * result, an MCP message) is larger than the configured cap. The rest was not
 * read into memory.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { OutputTooLargeError } from "@toolfoundation/core/run";
 *
 * const error = new OutputTooLargeError(1024, { toolId: "t" });
 * assert.equal(error.code, "output_too_large");
 * assert.equal(error.limitBytes, 1024);
 * assert.equal(error.message, 'tool "t": output is larger than 1024 bytes (the cap; raise maxOutputBytes to allow more)');
 * ```
 */
export class OutputTooLargeError extends RunError {
  /** The cap that was exceeded, in bytes. */
  readonly limitBytes: number;

  /**
   * Creates the instance.
   *
   * @param limitBytes The cap, in bytes.
   * @param options Cause, tool ID and backend.
   */
  constructor(limitBytes: number, options?: RunErrorOptions) {
    super("output_too_large", outputTooLargeMessage(limitBytes, options?.toolId), options);
    this.limitBytes = limitBytes;
  }
}

// Cancellation: a run stopped before it finished: its deadline passed, or the caller aborted it.
// The backend is told to stop in both cases.

/**
 * The run exceeded its deadline; the backend was told to stop.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { RunTimeoutError } from "@toolfoundation/core/run";
 *
 * const error = new RunTimeoutError(50, { toolId: "slow" });
 * assert.equal(error.code, "timeout");
 * assert.equal(error.timeoutMs, 50);
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
 * import assert from "node:assert/strict";
 * import { RunCancelledError } from "@toolfoundation/core/run";
 *
 * assert.equal(new RunCancelledError({ toolId: "t" }).code, "cancelled");
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
 * A chain step's argument takes its value from the chain input or an earlier
 * step (`{ $from: ... }`) and that value is not there, or the reference names
 * no earlier step; the step did not run.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ChainReferenceError } from "./errors.ts";
 *
 * const error = new ChainReferenceError("args/id: nothing at /id", { toolId: "t" });
 * assert.equal(error.code, "chain_reference");
 * ```
 */
export class ChainReferenceError extends RunError {
  /**
   * Creates the instance.
   *
   * @param detail Which reference, and what is wrong.
   * @param options Tool ID and cause.
   */
  constructor(detail: string, options?: RunErrorOptions) {
    super(
      "chain_reference",
      `${
        options?.toolId === undefined ? "a step" : `tool ${JSON.stringify(options.toolId)}`
      } did not run: ${detail}`,
      options,
    );
  }
}
