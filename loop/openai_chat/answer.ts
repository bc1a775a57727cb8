/**
 * OpenAI Chat Completions: results as `role: "tool"` messages with
 * `tool_call_id`.
 *
 * @module
 */

import { allText, outcomePieces } from "../_content.ts";
import type { ContentWarning, ToolAnswer } from "../tool_answer.ts";
import { failureText } from "../failure.ts";
import type { CallOutcome } from "../run_calls.ts";

/** A Chat Completions tool message. */
export interface ChatToolMessage {
  /** Always `tool`. */
  role: "tool";
  /** The `id` of the call it answers. */
  tool_call_id: string;
  /** The result as text (JSON text for structured results and failures). */
  content: string;
}

/**
 * One `tool` message per call, in call order. Tool messages carry text only:
 * images, documents and other non-text blocks become text, each with a
 * warning; structured results and failures are JSON text.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { localBackend } from "@toolfoundation/core/model";
 * import { answerChatCompletions } from "@toolfoundation/core/loop";
 *
 * const { messages } = answerChatCompletions([{
 *   call: { format: "openai", index: 0, id: "call_1", name: "math__add", toolId: "math:add", arguments: { a: 1, b: 2 } },
 *   status: "ok",
 *   result: { tool: { name: "add", inputSchema: { type: "object" } }, backend: localBackend("add"), structured: { sum: 3 }, durationMs: 1 },
 * }]);
 * assert.deepEqual(messages, [{ role: "tool", tool_call_id: "call_1", content: '{"sum":3}' }]);
 * ```
 *
 * @param outcomes The outcomes, in call order.
 * @returns The messages and warnings.
 */
export function answerChatCompletions(
  outcomes: readonly CallOutcome[],
): ToolAnswer<ChatToolMessage> {
  const warnings: ContentWarning[] = [];
  const messages = outcomes.map((outcome): ChatToolMessage => ({
    role: "tool",
    tool_call_id: outcome.call.id ?? "",
    content: outcome.status === "ok"
      ? allText(outcomePieces(outcome), outcome, "openai", warnings)
      : failureText(outcome.failure!),
  }));
  return { messages, warnings };
}
