// Private: progress of connecting to and listing the manifest's servers, on
// stderr. Starting a server with npx can take a minute; a silent command looks
// hung. On a terminal one live line is rewritten in place (and cleared at the
// end); off a terminal nothing is written (a log is no place for a spinner)
// unless --verbose, which writes one line per server event. --quiet: nothing.

import { type CliIo, diagnose } from "./_io.ts";

/** One server event, as the workspace reports it. */
export interface ServerEvent {
  /** The server. */
  server: string;
  /** Started connecting, listed its tools, or failed. */
  state: "connecting" | "ok" | "failed";
  /** How many tools it listed (`ok`). */
  tools?: number;
  /** Time since it started connecting, ms. */
  ms: number;
}

/** What {@linkcode serverProgress} returns. */
export interface ServerProgress {
  /** Takes one event (undefined when nothing is shown: pass nothing on). */
  onProgress: ((event: ServerEvent) => void) | undefined;
  /** Clears the live line and stops its timer. */
  [Symbol.dispose](): void;
}

/** How often the live line's clock is redrawn, ms. */
const TICK_MS = 250;

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

/**
 * Progress of connecting to `total` servers, written to `io` as its settings
 * ask; without `total`, the servers are counted as they start connecting (and
 * the live line shows nothing before the first).
 */
export function serverProgress(io: CliIo, total?: number): ServerProgress {
  const none: ServerProgress = { onProgress: undefined, [Symbol.dispose]() {} };
  if (io.verbosity === "quiet" || total === 0) return none;
  if (io.verbosity === "verbose") {
    return {
      onProgress(event) {
        const what = event.state === "connecting"
          ? "connecting and listing its tools"
          : event.state === "ok"
          ? `${event.tools} tool(s) listed in ${seconds(event.ms)}`
          : `failed after ${seconds(event.ms)}`;
        diagnose(io, undefined, "progress", `server ${event.server}: ${what}`);
      },
      [Symbol.dispose]() {},
    };
  }
  if (!io.stderrIsTerminal) return none;
  const started = performance.now();
  const waiting = new Set<string>();
  let done = 0;
  let failed = 0;
  let shown = false;
  const seen = new Set<string>();
  const draw = () => {
    if (total === undefined && seen.size === 0) return;
    const names = [...waiting];
    const list = names.length <= 3 ? names.join(", ") : `${names.slice(0, 3).join(", ")}, ...`;
    io.stderr(
      `\r\x1b[2Kservers: ${done}/${total ?? seen.size} listed${
        failed > 0 ? `, ${failed} failed` : ""
      }` +
        `${names.length > 0 ? `; waiting for ${list}` : ""} (${
          seconds(performance.now() - started)
        })`,
    );
    shown = true;
  };
  const timer = setInterval(draw, TICK_MS);
  // The clock never keeps the CLI alive.
  Deno.unrefTimer(timer);
  return {
    onProgress(event) {
      seen.add(event.server);
      if (event.state === "connecting") waiting.add(event.server);
      else {
        waiting.delete(event.server);
        if (event.state === "ok") done++;
        else failed++;
      }
      draw();
    },
    [Symbol.dispose]() {
      clearInterval(timer);
      if (shown) io.stderr("\r\x1b[2K");
    },
  };
}
