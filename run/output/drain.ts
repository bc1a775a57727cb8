/**
 * Reading a byte stream (a process's stdout, an HTTP body) while keeping a
 * bounded amount of it in memory.
 *
 * @module
 */

/** Keeps the first `max` bytes written to it; `push` answers false past that. */
export class HeadBuffer {
  #chunks: Uint8Array[] = [];
  #size = 0;
  #overflow = false;
  readonly #max: number;

  constructor(max: number) {
    this.#max = max;
  }

  /** True once more than `max` bytes were pushed. */
  get overflow(): boolean {
    return this.#overflow;
  }

  /** Keeps a chunk; false (and nothing kept) once the cap is passed. */
  push(chunk: Uint8Array): boolean {
    if (this.#overflow) return false;
    if (this.#size + chunk.length > this.#max) {
      const room = this.#max - this.#size;
      if (room > 0) this.#chunks.push(chunk.slice(0, room));
      this.#size = this.#max;
      this.#overflow = true;
      return false;
    }
    this.#chunks.push(chunk);
    this.#size += chunk.length;
    return true;
  }

  bytes(): Uint8Array {
    if (this.#chunks.length === 1) return this.#chunks[0];
    const all = new Uint8Array(this.#size);
    let offset = 0;
    for (const c of this.#chunks) {
      all.set(c, offset);
      offset += c.length;
    }
    return all;
  }

  text(): string {
    return new TextDecoder().decode(this.bytes());
  }
}

/** How a drain ended: the stream's end, the sink refusing more, or `cancel()`. */
export type DrainEnd = "eof" | "full" | "cancelled";

/**
 * Reads a stream into a sink from the moment it is created. When the sink
 * refuses a chunk the stream is cancelled at once (nothing more is read).
 * `done` rejects only when reading fails (an aborted HTTP body, say).
 */
export class Drain {
  readonly done: Promise<DrainEnd>;
  readonly #reader: ReadableStreamDefaultReader<Uint8Array>;
  #cancelled = false;
  #ended = false;

  constructor(stream: ReadableStream<Uint8Array>, sink: (chunk: Uint8Array) => boolean | void) {
    const reader = this.#reader = stream.getReader();
    this.done = (async (): Promise<DrainEnd> => {
      try {
        while (true) {
          const { value, done } = await reader.read();
          if (done) return this.#cancelled ? "cancelled" : "eof";
          if (sink(value) === false) {
            this.#cancelled = true;
            await reader.cancel().catch(() => {});
            return "full";
          }
        }
      } catch (error) {
        if (this.#cancelled) return "cancelled";
        throw error;
      } finally {
        this.#ended = true;
      }
    })();
  }

  /** Stops reading; what was read stays in the sink. */
  async cancel(): Promise<void> {
    if (this.#ended || this.#cancelled) return;
    this.#cancelled = true;
    await this.#reader.cancel().catch(() => {});
  }
}

/** Settles with `true` when `promise` settles within `ms`, else `false` (never rejects). */
export async function within(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([
      promise.then(() => true, () => true),
      new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms))),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
