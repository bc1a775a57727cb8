/**
 * The registry with the built-in adapters: the one list of built-in formats.
 * `preflight`, `parseToolCall`, the format names of `encodeToolName`,
 * `decodeToolName` and `ToolNameMap`, and the CLI's target choices are derived
 * from it.
 *
 * @module
 */

import { anthropicAdapter } from "./anthropic/mod.ts";
import { geminiAdapter } from "./gemini/mod.ts";
import { mcpAdapter } from "./mcp/mod.ts";
import { openaiAdapter } from "./openai/mod.ts";
import { openaiResponsesAdapter } from "./openai_responses/mod.ts";
import { AdapterRegistry } from "./registry.ts";

/**
 * A new registry holding `mcp`, `openai`, `openai-responses`, `anthropic` and
 * `gemini`. Each call returns a fresh registry, so registering more adapters
 * affects only that one.
 *
 * @example Converting to every target
 * ```ts
 * import assert from "node:assert/strict";
 * import { defaultRegistry } from "@toolfoundation/core/adapter";
 *
 * const registry = defaultRegistry();
 * const tool = {
 *   name: "calculator",
 *   inputSchema: {
 *     type: "object",
 *     properties: {
 *       operation: { type: "string", enum: ["add", "subtract", "multiply", "divide"] },
 *       a: { type: "number" },
 *       b: { type: "number" },
 *     },
 *     required: ["operation", "a", "b"],
 *     additionalProperties: false,
 *   },
 * };
 * const lost = registry.list().map((target) => {
 *   const { warnings } = registry.convert(tool, "mcp", target);
 *   return [target, warnings.map((w) => `${w.feature} ${w.action}`)];
 * });
 * assert.deepEqual(Object.fromEntries(lost), {
 *   anthropic: [],
 *   gemini: ["additionalProperties dropped"],
 *   mcp: [],
 *   openai: [],
 *   "openai-responses": [],
 * });
 * ```
 *
 * @returns A registry with the five built-in adapters.
 */
export function defaultRegistry(): AdapterRegistry {
  return new AdapterRegistry()
    .register(mcpAdapter)
    .register(openaiAdapter)
    .register(openaiResponsesAdapter)
    .register(anthropicAdapter)
    .register(geminiAdapter);
}

let builtin: AdapterRegistry | undefined;

/**
 * The built-in registry shared by the functions that take a built-in format
 * name (`preflight`, `parseToolCall`, `encodeToolName`, ...). Internal: never
 * handed to users, so nothing registers into it.
 *
 * @returns The shared registry of the built-in adapters.
 */
export function builtinRegistry(): AdapterRegistry {
  builtin ??= defaultRegistry();
  return builtin;
}
