// Private: watching an upstream's lists. One connection of its own (outside
// the pool: it serves no request) receives the server's `list_changed`
// notifications: unsolicited in the 2025 era, on a `subscriptions/listen`
// stream in the 2026-07-28 era. A lost connection or a stream the server
// ended is reopened after a pause that doubles up to a ceiling.

import type { McpServerConfig } from "../run/mod.ts";
import {
  closeConnection,
  type Connection,
  type EraVerdict,
  type Opening,
} from "../run/mcp/connection.ts";
import { openSlot, type Slot } from "./_upstream_connect.ts";
import type { UpstreamCapabilities } from "./upstream.ts";

/** A list a server may announce changes of. */
export type ListKind = "tools" | "prompts" | "resources";

/** The first pause before reopening a watch, in ms. */
const FIRST_PAUSE_MS = 500;
/** The longest pause before reopening a watch, in ms. */
const MAX_PAUSE_MS = 30_000;
/** The first protocol revision with `subscriptions/listen`. */
const LISTEN_REVISION = "2026-07-28";

/** What watching one upstream needs. */
export interface WatchOptions {
  /** The server's name. */
  name: string;
  /** How to reach it. */
  config: McpServerConfig;
  /** The connect deadline, in ms. */
  connectTimeoutMs: number;
  /** The era the server was found to speak. */
  verdict: EraVerdict | undefined;
  /** Connections not yet gone (the upstream's close() waits for them). */
  live: Set<Connection>;
  /** Openings in progress (the upstream's close() aborts them). */
  openings: Set<Opening>;
}

/** The lists a server says it announces changes of (`listChanged` in its capabilities). */
export function announcedLists(capabilities: UpstreamCapabilities): ListKind[] {
  return (["tools", "prompts", "resources"] as const).filter((kind) =>
    (capabilities[kind] as { listChanged?: unknown } | undefined)?.listChanged === true
  );
}

function aborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener("abort", () => resolve(), { once: true });
  });
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done, { once: true });
  });
}

/**
 * Watches `kinds` of the server until `signal` aborts, handing each change
 * to `onChange` (only of the kinds asked for).
 */
export async function watchLists(
  options: WatchOptions,
  kinds: readonly ListKind[],
  onChange: (kind: ListKind) => void,
  signal: AbortSignal,
): Promise<void> {
  if (kinds.length === 0) return;
  const wanted = new Set(kinds);
  const forward = (kind: ListKind): void => {
    if (wanted.has(kind) && !signal.aborted) onChange(kind);
  };
  let wait = FIRST_PAUSE_MS;
  while (!signal.aborted) {
    const slot: Slot = {
      connection: undefined,
      busy: true,
      dead: false,
      context: undefined,
      key: "\0watch",
    };
    const lost = Promise.withResolvers<void>();
    let connection: Connection | undefined;
    try {
      connection = await openSlot(options.name, options.config, slot, {
        timeoutMs: options.connectTimeoutMs,
        signal,
        prior: options.verdict,
        onVerdict: () => {},
        live: options.live,
        openings: options.openings,
        capabilities: {},
        onListChanged: forward,
        onLost: () => lost.resolve(),
      });
      slot.connection = connection;
      const version = connection.client.getNegotiatedProtocolVersion();
      if (version !== undefined && version >= LISTEN_REVISION) {
        const subscription = await connection.client.listen({
          ...(wanted.has("tools") ? { toolsListChanged: true } : {}),
          ...(wanted.has("prompts") ? { promptsListChanged: true } : {}),
          ...(wanted.has("resources") ? { resourcesListChanged: true } : {}),
        }, { signal });
        wait = FIRST_PAUSE_MS;
        await Promise.race([subscription.closed, lost.promise, aborted(signal)]);
        await subscription.close().catch(() => {});
      } else {
        wait = FIRST_PAUSE_MS;
        await Promise.race([lost.promise, aborted(signal)]);
      }
    } catch {
      // Unreachable, or refused the stream: tried again after the pause.
    } finally {
      if (connection !== undefined) await closeConnection(connection).catch(() => {});
    }
    if (signal.aborted) break;
    await pause(wait, signal);
    wait = Math.min(wait * 2, MAX_PAUSE_MS);
  }
}
