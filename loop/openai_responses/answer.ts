/**
 * OpenAI Responses: results as `function_call_output` items with `call_id`.
 *
 * @module
 */

import { asText, outcomePieces } from "../_content.ts";
import type { AnswerOptions, ContentWarning, ToolAnswer } from "../tool_answer.ts";
import { failureText } from "../failure.ts";
import type { CallOutcome } from "../run_calls.ts";

/** One part of a `function_call_output`'s `output` array. */
export type ResponsesOutputContent =
  | { type: "input_text"; text: string }
  | { type: "input_image"; image_url: string }
  | { type: "input_file"; filename: string; file_data: string };

/** A Responses API `function_call_output` input item. */
export interface ResponsesFunctionCallOutput {
  /** Always `function_call_output`. */
  type: "function_call_output";
  /** The `call_id` of the call it answers. */
  call_id: string;
  /** Text, or parts when there are images or files. */
  output: string | ResponsesOutputContent[];
}

/**
 * One `function_call_output` item per call, in call order. `output` is text
 * when the result is text (JSON text for structured results and failures),
 * and an array of `input_text` / `input_image` / `input_file` parts when it
 * has images or PDF documents (as data URLs); audio and other blocks become
 * text with a warning.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { answerResponses } from "@toolfoundation/core/loop";
 *
 * const { messages } = answerResponses([{
 *   call: { format: "openai-responses", index: 0, id: "call_1", name: "nope", arguments: {} },
 *   status: "failed",
 *   failure: { code: "unknown_tool", message: 'no tool is named "nope"', available: ["math__add"] },
 * }]);
 * assert.deepEqual(messages, [{
 *   type: "function_call_output",
 *   call_id: "call_1",
 *   output: '{"error":"unknown_tool","message":"no tool is named \\"nope\\"","available":["math__add"]}',
 * }]);
 * ```
 *
 * @param outcomes The outcomes, in call order.
 * @param options Media handling.
 * @returns The items and warnings.
 */
export function answerResponses(
  outcomes: readonly CallOutcome[],
  options?: AnswerOptions,
): ToolAnswer<ResponsesFunctionCallOutput> {
  const warnings: ContentWarning[] = [];
  const native = options?.media !== "text";
  const messages = outcomes.map((outcome): ResponsesFunctionCallOutput => {
    const item = { type: "function_call_output" as const, call_id: outcome.call.id ?? "" };
    if (outcome.status !== "ok") return { ...item, output: failureText(outcome.failure!) };
    const { pieces } = outcomePieces(outcome);
    const parts: ResponsesOutputContent[] = pieces.map((p): ResponsesOutputContent => {
      if (p.kind === "text") return { type: "input_text", text: p.text };
      if (native && p.kind === "image") {
        return { type: "input_image", image_url: `data:${p.mimeType};base64,${p.data}` };
      }
      if (native && p.kind === "document") {
        return {
          type: "input_file",
          filename: p.name ?? "document.pdf",
          file_data: `data:${p.mimeType};base64,${p.data}`,
        };
      }
      return { type: "input_text", text: asText(p, outcome, "openai-responses", warnings) };
    });
    const textOnly = parts.every((p) => p.type === "input_text");
    return {
      ...item,
      output: textOnly ? parts.map((p) => (p as { text: string }).text).join("\n") : parts,
    };
  });
  return { messages, warnings };
}
