// Private: an upstream of both protocol eras. An `auto` server found to
// speak 2026-07-28 may speak 2025 too: what only that era has
// (subscriptions, or a capability its discovery does not declare), and what
// a 2025-era client expects, goes over a 2025 connection.

import type { EraVerdict } from "../run/mcp/connection.ts";
import type { McpServerConfig } from "../run/mod.ts";
import type { UpstreamCapabilities, UpstreamMethod } from "./upstream.ts";

/** The era verdict that makes a connection of an `auto` server speak 2025 without probing. */
export const LEGACY: EraVerdict = { kind: "legacy" };

/** How long a server found to speak 2026-07-28 may take to answer a 2025 `initialize`. */
export const LEGACY_PROBE_TIMEOUT_MS = 5000;

/** Methods the 2026-07-28 revision removed: sent to a server of both eras over a 2025 connection. */
const LEGACY_ONLY = new Set<UpstreamMethod>(["resources/subscribe", "resources/unsubscribe"]);

/** The capability a forwarded method needs of the server. */
function capabilityOf(method: UpstreamMethod): keyof UpstreamCapabilities {
  if (method === "completion/complete") return "completions";
  return method.slice(0, method.indexOf("/")) as keyof UpstreamCapabilities;
}

/** Whether this is an `auto` server that was found to speak 2026-07-28 (and may speak 2025). */
export function speaksBothEras(config: McpServerConfig, verdict: EraVerdict | undefined): boolean {
  const protocol = config.transport === "sse" ? "legacy" : config.protocol ?? "auto";
  return protocol === "auto" && verdict?.kind === "modern";
}

/**
 * Whether a request goes over a 2025 connection of a server that speaks
 * both eras (`legacy`: what it offers over one, undefined until asked): for
 * a 2025-era client, for a method 2026-07-28 removed, and for a capability
 * only the 2025 side offers. A tool call goes to the side that lists the
 * tool: a 2025-era client's call of a tool the server lists only in
 * 2026-07-28 (`legacyTools`: the names its 2025 side lists, undefined when
 * not known) goes over a 2026-07-28 connection.
 */
export function viaLegacy(
  method: UpstreamMethod,
  params: Readonly<Record<string, unknown>>,
  clientEra: "legacy" | "modern" | undefined,
  modern: UpstreamCapabilities | undefined,
  legacy: UpstreamCapabilities | undefined,
  legacyTools: ReadonlySet<string> | undefined,
): boolean {
  if (legacy === undefined) return false;
  const key = capabilityOf(method);
  if (legacy[key] === undefined) return false;
  if (
    method === "tools/call" && modern?.tools !== undefined && legacyTools !== undefined &&
    !legacyTools.has(String(params.name))
  ) return false;
  return clientEra === "legacy" || LEGACY_ONLY.has(method) || modern?.[key] === undefined;
}

/**
 * What a server offers in either era: each capability from the 2026-07-28
 * discovery, else from the 2025 initialize (whose `resources.subscribe` is
 * kept: subscriptions go over a 2025 connection).
 */
export function unionOf(
  modern: UpstreamCapabilities,
  legacy: UpstreamCapabilities,
): UpstreamCapabilities {
  const out: UpstreamCapabilities = { ...legacy, ...modern };
  if (legacy.resources?.subscribe === true) {
    out.resources = { ...out.resources, subscribe: true };
  }
  return out;
}
