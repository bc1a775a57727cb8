/**
 * OpenAI Chat Completions: tool calls from streamed chunks
 * (`choices[n].delta.tool_calls`, by `index`).
 *
 * @module
 */

import { AccumulatorCore, blank, completeObject } from "../_accumulator_base.ts";
import { isObject, makeCall } from "../_call.ts";
import { IncompleteCallError, type PartialCall } from "../errors.ts";
import type { LoopFormat, ReadCallsOptions, ToolCall, ToolCallAccumulator } from "../tool_call.ts";

interface Open {
  index: number;
  id?: string;
  name?: string;
  parts: string[];
  done: boolean;
}

/** Options of a {@linkcode ChatCompletionsAccumulator}. */
export interface ChatCompletionsAccumulatorOptions extends ReadCallsOptions {
  /** Which choice to follow (default 0). */
  choice?: number;
}

/**
 * Collects Chat Completions chunks into tool calls. A call is complete when
 * the choice's `finish_reason` arrives, or earlier, when another call's
 * deltas have started and its argument text is one complete JSON object.
 * Deltas may arrive split anywhere, merged (several calls in one chunk) and
 * with indexes out of order; a `finish_reason` of `length` or
 * `content_filter` with a call still unfinished is an `IncompleteCallError`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ChatCompletionsAccumulator } from "@toolfoundation/core/loop";
 *
 * const accumulator = new ChatCompletionsAccumulator();
 * const delta = (tool_calls: unknown[], finish_reason: string | null = null) => ({
 *   choices: [{ index: 0, delta: { tool_calls }, finish_reason }],
 * });
 * accumulator.push(delta([{ index: 0, id: "call_1", type: "function", function: { name: "a", arguments: '{"x"' } }]));
 * accumulator.push(delta([{ index: 0, function: { arguments: ":1}" } }]));
 * // Call 1 starting completes call 0: its arguments are a whole object.
 * const done = accumulator.push(delta([{ index: 1, id: "call_2", type: "function", function: { name: "b", arguments: "{}" } }]));
 * assert.deepEqual(done.map((c) => c.name), ["a"]);
 * assert.deepEqual(accumulator.push(delta([], "tool_calls")).map((c) => c.name), ["b"]);
 * ```
 */
export class ChatCompletionsAccumulator implements ToolCallAccumulator {
  /** The format of the stream: `openai`. */
  readonly format: LoopFormat = "openai";
  readonly #core: AccumulatorCore;
  readonly #choice: number;
  readonly #open = new Map<number, Open>();

  /**
   * Creates the instance.
   *
   * @param options Name table, normalizers and choice.
   */
  constructor(options?: ChatCompletionsAccumulatorOptions) {
    this.#core = new AccumulatorCore(
      "openai",
      options,
      (e) => this.#handle(e),
      () => this.#finish(),
    );
    this.#choice = options?.choice ?? 0;
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
   * @returns The calls it completed.
   */
  #handle(chunk: Record<string, unknown>): ToolCall[] {
    if (chunk.choices === undefined || chunk.choices === null) return []; // e.g. the usage chunk
    if (!Array.isArray(chunk.choices)) throw this.#core.fail("choices must be an array");
    const out: ToolCall[] = [];
    for (const choice of chunk.choices) {
      if (!isObject(choice)) throw this.#core.fail("a choice must be an object");
      if ((choice.index ?? 0) !== this.#choice) continue;
      let last: number | undefined;
      const delta = choice.delta;
      const list = isObject(delta) ? delta.tool_calls : undefined;
      if (list !== undefined && list !== null) {
        if (!Array.isArray(list)) throw this.#core.fail("delta.tool_calls must be an array");
        for (const piece of list) last = this.#take(piece);
      }
      const finish = choice.finish_reason;
      if (typeof finish === "string" && finish !== "") {
        out.push(...this.#finishAll(finish === "length" || finish === "content_filter"));
      } else if (last !== undefined) {
        for (const open of [...this.#open.values()].sort((a, b) => a.index - b.index)) {
          if (open.done || open.index === last || open.name === undefined) continue;
          if (completeObject(open.parts.join(""))) out.push(this.#complete(open));
        }
      }
    }
    return out;
  }

  #take(piece: unknown): number {
    if (!isObject(piece)) throw this.#core.fail("a tool call delta must be an object");
    const index = piece.index;
    if (typeof index !== "number" || !Number.isSafeInteger(index) || index < 0) {
      throw this.#core.fail("a tool call delta needs a non-negative whole index");
    }
    let open = this.#open.get(index);
    if (open === undefined) this.#open.set(index, open = { index, parts: [], done: false });
    const fn = isObject(piece.function) ? piece.function : {};
    if (open.done) {
      if (!blank(fn.arguments) || (typeof piece.id === "string" && piece.id !== open.id)) {
        throw this.#core.fail(`more of call ${index} after it was complete`);
      }
      return index;
    }
    if (typeof piece.id === "string" && piece.id !== "") {
      if (open.id !== undefined && open.id !== piece.id) {
        throw this.#core.fail(`call ${index} has two ids (${open.id}, ${piece.id})`);
      }
      open.id = piece.id;
    }
    if (typeof fn.name === "string" && fn.name !== "" && fn.name !== open.name) {
      open.name = (open.name ?? "") + fn.name;
    }
    if (typeof fn.arguments === "string") {
      this.#core.append(open.parts, fn.arguments, `call ${index}`);
    }
    return index;
  }

  #complete(open: Open): ToolCall {
    open.done = true;
    return makeCall("openai", {
      index: open.index,
      id: open.id,
      name: open.name,
      text: open.parts.join(""),
    }, this.#core.options);
  }

  #finishAll(cutOff: boolean): ToolCall[] {
    const pending = [...this.#open.values()].filter((o) => !o.done).sort((a, b) =>
      a.index - b.index
    );
    const unfinished = pending.filter((o) =>
      o.name === undefined || (cutOff && !completeObject(o.parts.join("")))
    );
    if (unfinished.length > 0) {
      const done = pending.filter((o) => !unfinished.includes(o)).map((o) => this.#complete(o));
      throw new IncompleteCallError(
        "openai",
        unfinished.map(partial),
        [...[...this.#core.calls], ...done].sort((a, b) => a.index - b.index),
      );
    }
    return pending.map((o) => this.#complete(o));
  }

  /**
   * Ends the stream: calls whose arguments are complete JSON complete; any
   * other open call is an `IncompleteCallError`.
   *
   * @returns The calls the end completed.
   */
  #finish(): ToolCall[] {
    return this.#finishAll(true);
  }
}

function partial(open: Open): PartialCall {
  const p: PartialCall = { index: open.index, argumentsText: open.parts.join("") };
  if (open.id !== undefined) p.id = open.id;
  if (open.name !== undefined) p.name = open.name;
  return p;
}
