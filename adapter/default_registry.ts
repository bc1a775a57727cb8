/**
 * The registry with the built-in adapters.
 *
 * @module
 */

import { anthropicAdapter } from "./anthropic_adapter.ts";
import { geminiAdapter } from "./gemini_adapter.ts";
import { mcpAdapter } from "./mcp_adapter.ts";
import { openaiAdapter, openaiResponsesAdapter } from "./openai_adapter.ts";
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
