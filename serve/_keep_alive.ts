// Private: the keep-alive beats of the answers in flight, on one shared
// timer. An answer of the direct path sends an SSE comment every 15 s while
// it waits (as the SDK's transport does); one interval timer per call cost
// more than the rest of the answer's framing (a timer object registered and
// removed per call), and almost every call ends long before its first beat.
// One timer, armed while any answer waits, ticks every `TICK_MS` and beats
// the answers whose interval has passed: the same comments, each up to one
// tick later than a timer of its own would have sent it.

/** How often the shared timer looks for answers due a beat, in ms. */
export const TICK_MS = 1000;

interface Waiting {
  due: number;
  readonly every: number;
  readonly beat: () => void;
}

const waiting = new Set<Waiting>();
let ticker: ReturnType<typeof setInterval> | undefined;

function tick(): void {
  const now = performance.now();
  for (const entry of waiting) {
    if (now < entry.due) continue;
    entry.due = now + entry.every;
    try {
      entry.beat();
    } catch { /* one answer's failure is its own */ }
  }
}

/**
 * Calls `beat` every `everyMs` (give or take a tick) until the returned
 * function is called. The shared timer runs (and keeps the process alive,
 * as a timer per answer did) only while some answer waits.
 */
export function keepAlive(everyMs: number, beat: () => void): () => void {
  const entry: Waiting = { due: performance.now() + everyMs, every: everyMs, beat };
  waiting.add(entry);
  ticker ??= setInterval(tick, Math.min(TICK_MS, everyMs));
  return () => {
    if (!waiting.delete(entry) || waiting.size > 0 || ticker === undefined) return;
    clearInterval(ticker);
    ticker = undefined;
  };
}
