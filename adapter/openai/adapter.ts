/**
 * The OpenAI Chat Completions adapter: `{type: "function", function: {...}}`
 * tools with strict mode, its preflight rules and its tool-call reader.
 *
 * @module
 */

import type { Adapter } from "../adapter.ts";
import { functionToolAdapter } from "./_function_tool.ts";
import { readChatCall } from "./_tool_call.ts";
import { OPENAI_PROFILE } from "./profile.ts";

/** An OpenAI Chat Completions function tool. */
export interface OpenAIChatTool {
  /** Always `"function"`. */
  type: "function";
  /** The function. */
  function: {
    /** The function name (`[A-Za-z0-9_-]`, at most 64). */
    name: string;
    /** What the function does. */
    description?: string;
    /** JSON Schema of the arguments. */
    parameters?: Record<string, unknown>;
    /** Strict mode. */
    strict?: boolean;
  };
}

/**
 * OpenAI Chat Completions function tools. `strict` defaults to `"auto"`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { mcpAdapter, openaiAdapter } from "@toolfoundation/core/adapter";
 *
 * const canonical = mcpAdapter.toCanonical({
 *   name: "get_weather",
 *   inputSchema: {
 *     type: "object",
 *     properties: { city: { type: "string" }, unit: { enum: ["c", "f"] } },
 *     required: ["city"],
 *     additionalProperties: false,
 *   },
 * }).tool;
 * const { tool, strict } = openaiAdapter.fromCanonical(canonical);
 * assert.equal(strict?.applied, true);
 * assert.deepEqual(tool.function.parameters?.required, ["city", "unit"]);
 * ```
 */
export const openaiAdapter: Adapter<OpenAIChatTool> = functionToolAdapter<OpenAIChatTool>(
  "openai",
  false,
  OPENAI_PROFILE,
  readChatCall,
);
