/**
 * Anthropic Messages: results as one `user` message of `tool_result` blocks.
 *
 * @module
 */

import { asText, outcomePieces } from "../_content.ts";
import type { AnswerOptions, ContentWarning, ToolAnswer } from "../tool_answer.ts";
import { failureText } from "../failure.ts";
import type { CallOutcome } from "../run_calls.ts";

/** A content block inside a `tool_result`. */
export type AnthropicToolResultContent =
  | { type: "text"; text: string }
  | { type: "image"; source: { type: "base64"; media_type: string; data: string } }
  | { type: "document"; source: { type: "base64"; media_type: "application/pdf"; data: string } };

/** A `tool_result` block. */
export interface AnthropicToolResult {
  /** Always `tool_result`. */
  type: "tool_result";
  /** The `id` of the `tool_use` block it answers. */
  tool_use_id: string;
  /** Text, or blocks when there are images or documents. */
  content: string | AnthropicToolResultContent[];
  /** `true` when the call failed or was denied. */
  is_error?: true;
}

/** The `user` message that answers a response's `tool_use` blocks. */
export interface AnthropicToolResultMessage {
  /** Always `user`. */
  role: "user";
  /** One `tool_result` per call, in call order. */
  content: AnthropicToolResult[];
}

/** The image types Anthropic accepts. */
const IMAGE_TYPES = new Set(["image/jpeg", "image/png", "image/gif", "image/webp"]);

/**
 * One `user` message with a `tool_result` block per call, in call order;
 * failures and denials have `is_error: true` and a JSON text saying what
 * happened. Images (JPEG, PNG, GIF, WebP) and PDF documents go as `image` and
 * `document` blocks; anything else becomes text with a warning.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { answerAnthropic } from "@toolfoundation/core/loop";
 *
 * const { messages } = answerAnthropic([{
 *   call: { format: "anthropic", index: 0, id: "toolu_1", name: "math__add", toolId: "math:add", arguments: {} },
 *   status: "failed",
 *   failure: { code: "timeout", message: "the tool did not finish within 50 ms and was stopped" },
 * }]);
 * assert.deepEqual(messages, [{
 *   role: "user",
 *   content: [{
 *     type: "tool_result",
 *     tool_use_id: "toolu_1",
 *     content: '{"error":"timeout","message":"the tool did not finish within 50 ms and was stopped"}',
 *     is_error: true,
 *   }],
 * }]);
 * ```
 *
 * @param outcomes The outcomes, in call order.
 * @param options Media handling.
 * @returns The message and warnings.
 */
export function answerAnthropic(
  outcomes: readonly CallOutcome[],
  options?: AnswerOptions,
): ToolAnswer<AnthropicToolResultMessage> {
  const warnings: ContentWarning[] = [];
  const native = options?.media !== "text";
  const content = outcomes.map((outcome): AnthropicToolResult => {
    const block = { type: "tool_result" as const, tool_use_id: outcome.call.id ?? "" };
    if (outcome.status !== "ok") {
      return { ...block, content: failureText(outcome.failure!), is_error: true };
    }
    const blocks = outcomePieces(outcome).pieces.map((p): AnthropicToolResultContent => {
      if (p.kind === "text") return { type: "text", text: p.text };
      if (native && p.kind === "image" && IMAGE_TYPES.has(p.mimeType)) {
        return { type: "image", source: { type: "base64", media_type: p.mimeType, data: p.data } };
      }
      if (native && p.kind === "document") {
        return {
          type: "document",
          source: { type: "base64", media_type: "application/pdf", data: p.data },
        };
      }
      return { type: "text", text: asText(p, outcome, "anthropic", warnings) };
    });
    const textOnly = blocks.every((b) => b.type === "text");
    return {
      ...block,
      content: textOnly ? blocks.map((b) => (b as { text: string }).text).join("\n") : blocks,
    };
  });
  return { messages: outcomes.length === 0 ? [] : [{ role: "user", content }], warnings };
}
