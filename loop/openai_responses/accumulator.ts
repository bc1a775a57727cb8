/**
 * OpenAI Responses: tool calls from streaming events
 * (`response.output_item.added`, `response.function_call_arguments.delta`,
 * `response.function_call_arguments.done`, `response.output_item.done`).
 *
 * @module
 */

import { AccumulatorCore, blank } from "../_accumulator_base.ts";
import { isObject, makeCall } from "../_call.ts";
import { IncompleteCallError, type PartialCall } from "../errors.ts";
import type { LoopFormat, ReadCallsOptions, ToolCall, ToolCallAccumulator } from "../tool_call.ts";

interface Open {
  itemId: string;
  index?: number;
  callId?: string;
  name?: string;
  parts: string[];
  /** The authoritative text of `.done`, when it came before `added`. */
  final?: string;
  done: boolean;
}

/**
 * Collects Responses API streaming events into tool calls. A call is complete
 * at `response.function_call_arguments.done` (its `arguments` are
 * authoritative) or at `response.output_item.done`, whichever comes first.
 * Deltas that arrive before their `output_item.added` are kept until it
 * comes; an `output_item.done` alone (merged events) is a whole call.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ResponsesAccumulator } from "@toolfoundation/core/loop";
 *
 * const accumulator = new ResponsesAccumulator();
 * accumulator.push({
 *   type: "response.output_item.added",
 *   output_index: 0,
 *   item: { type: "function_call", id: "fc_1", call_id: "call_1", name: "math__add", arguments: "" },
 * });
 * accumulator.push({ type: "response.function_call_arguments.delta", item_id: "fc_1", output_index: 0, delta: '{"a":1,' });
 * accumulator.push({ type: "response.function_call_arguments.delta", item_id: "fc_1", output_index: 0, delta: '"b":2}' });
 * const [call] = accumulator.push({ type: "response.function_call_arguments.done", item_id: "fc_1", output_index: 0, arguments: '{"a":1,"b":2}' });
 * assert.deepEqual([call.id, call.toolId, call.arguments], ["call_1", "math:add", { a: 1, b: 2 }]);
 * ```
 */
export class ResponsesAccumulator implements ToolCallAccumulator {
  /** The format of the stream: `openai-responses`. */
  readonly format: LoopFormat = "openai-responses";
  readonly #core: AccumulatorCore;
  readonly #items = new Map<string, Open>();
  #count = 0;

  /**
   * Creates the instance.
   *
   * @param options Name table and normalizers.
   */
  constructor(options?: ReadCallsOptions) {
    this.#core = new AccumulatorCore(
      "openai-responses",
      options,
      (e) => this.#handle(e),
      () => this.#finish(),
    );
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

  #item(event: Record<string, unknown>): Open {
    const itemId = typeof event.item_id === "string"
      ? event.item_id
      : `#${String(event.output_index)}`;
    let open = this.#items.get(itemId);
    if (open === undefined) this.#items.set(itemId, open = { itemId, parts: [], done: false });
    return open;
  }

  #added(open: Open, item: Record<string, unknown>): void {
    if (open.index === undefined) open.index = this.#count++;
    if (typeof item.call_id === "string") open.callId = item.call_id;
    if (typeof item.name === "string") open.name = item.name;
  }

  /**
   * Handles one event.
   *
   * @param event The event.
   * @returns The calls it completed.
   */
  #handle(event: Record<string, unknown>): ToolCall[] {
    switch (event.type) {
      case "response.output_item.added":
      case "response.output_item.done": {
        const item = event.item;
        if (!isObject(item)) throw this.#core.fail(`${event.type} needs an item object`);
        if (item.type !== "function_call") return [];
        if (typeof item.id !== "string") throw this.#core.fail("a function_call item needs an id");
        const open = this.#item({ item_id: item.id });
        this.#added(open, item);
        if (event.type === "response.output_item.added") {
          return open.final === undefined ? [] : this.#complete(open, open.final);
        }
        if (open.done) return [];
        return this.#complete(
          open,
          typeof item.arguments === "string" ? item.arguments : open.parts.join(""),
        );
      }
      case "response.function_call_arguments.delta": {
        const open = this.#item(event);
        if (open.done) {
          if (!blank(event.delta)) {
            throw this.#core.fail(`more arguments for ${open.itemId} after done`);
          }
          return [];
        }
        if (typeof event.delta !== "string") throw this.#core.fail("delta must be a string");
        this.#core.append(open.parts, event.delta, open.itemId);
        return [];
      }
      case "response.function_call_arguments.done": {
        const open = this.#item(event);
        if (open.done) return [];
        const text = typeof event.arguments === "string" ? event.arguments : open.parts.join("");
        if (typeof event.name === "string" && open.name === undefined) open.name = event.name;
        if (open.index === undefined) {
          open.final = text; // completes when its output_item.added comes
          return [];
        }
        return this.#complete(open, text);
      }
      default:
        return [];
    }
  }

  #complete(open: Open, text: string): ToolCall[] {
    open.done = true;
    return [makeCall("openai-responses", {
      index: open.index!,
      id: open.callId,
      name: open.name,
      text,
    }, this.#core.options)];
  }

  /**
   * Ends the stream; an open call is an `IncompleteCallError`.
   *
   * @returns Nothing: every call completes at its own events.
   */
  #finish(): ToolCall[] {
    const open = [...this.#items.values()].filter((o) => !o.done);
    if (open.length === 0) return [];
    throw new IncompleteCallError(
      "openai-responses",
      open.map((o, i): PartialCall => {
        const p: PartialCall = {
          index: o.index ?? this.#count + i,
          argumentsText: o.final ?? o.parts.join(""),
        };
        if (o.callId !== undefined) p.id = o.callId;
        if (o.name !== undefined) p.name = o.name;
        return p;
      }),
      [...this.#core.calls],
    );
  }
}
