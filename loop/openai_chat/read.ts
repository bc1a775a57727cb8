/**
 * OpenAI Chat Completions: the tool calls of a whole response
 * (`choices[n].message.tool_calls`).
 *
 * @module
 */

import { isObject, makeCall } from "../_call.ts";
import { InvalidResponseError } from "../errors.ts";
import { refuseOtherFormat } from "../_format_guard.ts";
import type { ReadCallsOptions, ToolCall } from "../tool_call.ts";

/** Options of {@linkcode readChatCompletionsCalls}. */
export interface ReadChatCompletionsOptions extends ReadCallsOptions {
  /** Which choice to read (default 0). */
  choice?: number;
}

/**
 * Every tool call of a Chat Completions response, in order, names mapped back
 * through the request's name table. Accepts the response (`{choices: [...]}`)
 * or its assistant message (`{role: "assistant", tool_calls: [...]}`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ToolNameMap } from "@toolfoundation/core/adapter";
 * import { readChatCompletionsCalls } from "@toolfoundation/core/loop";
 *
 * const names = new ToolNameMap(["math:add"], "openai");
 * const calls = readChatCompletionsCalls({
 *   choices: [{
 *     message: {
 *       role: "assistant",
 *       content: null,
 *       tool_calls: [{ id: "call_1", type: "function", function: { name: "math__add", arguments: '{"a":1,"b":2}' } }],
 *     },
 *     finish_reason: "tool_calls",
 *   }],
 * }, { names });
 * assert.equal(calls[0].toolId, "math:add");
 * assert.deepEqual(calls[0].arguments, { a: 1, b: 2 });
 * ```
 *
 * @param response The response or its message.
 * @param options Name table, normalizers and choice.
 * @returns The calls, in order.
 * @throws {WrongFormatError} When the response is recognisably of another format.
 * @throws {ProviderErrorResponseError} When it is a provider's error body.
 * @throws {InvalidResponseError} When the response is not a Chat Completions response.
 */
export function readChatCompletionsCalls(
  response: unknown,
  options?: ReadChatCompletionsOptions,
): ToolCall[] {
  refuseOtherFormat("openai", response);
  if (!isObject(response)) throw new InvalidResponseError("openai", "", "must be an object");
  let message: unknown = response;
  let at = "";
  if (!Object.hasOwn(response, "tool_calls") && response.role === undefined) {
    const choice = options?.choice ?? 0;
    if (!Array.isArray(response.choices)) {
      throw new InvalidResponseError("openai", "/choices", "must be an array");
    }
    at = `/choices/${choice}/message`;
    message = (response.choices[choice] as Record<string, unknown> | undefined)?.message;
    if (!isObject(message)) throw new InvalidResponseError("openai", at, "must be an object");
  }
  const list = (message as Record<string, unknown>).tool_calls;
  if (list === undefined || list === null) return [];
  if (!Array.isArray(list)) {
    throw new InvalidResponseError("openai", `${at}/tool_calls`, "must be an array");
  }
  return list.map((item, index) => {
    if (!isObject(item) || !isObject(item.function)) {
      throw new InvalidResponseError(
        "openai",
        `${at}/tool_calls/${index}`,
        'must be {"id", "type": "function", "function": {"name", "arguments"}}',
      );
    }
    return makeCall("openai", {
      index,
      id: item.id,
      name: item.function.name,
      text: item.function.arguments ?? "",
    }, options);
  });
}
