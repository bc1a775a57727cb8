/**
 * Small text helpers for error messages about a peer's output (a process's
 * stdout or stderr, an HTTP body, a server's messages): excerpts and tails
 * that say they were cut, terminal escapes removed, a stderr tail kept in
 * bounded memory, and JSON text that never throws.
 *
 * @module
 */

import { findUnencodable } from "../../model/json_text.ts";

/** Cuts a text to at most `max` characters, marking the cut. */
export function excerpt(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}... (${text.length} chars in all)`;
}

/** The last `max` characters of a text, marking the cut. */
export function tail(text: string, max: number): string {
  return text.length <= max ? text : `...${text.slice(text.length - max)}`;
}

/** Removes terminal escape sequences (colours, OSC links) from a program's output. */
export function stripAnsi(text: string): string {
  // deno-lint-ignore no-control-regex
  return text.replace(/\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b\[[0-?]*[ -/]*[@-~]|\x1b[@-_]/g, "");
}

/** Keeps the last `max` bytes written to it (for stderr tails). */
export class TailBuffer {
  #chunks: Uint8Array[] = [];
  #size = 0;
  readonly #max: number;
  readonly #redact: ((text: string) => string) | undefined;

  /** Keeps the last `max` bytes; `redact` scrubs the kept text before anyone reads it. */
  constructor(max: number, redact?: (text: string) => string) {
    this.#max = max;
    this.#redact = redact;
  }

  push(chunk: Uint8Array): void {
    this.#chunks.push(chunk);
    this.#size += chunk.length;
    while (this.#chunks.length > 1 && this.#size - this.#chunks[0].length >= this.#max) {
      this.#size -= this.#chunks.shift()!.length;
    }
  }

  text(): string {
    const all = new Uint8Array(this.#size);
    let offset = 0;
    for (const c of this.#chunks) {
      all.set(c, offset);
      offset += c.length;
    }
    const start = Math.max(0, all.length - this.#max);
    const text = new TextDecoder().decode(all.subarray(start));
    return this.#redact === undefined ? text : this.#redact(text);
  }
}

/** Where in a value JSON breaks (a BigInt, a cycle), as a JSONPath-like location. */
function unencodable(value: unknown): string | undefined {
  const found = findUnencodable(value);
  if (found === undefined) return undefined;
  let path = "$";
  for (const key of found.path) {
    path += typeof key === "number"
      ? `[${key}]`
      : /^[A-Za-z_$][\w$]*$/.test(key)
      ? `.${key}`
      : `[${JSON.stringify(key)}]`;
  }
  return found.problem === "bigint"
    ? `${path} is a BigInt`
    : `${path} refers back to an enclosing value (a cycle)`;
}

/**
 * `JSON.stringify`, failing with a `TypeError` that says where the value
 * cannot be written as JSON (a BigInt, a cycle) and keeps the original error.
 */
export function jsonText(value: unknown, what: string): string {
  try {
    return JSON.stringify(value);
  } catch (cause) {
    const where = unencodable(value);
    const why = where ?? (cause instanceof Error ? cause.message : String(cause));
    throw new TypeError(`${what} cannot be written as JSON: ${why}`, { cause });
  }
}
