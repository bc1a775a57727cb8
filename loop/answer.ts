/**
 * Answering the model: the outcomes of one response's calls as the messages
 * (or items) its provider expects next, for any loop format.
 *
 * @module
 */

import { UnknownFormatError } from "../adapter/mod.ts";
import { answerAnthropic } from "./anthropic/answer.ts";
import { answerGemini } from "./gemini/answer.ts";
import { answerChatCompletions } from "./openai_chat/answer.ts";
import { answerResponses } from "./openai_responses/answer.ts";
import type { CallOutcome } from "./run_calls.ts";
import { LOOP_FORMATS, type LoopFormat } from "./tool_call.ts";
import type { AnswerOptions, ToolAnswer } from "./tool_answer.ts";

/**
 * The answer to one response's calls in the provider's documented shape.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { answerToolCalls, type CallOutcome } from "@toolfoundation/core/loop";
 *
 * const denied: CallOutcome = {
 *   call: { format: "openai", index: 0, id: "call_1", name: "fs__delete", toolId: "fs:delete", arguments: {} },
 *   status: "denied",
 *   failure: { code: "denied", message: "the call was not run: it was denied (no deletes today)" },
 * };
 * const { messages } = answerToolCalls("openai", [denied]);
 * assert.deepEqual(messages, [{
 *   role: "tool",
 *   tool_call_id: "call_1",
 *   content: '{"error":"denied","message":"the call was not run: it was denied (no deletes today)"}',
 * }]);
 * ```
 *
 * @param format The provider format.
 * @param outcomes The outcomes, in call order.
 * @param options Media handling.
 * @returns The messages and warnings.
 * @throws {UnknownFormatError} When the format is not a loop format.
 */
export function answerToolCalls(
  format: LoopFormat,
  outcomes: readonly CallOutcome[],
  options?: AnswerOptions,
): ToolAnswer {
  switch (format) {
    case "openai":
      return answerChatCompletions(outcomes);
    case "openai-responses":
      return answerResponses(outcomes, options);
    case "anthropic":
      return answerAnthropic(outcomes, options);
    case "gemini":
      return answerGemini(outcomes, options);
  }
  throw new UnknownFormatError(String(format), LOOP_FORMATS);
}
