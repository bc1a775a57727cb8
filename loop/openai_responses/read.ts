/**
 * OpenAI Responses: the tool calls of a whole response (`output` items of
 * type `function_call`).
 *
 * @module
 */

import { isObject, makeCall } from "../_call.ts";
import { InvalidResponseError } from "../errors.ts";
import { refuseOtherFormat } from "../_format_guard.ts";
import type { ReadCallsOptions, ToolCall } from "../tool_call.ts";

/**
 * Every `function_call` item of a Responses API response, in order, names
 * mapped back through the request's name table. Accepts the response
 * (`{output: [...]}`) or its `output` array.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readResponsesCalls } from "@toolfoundation/core/loop";
 *
 * const calls = readResponsesCalls({
 *   output: [
 *     { type: "reasoning", id: "rs_1", summary: [] },
 *     { type: "function_call", id: "fc_1", call_id: "call_1", name: "math__add", arguments: '{"a":1,"b":2}' },
 *   ],
 * });
 * assert.equal(calls.length, 1);
 * assert.equal(calls[0].id, "call_1");
 * assert.equal(calls[0].toolId, "math:add");
 * ```
 *
 * @param response The response or its `output`.
 * @param options Name table and normalizers.
 * @returns The calls, in order.
 * @throws {WrongFormatError} When the response is recognisably of another format.
 * @throws {ProviderErrorResponseError} When it is a provider's error body.
 * @throws {InvalidResponseError} When the response is not a Responses API response.
 */
export function readResponsesCalls(response: unknown, options?: ReadCallsOptions): ToolCall[] {
  refuseOtherFormat("openai-responses", response);
  const output = Array.isArray(response) ? response : isObject(response) ? response.output : null;
  if (!Array.isArray(output)) {
    throw new InvalidResponseError("openai-responses", "/output", "must be an array");
  }
  const calls: ToolCall[] = [];
  output.forEach((item, at) => {
    if (!isObject(item)) {
      throw new InvalidResponseError("openai-responses", `/output/${at}`, "must be an object");
    }
    if (item.type !== "function_call") return;
    calls.push(makeCall("openai-responses", {
      index: calls.length,
      id: item.call_id,
      name: item.name,
      text: item.arguments ?? "",
    }, options));
  });
  return calls;
}
