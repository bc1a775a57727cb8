/**
 * Errors of a backend that could not execute a tool (it failed, or the runtime
 * refused an operation it needed) and of a tool that ran and reported failure.
 *
 * @module
 */

import { RunError, type RunErrorOptions } from "./errors.ts";
import { excerpt } from "./_text.ts";

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
  constructor(
    content: readonly unknown[],
    options?: RunErrorOptions & {
      mcpResult?: unknown;
      /** Scrubs secrets from the content's text before it is cut for the message. */
      redact?: (text: string) => string;
    },
  ) {
    const joined = content
      .map((c) =>
        (c as { type?: string; text?: string })?.type === "text" ? (c as { text: string }).text : ""
      )
      .filter((t) => t !== "")
      .join("\n");
    const text = options?.redact === undefined ? joined : options.redact(joined);
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
    const detail =
      `output is larger than ${limitBytes} bytes (the cap; raise maxOutputBytes to allow more)`;
    super(
      "output_too_large",
      options?.toolId === undefined ? detail : `tool ${JSON.stringify(options.toolId)}: ${detail}`,
      options,
    );
    this.limitBytes = limitBytes;
  }
}
