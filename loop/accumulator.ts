/**
 * Tool calls from a stream: one accumulator per provider format takes the
 * documented stream events and hands out each call as soon as it is
 * complete, as a push API ({@linkcode ToolCallAccumulator.push}) or as an
 * async iterable ({@linkcode streamToolCalls}).
 *
 * @module
 */

import { UnknownFormatError } from "../adapter/mod.ts";
import { IncompleteStreamError } from "./errors.ts";
import { ChatCompletionsAccumulator } from "./openai_chat/accumulator.ts";
import { ResponsesAccumulator } from "./openai_responses/accumulator.ts";
import { AnthropicAccumulator } from "./anthropic/accumulator.ts";
import { GeminiAccumulator } from "./gemini/accumulator.ts";
import {
  LOOP_FORMATS,
  type LoopFormat,
  type ReadCallsOptions,
  type ToolCall,
  type ToolCallAccumulator,
} from "./tool_call.ts";

/**
 * A new accumulator for a format.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createAccumulator } from "@toolfoundation/core/loop";
 *
 * const accumulator = createAccumulator("anthropic");
 * accumulator.push({ type: "content_block_start", index: 0, content_block: { type: "tool_use", id: "toolu_1", name: "math__add", input: {} } });
 * accumulator.push({ type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: '{"a": 1, "b"' } });
 * accumulator.push({ type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: ": 2}" } });
 * const [call] = accumulator.push({ type: "content_block_stop", index: 0 });
 * assert.deepEqual(call.arguments, { a: 1, b: 2 });
 * assert.deepEqual(accumulator.end(), []);
 * ```
 *
 * @param format The provider format.
 * @param options Name table and normalizers.
 * @returns The accumulator.
 * @throws {UnknownFormatError} When the format is not a loop format.
 */
export function createAccumulator(
  format: LoopFormat,
  options?: ReadCallsOptions,
): ToolCallAccumulator {
  switch (format) {
    case "openai":
      return new ChatCompletionsAccumulator(options);
    case "openai-responses":
      return new ResponsesAccumulator(options);
    case "anthropic":
      return new AnthropicAccumulator(options);
    case "gemini":
      return new GeminiAccumulator(options);
  }
  throw new UnknownFormatError(String(format), LOOP_FORMATS);
}

/**
 * The calls of a stream of events, each as soon as it is complete. Events are
 * objects, JSON texts (as {@linkcode parseSse} yields them) or arrays of
 * merged events. When the source ends in the middle of an event
 * (`IncompleteStreamError`) and a call is open, the error is the
 * `IncompleteCallError` naming the call (the stream error is its `cause`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { streamToolCalls } from "@toolfoundation/core/loop";
 *
 * async function* chunks() {
 *   yield { choices: [{ index: 0, delta: { tool_calls: [{ index: 0, id: "call_1", type: "function", function: { name: "math__add", arguments: "" } }] } }] };
 *   yield { choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: '{"a":1,"b":2}' } }] } }] };
 *   yield { choices: [{ index: 0, delta: {}, finish_reason: "tool_calls" }] };
 * }
 * const ids = [];
 * for await (const call of streamToolCalls("openai", chunks())) ids.push(call.toolId);
 * assert.deepEqual(ids, ["math:add"]);
 * ```
 *
 * @param format The provider format.
 * @param events The events.
 * @param options Name table and normalizers.
 * @returns The calls, each as soon as it is complete.
 */
export async function* streamToolCalls(
  format: LoopFormat,
  events: AsyncIterable<unknown> | Iterable<unknown>,
  options?: ReadCallsOptions,
): AsyncGenerator<ToolCall, void, undefined> {
  const accumulator = createAccumulator(format, options);
  try {
    for await (const event of events) yield* accumulator.push(event);
  } catch (error) {
    if (!(error instanceof IncompleteStreamError)) throw error;
    try {
      accumulator.end();
    } catch (incomplete) {
      (incomplete as { cause?: unknown }).cause ??= error;
      throw incomplete;
    }
    throw error;
  }
  yield* accumulator.end();
}
