/**
 * Terminal escape sequences out of a child's output, for a sink that is not a
 * terminal (a log file, a pipe, a model): colours and cursor moves are noise
 * there. The output arrives in chunks that may cut a sequence in two; the
 * stripper holds an unfinished sequence until the next chunk.
 *
 * @module
 */

const ESC = "\x1b";
// CSI (ESC [ params intermediates final), OSC (ESC ] ... BEL or ESC \), and
// two-character escapes (ESC followed by one of @-Z \ ] ^ _ ).
const COMPLETE = new RegExp(
  `${ESC}\\[[0-?]*[ -/]*[@-~]|${ESC}\\][^\\x07${ESC}]*(?:\\x07|${ESC}\\\\)|${ESC}[@-Z\\\\^_]`,
  "g",
);
// An escape sequence cut off at the end of a chunk.
const UNFINISHED = new RegExp(`${ESC}(?:\\[[0-?]*[ -/]*|\\][^\\x07${ESC}]*${ESC}?)?$`);

/**
 * Strips terminal escape sequences from text that arrives in chunks.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { AnsiStripper } from "./ansi.ts";
 *
 * const strip = new AnsiStripper();
 * assert.equal(strip.push("\x1b[31mred\x1b["), "red");
 * assert.equal(strip.push("0m plain"), " plain");
 * assert.equal(strip.flush(), "");
 * ```
 */
export class AnsiStripper {
  #held = "";

  /**
   * The chunk without its escape sequences; an unfinished one at its end is
   * held for the next chunk.
   *
   * @param chunk The next piece of output.
   * @returns What can be written now.
   */
  push(chunk: string): string {
    let text = this.#held + chunk;
    this.#held = "";
    const cut = UNFINISHED.exec(text);
    if (cut !== null && cut.index < text.length) {
      this.#held = text.slice(cut.index);
      text = text.slice(0, cut.index);
    }
    return text.replace(COMPLETE, "");
  }

  /**
   * What is held at the end of the output: an escape that never finished is
   * dropped whole.
   *
   * @returns The rest (always empty: a lone unfinished escape is not text).
   */
  flush(): string {
    this.#held = "";
    return "";
  }
}
