// Private: splits a module tool process's stdout into protocol messages (lines
// `<nonce> <json>`) and everything else (the tool's own output, passed on as
// log text), holding at most `maxMessageBytes` of one message in memory.

/** What the splitter found. */
interface ChannelSink {
  /** A whole message line (without the nonce). */
  message(json: string): void;
  /** Output that is not a message. */
  log(bytes: Uint8Array): void;
  /** A message line longer than the cap: the rest of it is dropped. */
  overflow(): void;
}

const NEWLINE = 10;

/** Incremental splitter; feed it stdout chunks in order. */
export class ChannelSplitter {
  readonly #prefix: Uint8Array;
  readonly #max: number;
  readonly #sink: ChannelSink;
  // "start": at a line start, `#head` holds what may still be the prefix.
  // "message": inside a message line. "log": inside another line. "skip": dropping an overflow.
  #state: "start" | "message" | "log" | "skip" = "start";
  #head: number[] = [];
  #parts: Uint8Array[] = [];
  #size = 0;
  readonly #decoder = new TextDecoder();

  constructor(nonce: string, maxMessageBytes: number, sink: ChannelSink) {
    this.#prefix = new TextEncoder().encode(`${nonce} `);
    this.#max = maxMessageBytes;
    this.#sink = sink;
  }

  /** Takes the next chunk. */
  push(chunk: Uint8Array): void {
    let i = 0;
    while (i < chunk.length) {
      if (this.#state === "start") {
        const byte = chunk[i];
        if (byte === this.#prefix[this.#head.length]) {
          this.#head.push(byte);
          i++;
          if (this.#head.length === this.#prefix.length) {
            this.#state = "message";
            this.#head = [];
          }
          continue;
        }
        // Not a message: what was held back is log text; a bare newline is the separator.
        const held = Uint8Array.from(this.#head);
        this.#head = [];
        if (held.length > 0) this.#sink.log(held);
        if (byte === NEWLINE && held.length === 0) {
          i++;
          continue;
        }
        this.#state = "log";
        continue;
      }
      const end = chunk.indexOf(NEWLINE, i);
      const stop = end < 0 ? chunk.length : end;
      const piece = chunk.subarray(i, stop);
      if (this.#state === "log") {
        const withNewline = end < 0 ? piece : chunk.subarray(i, stop + 1);
        if (withNewline.length > 0) this.#sink.log(withNewline);
      } else if (this.#state === "message") {
        this.#size += piece.length;
        if (this.#size > this.#max) {
          this.#parts = [];
          this.#size = 0;
          this.#state = "skip";
          this.#sink.overflow();
        } else {
          this.#parts.push(piece.slice());
        }
      }
      if (end < 0) return;
      if (this.#state === "message") this.#finishMessage();
      this.#state = "start";
      i = end + 1;
    }
  }

  /** Flushes what is held back at the end of the stream. */
  end(): void {
    if (this.#head.length > 0) this.#sink.log(Uint8Array.from(this.#head));
    this.#head = [];
    this.#parts = [];
  }

  #finishMessage(): void {
    const all = new Uint8Array(this.#size);
    let offset = 0;
    for (const p of this.#parts) {
      all.set(p, offset);
      offset += p.length;
    }
    this.#parts = [];
    this.#size = 0;
    this.#sink.message(this.#decoder.decode(all));
  }
}
