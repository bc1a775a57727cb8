/**
 * Provider tool calls back to canonical tool IDs and arguments.
 *
 * @module
 */

import { builtinRegistry } from "./default_registry.ts";
import type { CanonicalToolCall, ParseToolCallOptions } from "./adapter.ts";

/**
 * Reads a tool call of any supported provider: OpenAI Chat Completions
 * (`{id, type: "function", function: {name, arguments}}`), OpenAI Responses
 * (`{type: "function_call", call_id, name, arguments}`), Anthropic
 * (`{type: "tool_use", id, name, input}`), Gemini (`{functionCall: {name, args}}`)
 * and MCP (`{name, arguments}`), and maps its name back to the canonical tool ID.
 * Each shape is read by its built-in adapter's `readToolCall`;
 * `AdapterRegistry.parseToolCall` does the same for any registered format.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseToolCall, ToolNameMap } from "@toolfoundation/core/adapter";
 *
 * const names = new ToolNameMap(["math:add"], "anthropic");
 * const call = parseToolCall(
 *   { type: "tool_use", id: "toolu_1", name: "math__add", input: { a: 1, b: 2 } },
 *   { names },
 * );
 * assert.deepEqual(call, { format: "anthropic", toolId: "math:add", callId: "toolu_1", arguments: { a: 1, b: 2 } });
 * ```
 *
 * @param call The provider's tool call object.
 * @param options Name table and normalizers.
 * @returns The canonical tool ID, call ID and arguments.
 * @throws {InvalidToolCallError} When the shape is unknown or the arguments are not JSON.
 * @throws {UnknownToolNameError} When the name maps to no tool.
 */
export function parseToolCall(call: unknown, options?: ParseToolCallOptions): CanonicalToolCall {
  return builtinRegistry().parseToolCall(call, options);
}
