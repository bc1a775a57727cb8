// Private: serve's access log, buffered. One synchronous write to stderr per
// call costs the gateway a system call on its hot path; the lines are kept
// and written together a few milliseconds later (or at once when many have
// piled up). Each flush is one synchronous write of whole lines, so a line is
// never cut and never interleaved with another writer's text in this process.
// Nothing is lost when serve ends: its own end flushes, every other stderr
// write of the command flushes first (the log stays in order with the
// diagnostics), and `unload` flushes when the process ends through
// `Deno.exit` (a second SIGINT/SIGTERM).

/** How long a line may wait before it is written. */
const DELAY_MS = 20;
/** Written at once when this many characters are waiting. */
const MAX_PENDING = 64 * 1024;

/** A buffered line writer in front of a synchronous one. */
export interface BufferedLines {
  /** Keeps one whole line (with its newline) for the next flush. */
  write(line: string): void;
  /** Writes every waiting line now, in one write. */
  flush(): void;
  /** Flushes and stops listening for the process's end. */
  close(): void;
}

/**
 * Buffers whole lines in front of `out` (a synchronous writer that writes all
 * it is given), flushing after `delayMs`, at `maxPending` characters, at
 * {@linkcode BufferedLines.close} and when the process unloads.
 */
export function bufferedLines(
  out: (text: string) => void,
  options: { delayMs?: number; maxPending?: number } = {},
): BufferedLines {
  const delayMs = options.delayMs ?? DELAY_MS;
  const maxPending = options.maxPending ?? MAX_PENDING;
  let pending: string[] = [];
  let size = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const flush = () => {
    if (timer !== undefined) {
      clearTimeout(timer);
      timer = undefined;
    }
    if (pending.length === 0) return;
    const text = pending.length === 1 ? pending[0] : pending.join("");
    pending = [];
    size = 0;
    out(text);
  };
  const onUnload = () => flush();
  globalThis.addEventListener("unload", onUnload);
  return {
    write(line) {
      pending.push(line);
      size += line.length;
      if (size >= maxPending) return flush();
      if (timer === undefined) {
        const id = setTimeout(flush, delayMs);
        // A waiting line never keeps the process alive: its end flushes.
        Deno.unrefTimer(id);
        timer = id;
      }
    },
    flush,
    close() {
      flush();
      globalThis.removeEventListener("unload", onUnload);
    },
  };
}
