/**
 * The OpenAI Responses adapter: flat `{type: "function", name, ...}` function
 * tools (the OpenAI function-tool conversion), and `function_call` items.
 *
 * @module
 */

import type { Adapter } from "../adapter.ts";
import { functionToolAdapter } from "../openai/_function_tool.ts";
import { readResponsesCall } from "./_tool_call.ts";
import { OPENAI_RESPONSES_PROFILE } from "./profile.ts";

/** An OpenAI Responses API function tool. */
export interface OpenAIResponsesTool {
  /** Always `"function"`. */
  type: "function";
  /** The function name (`[A-Za-z0-9_-]`, at most 64). */
  name: string;
  /** What the function does. */
  description?: string;
  /** JSON Schema of the arguments. */
  parameters?: Record<string, unknown>;
  /** Strict mode (the API's default is strict when absent, so it is always written). */
  strict?: boolean;
}

/**
 * OpenAI Responses API function tools (flat shape). `strict` is always
 * written, because the API treats an absent flag as strict.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { openaiResponsesAdapter } from "@toolfoundation/core/adapter";
 *
 * const { tool } = openaiResponsesAdapter.toCanonical({
 *   type: "function",
 *   name: "math__add",
 *   parameters: { type: "object", properties: { a: { type: "number" } } },
 *   strict: false,
 * });
 * assert.equal(tool.namespace, "math");
 * assert.equal(tool.name, "add");
 * ```
 */
export const openaiResponsesAdapter: Adapter<OpenAIResponsesTool> = functionToolAdapter<
  OpenAIResponsesTool
>(
  "openai-responses",
  true,
  OPENAI_RESPONSES_PROFILE,
  readResponsesCall,
);
