// Private: which MCP protocol era a connection speaks (see `McpProtocol`).
//
// `auto` never starts an extra process: the SDK probes with `server/discover`
// in place on every transport but its own stdio one, and ours is not the
// SDK's. On stdio a probe that gets no answer within STDIO_PROBE_TIMEOUT_MS
// falls back to `initialize` on the same pipe (a 2025 server that ignores
// unknown requests); a server that exits on the probe is started once more in
// the 2025 era (`retryLegacy`). The verdict of a connection is remembered by
// the pool and given to the next connection to the same server as `prior`,
// so a restarted server is never probed again.

import type {
  ConnectOptions,
  PriorDiscovery,
  VersionNegotiationOptions,
} from "@modelcontextprotocol/client";
import { ExecutionError } from "../errors.ts";
import type { McpProtocol, McpServerConfig } from "./config.ts";
import { ERA_NEGOTIATION_FAILED, NO_TIMEOUT } from "./_sdk.ts";

/** How long a stdio server may take to answer `server/discover` before it is taken for 2025-era. */
export const STDIO_PROBE_TIMEOUT_MS = 5000;

/** The protocol revision of the modern era. */
export const MODERN_REVISION = "2026-07-28";

/** A remembered era verdict, given to the SDK as `connect({ prior })`. */
export type EraVerdict = PriorDiscovery;

/** The configured protocol setting of a server (SSE: always legacy). */
export function protocolOf(name: string, config: McpServerConfig): McpProtocol {
  if (config.transport === "sse") return "legacy";
  const protocol = config.protocol ?? "auto";
  if (protocol !== "auto" && protocol !== "legacy" && protocol !== MODERN_REVISION) {
    throw new ExecutionError(
      `MCP server ${JSON.stringify(name)}: unknown protocol ${
        JSON.stringify(protocol)
      } (use "auto", "legacy" or "${MODERN_REVISION}")`,
    );
  }
  return protocol;
}

/** The client's `versionNegotiation` option for a protocol setting. */
export function negotiation(
  protocol: McpProtocol,
  config: McpServerConfig,
): VersionNegotiationOptions {
  if (protocol === "legacy") return { mode: "legacy" };
  if (protocol === MODERN_REVISION) return { mode: { pin: MODERN_REVISION } };
  return {
    mode: "auto",
    probe: { timeoutMs: config.transport === "stdio" ? STDIO_PROBE_TIMEOUT_MS : NO_TIMEOUT },
  };
}

/** The options of `client.connect`, with a remembered verdict when there is one. */
export function connectOptions(
  signal: AbortSignal,
  prior: EraVerdict | undefined,
): ConnectOptions {
  return prior === undefined
    ? { signal, timeout: NO_TIMEOUT }
    : { signal, timeout: NO_TIMEOUT, prior };
}

/** The verdict of a connected client, to remember. */
export function verdictOf(
  client: { getProtocolEra(): string | undefined; getDiscoverResult(): unknown },
): EraVerdict | undefined {
  const era = client.getProtocolEra();
  if (era === "legacy") return { kind: "legacy" };
  const discover = client.getDiscoverResult();
  if (era === "modern" && discover !== undefined) {
    return { kind: "modern", discover } as EraVerdict;
  }
  return undefined;
}

/** Whether a stdio connect failed because the server went away on the in-place probe. */
export function closedOnProbe(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown } | undefined;
  return e?.code === ERA_NEGOTIATION_FAILED &&
    typeof e.message === "string" && e.message.includes("closed during the server/discover probe");
}

/**
 * The request that asks a connected server whether it is there: `ping` in the
 * 2025 era; the 2026-07-28 era has no `ping` (the SDK refuses it), so there
 * `server/discover`, which every server of that era answers.
 */
export function livenessRequest(
  client: { getProtocolEra(): string | undefined },
): { method: "ping" | "server/discover" } {
  return { method: client.getProtocolEra() === "modern" ? "server/discover" : "ping" };
}
