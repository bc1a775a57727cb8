/**
 * Tool calls from a whole response, for any loop format.
 *
 * @module
 */

import { UnknownFormatError } from "../adapter/mod.ts";
import { readAnthropicCalls } from "./anthropic/read.ts";
import { readGeminiCalls } from "./gemini/read.ts";
import { readChatCompletionsCalls } from "./openai_chat/read.ts";
import { readResponsesCalls } from "./openai_responses/read.ts";
import {
  LOOP_FORMATS,
  type LoopFormat,
  type ReadCallsOptions,
  type ToolCall,
} from "./tool_call.ts";

/**
 * Every tool call of a whole response of `format`, in order, names mapped
 * back through the request's name table. Calls the model got wrong (unknown
 * name, arguments that are not JSON) are returned with a `problem`, not
 * thrown: they are answered to the model.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readToolCalls } from "@toolfoundation/core/loop";
 *
 * const calls = readToolCalls("openai-responses", {
 *   output: [{ type: "function_call", call_id: "call_1", name: "nope", arguments: "{oops" }],
 * });
 * assert.equal(calls[0].problem?.code, "invalid_json");
 * ```
 *
 * @param format The provider format.
 * @param response The response.
 * @param options Name table and normalizers.
 * @returns The calls.
 * @throws {WrongFormatError} When the response is recognisably of another format (see `identifyResponse`).
 * @throws {ProviderErrorResponseError} When it is a provider's error body: the request failed.
 * @throws {InvalidResponseError} When the response is not of the format.
 * @throws {UnknownFormatError} When the format is not a loop format.
 */
export function readToolCalls(
  format: LoopFormat,
  response: unknown,
  options?: ReadCallsOptions,
): ToolCall[] {
  switch (format) {
    case "openai":
      return readChatCompletionsCalls(response, options);
    case "openai-responses":
      return readResponsesCalls(response, options);
    case "anthropic":
      return readAnthropicCalls(response, options);
    case "gemini":
      return readGeminiCalls(response, options);
  }
  throw new UnknownFormatError(String(format), LOOP_FORMATS);
}
