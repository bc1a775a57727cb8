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

/** A content block the provider has no form for, sent as text instead. */
export interface ContentWarning {
  /** Always `content_as_text`. */
  code: "content_as_text";
  /** The call's index. */
  callIndex: number;
  /** The call's ID, when it has one. */
  callId?: string;
  /** The block's position in the tool's content. */
  block: number;
  /** The block's type (`image`, `audio`, `resource`, `resource_link`, ...). */
  type: string;
  /** What was sent instead, and why. */
  message: string;
}

/** Options of the answer functions. */
export interface AnswerOptions {
  /**
   * `native` (default): images and PDF documents in the provider's own form
   * where it has one; `text`: every non-text block as text, with a warning.
   */
  media?: "native" | "text";
}

/** What to send back: the messages or items to append, and what did not fit. */
export interface ToolAnswer<M = unknown> {
  /**
   * Chat Completions: one `tool` message per call; Responses: one
   * `function_call_output` item per call; Anthropic: one `user` message;
   * Gemini: one `user` content. In call order.
   */
  messages: M[];
  /** Content blocks sent as text because the provider has no form for them. */
  warnings: ContentWarning[];
}

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
