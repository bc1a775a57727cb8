/**
 * Anthropic Messages: the tool calls of a whole response (`content` blocks of
 * type `tool_use`).
 *
 * @module
 */

import { isObject, makeCall } from "../_call.ts";
import { InvalidResponseError } from "../errors.ts";
import { refuseOtherFormat } from "../_format_guard.ts";
import type { ReadCallsOptions, ToolCall } from "../tool_call.ts";

/**
 * Every `tool_use` block of a Messages API response, in order, names mapped
 * back through the request's name table. Accepts the message
 * (`{content: [...]}`) or its `content` array.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readAnthropicCalls } from "@toolfoundation/core/loop";
 *
 * const calls = readAnthropicCalls({
 *   role: "assistant",
 *   content: [
 *     { type: "text", text: "Adding." },
 *     { type: "tool_use", id: "toolu_1", name: "math__add", input: { a: 1, b: 2 } },
 *   ],
 *   stop_reason: "tool_use",
 * });
 * assert.deepEqual(calls.map((c) => [c.id, c.toolId]), [["toolu_1", "math:add"]]);
 * ```
 *
 * @param response The message or its `content`.
 * @param options Name table and normalizers.
 * @returns The calls, in order.
 * @throws {WrongFormatError} When the response is recognisably of another format.
 * @throws {ProviderErrorResponseError} When it is a provider's error body.
 * @throws {InvalidResponseError} When the response is not a Messages API response.
 */
export function readAnthropicCalls(response: unknown, options?: ReadCallsOptions): ToolCall[] {
  refuseOtherFormat("anthropic", response);
  const content = Array.isArray(response) ? response : isObject(response) ? response.content : null;
  if (!Array.isArray(content)) {
    throw new InvalidResponseError("anthropic", "/content", "must be an array");
  }
  const calls: ToolCall[] = [];
  content.forEach((block, at) => {
    if (!isObject(block)) {
      throw new InvalidResponseError("anthropic", `/content/${at}`, "must be an object");
    }
    if (block.type !== "tool_use") return;
    calls.push(makeCall("anthropic", {
      index: calls.length,
      id: block.id,
      name: block.name,
      value: block.input,
    }, options));
  });
  return calls;
}
