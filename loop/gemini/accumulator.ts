/**
 * Gemini: tool calls from `streamGenerateContent` chunks.
 *
 * @module
 */

import { AccumulatorCore } from "../_accumulator_base.ts";
import { isObject, makeCall } from "../_call.ts";
import type { LoopFormat, ToolCall, ToolCallAccumulator } from "../tool_call.ts";
import { geminiParts, type ReadGeminiOptions } from "./read.ts";

/**
 * Collects Gemini stream chunks (each a `GenerateContentResponse`) into tool
 * calls. The Gemini API sends every `functionCall` part whole, so each call is
 * complete in the chunk that carries it; chunks without candidates (usage
 * metadata) are skipped. (Vertex AI's `partialArgs` streaming is not read.)
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { GeminiAccumulator } from "@toolfoundation/core/loop";
 *
 * const accumulator = new GeminiAccumulator();
 * assert.deepEqual(accumulator.push({ candidates: [{ content: { role: "model", parts: [{ text: "Adding" }] } }] }), []);
 * const [call] = accumulator.push({
 *   candidates: [{ content: { role: "model", parts: [{ functionCall: { name: "math:add", args: { a: 1, b: 2 } } }] } }],
 * });
 * assert.equal(call.toolId, "math:add");
 * ```
 */
export class GeminiAccumulator implements ToolCallAccumulator {
  /** The format of the stream: `gemini`. */
  readonly format: LoopFormat = "gemini";
  readonly #core: AccumulatorCore;
  readonly #candidate: number;
  #count = 0;

  /**
   * Creates the instance.
   *
   * @param options Name table, normalizers and candidate.
   */
  constructor(options?: ReadGeminiOptions) {
    this.#core = new AccumulatorCore(
      "gemini",
      options,
      (e) => this.#handle(e),
      () => this.#finish(),
    );
    this.#candidate = options?.candidate ?? 0;
  }

  /**
   * Takes one event (an object, its JSON text, or an array of merged events).
   *
   * @param event The event(s).
   * @returns The calls it completed.
   * @throws {InvalidStreamEventError} When an event is malformed or contradicts earlier ones.
   * @throws {WrongFormatError} When an event is recognisably of another format.
   * @throws {ProviderErrorResponseError} When an event is the provider's error (the request failed).
   */
  push(event: unknown): ToolCall[] {
    return this.#core.push(event);
  }

  /**
   * Ends the stream.
   *
   * @returns The calls the end completed.
   * @throws {IncompleteCallError} When a call is still open.
   */
  end(): ToolCall[] {
    return this.#core.end();
  }

  /** Every call completed so far, by index. */
  get calls(): readonly ToolCall[] {
    return this.#core.calls;
  }

  /**
   * Handles one chunk.
   *
   * @param chunk The chunk.
   * @returns The calls it carried.
   */
  #handle(chunk: Record<string, unknown>): ToolCall[] {
    if (chunk.candidates === undefined && chunk.parts === undefined) return [];
    let parts: unknown[];
    try {
      parts = geminiParts(chunk, this.#candidate).parts;
    } catch (error) {
      throw this.#core.fail((error as Error).message);
    }
    const out: ToolCall[] = [];
    for (const part of parts) {
      if (!isObject(part) || !isObject(part.functionCall)) continue;
      const fc = part.functionCall;
      out.push(
        makeCall(
          "gemini",
          { index: this.#count++, id: fc.id, name: fc.name, value: fc.args },
          this.#core.options,
        ),
      );
    }
    return out;
  }

  /**
   * Ends the stream.
   *
   * @returns Nothing: every call is complete in its chunk.
   */
  #finish(): ToolCall[] {
    return [];
  }
}
