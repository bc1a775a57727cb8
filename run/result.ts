/**
 * The outcome of a run, the error of a result that does not match its tool's
 * output schema (declared here, beside the result it keeps: a result carries
 * such errors as warnings in `warn` mode), and the normalization of MCP
 * `tools/call` results into one structured value.
 *
 * @module
 */

import type { Tool, ToolBackend, ValidationFailure } from "../model/mod.ts";
import { RunError, type ValidationRunErrorOptions } from "./errors.ts";

/** One MCP content block (`text`, `image`, `audio`, `resource_link`, `resource`). */
export interface McpContentBlock {
  /** The block type. */
  type: string;
  /** Every other field of the block, as the server sent it. */
  [field: string]: unknown;
}

/** An MCP `CallToolResult`, as the server sent it. */
export interface McpCallResult {
  /** The unstructured content. */
  content: McpContentBlock[];
  /** The structured result, when the tool returns one. */
  structuredContent?: Record<string, unknown>;
  /** `true` when the tool reports failure. */
  isError?: boolean;
  /** Metadata. */
  _meta?: Record<string, unknown>;
  /** Any other field the server sent. */
  [field: string]: unknown;
}

/** The outcome of a successful run. */
export interface RunResult {
  /** The tool that ran. */
  tool: Tool;
  /** The backend that executed it. */
  backend: ToolBackend;
  /** The normalized result value. */
  structured: unknown;
  /** The raw MCP result, as the server sent it (content, structuredContent, _meta), for MCP tools. */
  mcpResult?: McpCallResult;
  /** Wall time of the whole run, in milliseconds. */
  durationMs: number;
  /** Output-validation failures reported in `warn` mode instead of thrown. */
  warnings?: OutputValidationError[];
}

/**
 * The result does not match the tool's output schema. The complete result is
 * kept in `result`: nothing is lost.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
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
 * assert.equal(error.code, "output_validation");
 * assert.equal(error.result.structured, 42);
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

/** The tool ID of a run result (`namespace:name`, or the bare name). */
function idOf(result: RunResult): string {
  return result.tool.namespace ? `${result.tool.namespace}:${result.tool.name}` : result.tool.name;
}

/** Text that can be JSON starts like this (checked first: a failed parse is costly). */
const JSON_START = /^(?:[{["tfn]|-?\d)/;

/**
 * Normalizes an MCP tool result into one value, dropping nothing:
 *
 * - `structuredContent`, when present (the raw `content` stays in `mcpResult`);
 * - when every block is text: a single text block parsed as JSON when it is
 *   JSON and kept as text when not; several text blocks as a list of strings;
 * - when any block is not text (`image`, `audio`, `resource_link`,
 *   `resource`, or a type this version does not know): the content blocks
 *   themselves, in order, exactly as the server sent them;
 * - no content at all: `undefined`.
 *
 * `isError` is not looked at here: the runner turns it into a `ToolResultError`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { normalizeMcpResult } from "./result.ts";
 *
 * assert.deepEqual(normalizeMcpResult({ content: [{ type: "text", text: '{"sum": 3}' }] }), { sum: 3 });
 * assert.equal(normalizeMcpResult({ content: [{ type: "text", text: "hello" }] }), "hello");
 * assert.deepEqual(normalizeMcpResult({
 *   content: [{ type: "text", text: "a" }, { type: "text", text: "b" }],
 * }), ["a", "b"]);
 * assert.deepEqual(normalizeMcpResult({ content: [], structuredContent: { ok: true } }), { ok: true });
 * const image = { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" };
 * assert.deepEqual(
 *   normalizeMcpResult({ content: [{ type: "text", text: "see" }, image] }),
 *   [{ type: "text", text: "see" }, image],
 * );
 * ```
 *
 * @param result The MCP result.
 * @returns The structured value.
 */
export function normalizeMcpResult(result: McpCallResult): unknown {
  if (result.structuredContent !== undefined && result.structuredContent !== null) {
    return result.structuredContent;
  }
  const content = result.content ?? [];
  const texts: string[] = [];
  for (const block of content) {
    if (block?.type !== "text" || typeof block.text !== "string") return content;
    texts.push(block.text);
  }
  if (texts.length === 0) return undefined;
  if (texts.length > 1) return texts;
  const text = texts[0];
  const trimmed = text.trim();
  if (!JSON_START.test(trimmed)) return text;
  try {
    return JSON.parse(trimmed);
  } catch {
    return text;
  }
}
