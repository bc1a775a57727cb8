/**
 * Gemini: the tool calls of a whole response (`candidates[0].content.parts`
 * with `functionCall`).
 *
 * @module
 */

import { isObject, makeCall } from "../_call.ts";
import { InvalidResponseError } from "../errors.ts";
import { refuseOtherFormat } from "../_format_guard.ts";
import type { ReadCallsOptions, ToolCall } from "../tool_call.ts";

/** Options of {@linkcode readGeminiCalls}. */
export interface ReadGeminiOptions extends ReadCallsOptions {
  /** Which candidate to read (default 0). */
  candidate?: number;
}

/** The parts of a response, a candidate's content, or a content. */
export function geminiParts(response: unknown, candidate = 0): { parts: unknown[]; at: string } {
  if (!isObject(response)) throw new InvalidResponseError("gemini", "", "must be an object");
  if (Array.isArray(response.parts)) return { parts: response.parts, at: "/parts" };
  if (!Array.isArray(response.candidates)) {
    throw new InvalidResponseError("gemini", "/candidates", "must be an array");
  }
  const chosen = response.candidates[candidate];
  if (chosen === undefined) return { parts: [], at: `/candidates/${candidate}` };
  const content = isObject(chosen) ? chosen.content : undefined;
  // A candidate without content (e.g. finishReason SAFETY) has no calls.
  if (content === undefined) return { parts: [], at: `/candidates/${candidate}` };
  const at = `/candidates/${candidate}/content/parts`;
  if (!isObject(content)) throw new InvalidResponseError("gemini", at, "must be an object");
  const parts = content.parts ?? [];
  if (!Array.isArray(parts)) throw new InvalidResponseError("gemini", at, "must be an array");
  return { parts, at };
}

/**
 * Every `functionCall` part of a Gemini `generateContent` response, in order,
 * names mapped back through the request's name table. Accepts the response
 * (`{candidates: [...]}`) or a content (`{role: "model", parts: [...]}`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readGeminiCalls } from "@toolfoundation/core/loop";
 *
 * const calls = readGeminiCalls({
 *   candidates: [{
 *     content: { role: "model", parts: [{ functionCall: { name: "math:add", args: { a: 1, b: 2 } } }] },
 *     finishReason: "STOP",
 *   }],
 * });
 * assert.equal(calls[0].toolId, "math:add");
 * assert.equal(calls[0].id, undefined);
 * ```
 *
 * @param response The response or a content.
 * @param options Name table, normalizers and candidate.
 * @returns The calls, in order.
 * @throws {WrongFormatError} When the response is recognisably of another format.
 * @throws {ProviderErrorResponseError} When it is a provider's error body.
 * @throws {InvalidResponseError} When the response is not a Gemini response.
 */
export function readGeminiCalls(response: unknown, options?: ReadGeminiOptions): ToolCall[] {
  refuseOtherFormat("gemini", response);
  const { parts, at } = geminiParts(response, options?.candidate);
  const calls: ToolCall[] = [];
  parts.forEach((part, i) => {
    if (!isObject(part)) {
      throw new InvalidResponseError("gemini", `${at}/${i}`, "must be an object");
    }
    if (!isObject(part.functionCall)) return;
    const fc = part.functionCall;
    calls.push(
      makeCall(
        "gemini",
        { index: calls.length, id: fc.id, name: fc.name, value: fc.args },
        options,
      ),
    );
  });
  return calls;
}
