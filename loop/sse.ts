/**
 * Server-sent events: the `data` of each event of a byte or text stream, as
 * the providers stream them (`text/event-stream`).
 *
 * @module
 */

import { IncompleteStreamError } from "./errors.ts";

/**
 * The `data` of each event of a server-sent-event stream, as text (the
 * accumulators parse it), split anywhere: in the middle of a line, of a
 * `\r\n`, or of a UTF-8 character. Comments, `event:`/`id:`/`retry:` fields
 * and OpenAI's `[DONE]` are skipped; several `data:` lines of one event are
 * joined with `\n`. A last event without its blank line is still given when
 * its data is complete JSON; otherwise the stream ended mid-event:
 * `IncompleteStreamError`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseSse } from "@toolfoundation/core/loop";
 *
 * async function* bytes() {
 *   const text = 'event: ping\ndata: {"type":"ping"}\n\ndata: {"a":\r\ndata: 1}\r\n\r\ndata: [DONE]\n\n';
 *   for (const byte of new TextEncoder().encode(text)) yield new Uint8Array([byte]);
 * }
 * const data = [];
 * for await (const text of parseSse(bytes())) data.push(JSON.parse(text));
 * assert.deepEqual(data, [{ type: "ping" }, { a: 1 }]);
 * ```
 *
 * @param chunks The stream, as bytes or text.
 * @returns Each event's data.
 * @throws {IncompleteStreamError} When the stream ends in the middle of an event.
 */
export async function* parseSse(
  chunks: AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>,
): AsyncGenerator<string, void, undefined> {
  const decoder = new TextDecoder();
  let buffer = "";
  let data: string[] = [];
  let pendingCr = false;
  function* lines(text: string, flush: boolean): Generator<string> {
    if (pendingCr && text.startsWith("\n")) text = text.slice(1);
    pendingCr = false;
    buffer += text;
    let start = 0;
    for (let i = 0; i < buffer.length; i++) {
      const c = buffer[i];
      if (c !== "\n" && c !== "\r") continue;
      yield buffer.slice(start, i);
      if (c === "\r") {
        if (i + 1 < buffer.length) {
          if (buffer[i + 1] === "\n") i++;
        } else pendingCr = true;
      }
      start = i + 1;
    }
    buffer = buffer.slice(start);
    if (flush && buffer !== "") {
      yield buffer;
      buffer = "";
    }
  }
  function* line(text: string): Generator<string> {
    if (text === "") {
      if (data.length > 0) {
        const joined = data.join("\n");
        data = [];
        if (joined.trim() !== "[DONE]") yield joined;
      }
      return;
    }
    if (text.startsWith(":")) return;
    const colon = text.indexOf(":");
    const field = colon < 0 ? text : text.slice(0, colon);
    let value = colon < 0 ? "" : text.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") data.push(value);
  }
  for await (const chunk of chunks) {
    const text = typeof chunk === "string" ? chunk : decoder.decode(chunk, { stream: true });
    for (const l of lines(text, false)) yield* line(l);
  }
  for (const l of lines(decoder.decode(), true)) yield* line(l);
  if (data.length > 0) {
    const joined = data.join("\n");
    if (joined.trim() === "[DONE]") return;
    try {
      JSON.parse(joined);
    } catch {
      throw new IncompleteStreamError(joined);
    }
    yield joined;
  }
}
