/**
 * Errors of the adapters, each with a stable `code`.
 *
 * @module
 */

import { ToolFoundationError } from "../model/errors.ts";
import { formatIssues, type ToolIssue } from "../model/format_failures.ts";

/** Every code an error of the adapters can carry. */
export type AdapterErrorCode =
  | "unknown_format"
  | "adapter_exists"
  | "invalid_provider_tool"
  | "name_collision"
  | "unknown_tool_name"
  | "invalid_tool_call";

/**
 * A format name is not registered. The message lists the registered ones.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { defaultRegistry, UnknownFormatError } from "@toolfoundation/core/adapter";
 *
 * assert.throws(
 *   () => defaultRegistry().get("cohere"),
 *   (error) => error instanceof UnknownFormatError && error.known.length === 5,
 * );
 * ```
 */
export class UnknownFormatError extends ToolFoundationError {
  /** The name asked for. */
  readonly format: string;
  /** The registered format names, sorted. */
  readonly known: readonly string[];

  /**
   * Creates the error.
   *
   * @param format The name asked for.
   * @param known The registered names.
   */
  constructor(format: string, known: readonly string[]) {
    super(
      "unknown_format" satisfies AdapterErrorCode,
      `unknown tool format ${JSON.stringify(format)}; registered: ${known.join(", ")}`,
    );
    this.format = format;
    this.known = known;
  }
}

/**
 * An adapter is registered under a name that is already taken.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { AdapterExistsError, defaultRegistry, mcpAdapter } from "@toolfoundation/core/adapter";
 *
 * assert.throws(
 *   () => defaultRegistry().register(mcpAdapter),
 *   (error) => error instanceof AdapterExistsError && error.code === "adapter_exists",
 * );
 * ```
 */
export class AdapterExistsError extends ToolFoundationError {
  /** The format name. */
  readonly format: string;

  /**
   * Creates the error.
   *
   * @param format The format name.
   */
  constructor(format: string) {
    super(
      "adapter_exists" satisfies AdapterErrorCode,
      `an adapter for ${JSON.stringify(format)} is already registered; pass { replace: true }`,
    );
    this.format = format;
  }
}

/**
 * A provider-format tool is malformed (wrong shape, missing name or schema).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { InvalidProviderToolError, openaiAdapter } from "@toolfoundation/core/adapter";
 *
 * assert.throws(
 *   () => openaiAdapter.toCanonical({ type: "function" }),
 *   (error) => error instanceof InvalidProviderToolError && error.issues[0].path === "/function",
 * );
 * ```
 */
export class InvalidProviderToolError extends ToolFoundationError {
  /** The format the tool was read as. */
  readonly format: string;
  /** Every problem found, each with a JSON Pointer into the tool. */
  readonly issues: readonly ToolIssue[];

  /**
   * Creates the error.
   *
   * @param format The format name.
   * @param issues The problems (at least one).
   */
  constructor(format: string, issues: readonly ToolIssue[]) {
    super(
      "invalid_provider_tool" satisfies AdapterErrorCode,
      `invalid ${format} tool: ${formatIssues(issues)}`,
    );
    this.format = format;
    this.issues = issues;
  }
}

/**
 * Two tool IDs map to the same provider tool name.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { NameCollisionError, ToolNameMap } from "@toolfoundation/core/adapter";
 *
 * assert.throws(
 *   () => new ToolNameMap(["a:b", "a:b"], "openai"),
 *   (error) => error instanceof NameCollisionError && error.code === "name_collision",
 * );
 * ```
 */
export class NameCollisionError extends ToolFoundationError {
  /** The provider name both IDs map to. */
  readonly providerName: string;
  /** The colliding tool IDs. */
  readonly ids: readonly string[];

  /**
   * Creates the error.
   *
   * @param providerName The shared provider name.
   * @param ids The colliding tool IDs.
   */
  constructor(providerName: string, ids: readonly string[]) {
    super(
      "name_collision" satisfies AdapterErrorCode,
      `tool IDs ${ids.map((id) => JSON.stringify(id)).join(" and ")} both map to ` +
        `${JSON.stringify(providerName)}; rename one of them`,
    );
    this.providerName = providerName;
    this.ids = ids;
  }
}

/**
 * A provider tool name (e.g. from a model's tool call) maps to no known tool.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ToolNameMap, UnknownToolNameError } from "@toolfoundation/core/adapter";
 *
 * assert.throws(
 *   () => new ToolNameMap(["math:add"], "openai").toCanonical("math__sub"),
 *   (error) => error instanceof UnknownToolNameError && error.code === "unknown_tool_name",
 * );
 * ```
 */
export class UnknownToolNameError extends ToolFoundationError {
  /** The provider name that was not found. */
  readonly providerName: string;

  /**
   * Creates the error.
   *
   * @param providerName The name not found.
   * @param reason Why it cannot be mapped.
   */
  constructor(providerName: string, reason: string) {
    super(
      "unknown_tool_name" satisfies AdapterErrorCode,
      `unknown tool name ${JSON.stringify(providerName)}: ${reason}`,
    );
    this.providerName = providerName;
  }
}

/**
 * A provider tool call is malformed (unknown shape, arguments not JSON).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { InvalidToolCallError, parseToolCall } from "@toolfoundation/core/adapter";
 *
 * assert.throws(
 *   () => parseToolCall({ type: "function", function: { name: "x", arguments: "{" } }),
 *   (error) => error instanceof InvalidToolCallError && error.code === "invalid_tool_call",
 * );
 * ```
 */
export class InvalidToolCallError extends ToolFoundationError {
  /**
   * Creates the error.
   *
   * @param message What is wrong.
   * @param options The cause, if any.
   */
  constructor(message: string, options?: { cause?: unknown }) {
    super("invalid_tool_call" satisfies AdapterErrorCode, `invalid tool call: ${message}`, options);
  }
}
