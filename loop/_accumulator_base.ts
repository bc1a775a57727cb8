// Private: what every accumulator shares: events given one at a time, merged into
// arrays, or as JSON text; the completed calls in order; the event counter for errors.

import { InvalidStreamEventError } from "./errors.ts";
import { refuseOtherFormat } from "./_format_guard.ts";
import type { LoopFormat, ReadCallsOptions, ToolCall } from "./tool_call.ts";

/** The longest argument text of one streamed call, by default: 4 Mi characters. */
export const DEFAULT_MAX_ARGUMENT_CHARS = 4 * 1024 * 1024;

/** The shared part of every accumulator; the provider's class gives `handle` and `finish`. */
export class AccumulatorCore {
  readonly format: LoopFormat;
  readonly options: ReadCallsOptions | undefined;
  readonly handle: (event: Record<string, unknown>) => ToolCall[];
  readonly finish: () => ToolCall[];
  eventIndex = -1;
  readonly #completed: ToolCall[] = [];
  readonly #sizes = new WeakMap<string[], number>();
  #ended = false;

  constructor(
    format: LoopFormat,
    options: ReadCallsOptions | undefined,
    handle: (event: Record<string, unknown>) => ToolCall[],
    finish: () => ToolCall[],
  ) {
    this.format = format;
    this.options = options;
    this.handle = handle;
    this.finish = finish;
  }

  get calls(): readonly ToolCall[] {
    return [...this.#completed].sort((a, b) => a.index - b.index);
  }

  push(event: unknown): ToolCall[] {
    if (this.#ended) throw this.fail("an event after end()");
    const out: ToolCall[] = [];
    for (const one of Array.isArray(event) ? event : [event]) {
      this.eventIndex++;
      let value = one;
      if (typeof one === "string") {
        const text = one.trim();
        if (text === "" || text === "[DONE]") continue;
        try {
          value = JSON.parse(text);
        } catch (error) {
          throw this.fail(`the event is not JSON (${(error as Error).message})`);
        }
      }
      if (typeof value !== "object" || value === null || Array.isArray(value)) {
        throw this.fail("an event must be an object");
      }
      refuseOtherFormat(this.format, value, this.eventIndex);
      for (const call of this.handle(value as Record<string, unknown>)) out.push(this.#emit(call));
    }
    return out;
  }

  end(): ToolCall[] {
    if (this.#ended) return [];
    this.#ended = true;
    return this.finish().map((call) => this.#emit(call));
  }

  /**
   * Adds a piece of argument text to a call's pieces, refusing more than
   * `maxArgumentChars` characters in one call.
   */
  append(parts: string[], piece: string, label: string): void {
    const limit = this.options?.maxArgumentChars ?? DEFAULT_MAX_ARGUMENT_CHARS;
    const size = (this.#sizes.get(parts) ?? 0) + piece.length;
    this.#sizes.set(parts, size);
    if (size > limit) {
      throw this.fail(
        `the arguments of ${label} are longer than ${limit} characters (maxArgumentChars)`,
      );
    }
    parts.push(piece);
  }

  fail(detail: string): InvalidStreamEventError {
    return new InvalidStreamEventError(this.format, Math.max(0, this.eventIndex), detail);
  }

  #emit(call: ToolCall): ToolCall {
    this.#completed.push(call);
    return call;
  }
}

/** Whether argument text is one complete JSON object. */
export function completeObject(text: string): boolean {
  const trimmed = text.trim();
  if (!trimmed.startsWith("{") || !trimmed.endsWith("}")) return false;
  try {
    const value = JSON.parse(trimmed);
    return typeof value === "object" && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
}

/** Whether a late piece of argument text changes nothing (whitespace). */
export function blank(text: unknown): boolean {
  return typeof text !== "string" || text.trim() === "";
}
