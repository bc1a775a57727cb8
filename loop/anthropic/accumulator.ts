/**
 * Anthropic Messages: tool calls from streaming events
 * (`content_block_start` of a `tool_use` block, its `input_json_delta`s,
 * `content_block_stop`).
 *
 * @module
 */

import { AccumulatorCore, blank } from "../_accumulator_base.ts";
import { isObject, makeCall } from "../_call.ts";
import { IncompleteCallError, type PartialCall } from "../errors.ts";
import type { LoopFormat, ReadCallsOptions, ToolCall, ToolCallAccumulator } from "../tool_call.ts";

interface Block {
  index?: number;
  id?: string;
  name?: string;
  input?: unknown;
  parts: string[];
  stopped: boolean;
  done: boolean;
}

/**
 * Collects Messages API streaming events into tool calls: a `tool_use` block
 * is complete at its `content_block_stop`. Deltas or a stop that arrive
 * before their block's start are kept until it comes; a `stop_reason` of
 * `max_tokens` with a block still open is an `IncompleteCallError`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { AnthropicAccumulator } from "@toolfoundation/core/loop";
 *
 * const accumulator = new AnthropicAccumulator();
 * accumulator.push([
 *   { type: "content_block_start", index: 1, content_block: { type: "tool_use", id: "toolu_1", name: "math__add", input: {} } },
 *   { type: "content_block_delta", index: 1, delta: { type: "input_json_delta", partial_json: '{"a":1,"b":2}' } },
 * ]);
 * const [call] = accumulator.push({ type: "content_block_stop", index: 1 });
 * assert.deepEqual([call.index, call.id, call.arguments], [0, "toolu_1", { a: 1, b: 2 }]);
 * ```
 */
export class AnthropicAccumulator implements ToolCallAccumulator {
  /** The format of the stream: `anthropic`. */
  readonly format: LoopFormat = "anthropic";
  readonly #core: AccumulatorCore;
  readonly #blocks = new Map<number, Block>();
  readonly #other = new Set<number>();
  #count = 0;

  /**
   * Creates the instance.
   *
   * @param options Name table and normalizers.
   */
  constructor(options?: ReadCallsOptions) {
    this.#core = new AccumulatorCore(
      "anthropic",
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

  #block(event: Record<string, unknown>): Block | undefined {
    const index = event.index;
    if (typeof index !== "number" || !Number.isSafeInteger(index) || index < 0) {
      throw this.#core.fail(`${String(event.type)} needs a non-negative whole index`);
    }
    if (this.#other.has(index)) return undefined;
    let block = this.#blocks.get(index);
    if (block === undefined) {
      this.#blocks.set(index, block = { parts: [], stopped: false, done: false });
    }
    return block;
  }

  /**
   * Handles one event.
   *
   * @param event The event.
   * @returns The calls it completed.
   */
  #handle(event: Record<string, unknown>): ToolCall[] {
    switch (event.type) {
      case "content_block_start": {
        const content = event.content_block;
        if (!isObject(content)) throw this.#core.fail("content_block_start needs a content_block");
        if (content.type !== "tool_use") {
          const waiting = this.#blocks.get(event.index as number);
          if (waiting !== undefined && waiting.parts.some((p) => !blank(p))) {
            throw this.#core.fail(
              `input_json_delta for block ${event.index}, which is not tool_use`,
            );
          }
          this.#blocks.delete(event.index as number);
          this.#other.add(event.index as number);
          this.#block(event); // checks the index
          return [];
        }
        const block = this.#block(event)!;
        if (block.index !== undefined) throw this.#core.fail(`block ${event.index} started twice`);
        block.index = this.#count++;
        if (typeof content.id === "string") block.id = content.id;
        if (typeof content.name === "string") block.name = content.name;
        block.input = content.input;
        return block.stopped ? this.#complete(block) : [];
      }
      case "content_block_delta": {
        const delta = event.delta;
        if (!isObject(delta) || delta.type !== "input_json_delta") return [];
        const block = this.#block(event);
        if (block === undefined) return [];
        if (block.done || block.stopped) {
          if (!blank(delta.partial_json)) {
            throw this.#core.fail(`input for block ${event.index} after its stop`);
          }
          return [];
        }
        if (typeof delta.partial_json !== "string") {
          throw this.#core.fail("partial_json must be a string");
        }
        this.#core.append(block.parts, delta.partial_json, `block ${event.index}`);
        return [];
      }
      case "content_block_stop": {
        const block = this.#block(event);
        if (block === undefined || block.done) return [];
        block.stopped = true;
        return block.index === undefined ? [] : this.#complete(block);
      }
      case "message_delta": {
        const delta = event.delta;
        if (isObject(delta) && delta.stop_reason === "max_tokens") this.#throwIfOpen();
        return [];
      }
      default:
        return [];
    }
  }

  #complete(block: Block): ToolCall[] {
    block.done = true;
    const text = block.parts.join("");
    const raw = { index: block.index!, id: block.id, name: block.name };
    if (text.trim() === "") {
      return [makeCall("anthropic", { ...raw, value: block.input ?? {} }, this.#core.options)];
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return [makeCall("anthropic", { ...raw, text }, this.#core.options)];
    }
    return [makeCall("anthropic", { ...raw, value }, this.#core.options)];
  }

  #throwIfOpen(): void {
    const open = [...this.#blocks.values()].filter((b) => !b.done);
    if (open.length === 0) return;
    throw new IncompleteCallError(
      "anthropic",
      open.map((b, i): PartialCall => {
        const p: PartialCall = {
          index: b.index ?? this.#count + i,
          argumentsText: b.parts.join(""),
        };
        if (b.id !== undefined) p.id = b.id;
        if (b.name !== undefined) p.name = b.name;
        return p;
      }),
      [...this.#core.calls],
    );
  }

  /**
   * Ends the stream; an open `tool_use` block is an `IncompleteCallError`.
   *
   * @returns Nothing: every call completes at its stop.
   */
  #finish(): ToolCall[] {
    this.#throwIfOpen();
    return [];
  }
}
