/**
 * The outcome of a run, and the normalization of MCP `tools/call` results into
 * one structured value.
 *
 * @module
 */

import type { Tool, ToolBackend } from "../model/mod.ts";
import type { OutputValidationError } from "./errors.ts";

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
