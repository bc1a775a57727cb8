/**
 * Gemini: results as `functionResponse` parts of one `user` content.
 *
 * @module
 */

import { asText, outcomePieces } from "../_content.ts";
import type { AnswerOptions, ContentWarning, ToolAnswer } from "../tool_answer.ts";
import { failureJson } from "../failure.ts";
import type { CallOutcome } from "../run_calls.ts";

/** A `functionResponse` part. */
export interface GeminiFunctionResponsePart {
  /** The response. */
  functionResponse: {
    /** The `id` of the call, when the call had one. */
    id?: string;
    /** The function name, as the model called it. */
    name: string;
    /** `{"output": ...}` on success, `{"error": {"code", "message", ...}}` on failure. */
    response: { output: unknown; content?: string } | { error: Record<string, unknown> };
    /** Images and PDF documents the tool returned (multimodal function responses). */
    parts?: Array<{ inlineData: { mimeType: string; data: string } }>;
  };
}

/** The content that answers a response's function calls. */
export interface GeminiFunctionResponseContent {
  /** Always `user`. */
  role: "user";
  /** One `functionResponse` part per call, in call order. */
  parts: GeminiFunctionResponsePart[];
}

/**
 * One `user` content with a `functionResponse` part per call, in call order:
 * `name` as the model called it, `id` where the call had one, and `response`
 * a JSON object: `{"output": <structuredContent or the value>}`, or the text
 * when the result is text; `{"error": {"code", "message", ...}}` on failure (the keys
 * Gemini documents). Images and PDF documents go into the part's `parts` as
 * `inlineData`; other blocks become text with a warning.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { localBackend } from "@toolfoundation/core/model";
 * import { answerGemini } from "@toolfoundation/core/loop";
 *
 * const { messages } = answerGemini([{
 *   call: { format: "gemini", index: 0, id: "fc_1", name: "math:add", toolId: "math:add", arguments: { a: 1, b: 2 } },
 *   status: "ok",
 *   result: { tool: { name: "add", inputSchema: { type: "object" } }, backend: localBackend("add"), structured: { sum: 3 }, durationMs: 1 },
 * }]);
 * assert.deepEqual(messages, [{
 *   role: "user",
 *   parts: [{ functionResponse: { id: "fc_1", name: "math:add", response: { output: { sum: 3 } } } }],
 * }]);
 * ```
 *
 * @param outcomes The outcomes, in call order.
 * @param options Media handling.
 * @returns The content and warnings.
 */
export function answerGemini(
  outcomes: readonly CallOutcome[],
  options?: AnswerOptions,
): ToolAnswer<GeminiFunctionResponseContent> {
  const warnings: ContentWarning[] = [];
  const native = options?.media !== "text";
  const parts = outcomes.map((outcome): GeminiFunctionResponsePart => {
    const head = {
      ...(outcome.call.id === undefined ? {} : { id: outcome.call.id }),
      name: outcome.call.name,
    };
    if (outcome.status !== "ok") {
      const { error: code, ...rest } = failureJson(outcome.failure!);
      return { functionResponse: { ...head, response: { error: { code, ...rest } } } };
    }
    const pieces = outcomePieces(outcome);
    const media: Array<{ inlineData: { mimeType: string; data: string } }> = [];
    const texts: string[] = [];
    const converted: string[] = [];
    for (const p of pieces.pieces) {
      if (p.kind === "text") texts.push(p.text);
      else if (native && (p.kind === "image" || p.kind === "document")) {
        media.push({ inlineData: { mimeType: p.mimeType, data: p.data } });
      } else {
        const text = asText(p, outcome, "gemini", warnings);
        texts.push(text);
        converted.push(text);
      }
    }
    // With a JSON value, the text blocks mirror it; blocks sent as text go along as `content`.
    const response = pieces.hasJson
      ? {
        output: pieces.json,
        ...(converted.length === 0 ? {} : { content: converted.join("\n") }),
      }
      : { output: texts.join("\n") };
    return {
      functionResponse: {
        ...head,
        response,
        ...(media.length === 0 ? {} : { parts: media }),
      },
    };
  });
  return { messages: outcomes.length === 0 ? [] : [{ role: "user", parts }], warnings };
}
