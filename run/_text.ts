// Private: small text helpers for error messages.

/** Cuts a text to at most `max` characters, marking the cut. */
export function excerpt(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}... (${text.length} chars in all)`;
}

/** The last `max` characters of a text, marking the cut. */
export function tail(text: string, max: number): string {
  return text.length <= max ? text : `...${text.slice(text.length - max)}`;
}

/** Keeps the last `max` bytes written to it (for stderr tails). */
export class TailBuffer {
  #chunks: Uint8Array[] = [];
  #size = 0;
  readonly #max: number;

  constructor(max: number) {
    this.#max = max;
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
    return new TextDecoder().decode(all.subarray(start));
  }
}
