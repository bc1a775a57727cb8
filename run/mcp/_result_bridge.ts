// Private: lenient reading of a 2026-07-28 upstream's results. The SDK's
// client refuses a result without `resultType` (and a cacheable one without
// `ttlMs`/`cacheScope`), which some servers of that revision omit (the
// harness's own reference server does on some paths). `serve` stands in front
// of such servers for clients that expect a valid result, so a connection reads an
// omitted `resultType` as "complete" and omitted cache hints as "do not cache"
// (`ttlMs` 0, `cacheScope` "private": the safest reading), before the SDK
// decodes the result. What the client of `serve` receives is then a valid
// 2026-07-28 result (or a 2025 one), never an error about the upstream's omission.
// The runner reads results the same way, so a tool of such a server runs.

import type { Connection } from "./_lifecycle.ts";

/** The methods whose 2026-07-28 results carry cache hints (SEP-2549). */
const CACHEABLE = new Set([
  "server/discover",
  "tools/list",
  "prompts/list",
  "resources/list",
  "resources/templates/list",
  "resources/read",
]);

/** The most request IDs remembered while their answers are awaited (a bound on a misbehaving peer). */
const MAX_PENDING = 4096;

type Message = { id?: unknown; method?: unknown; result?: unknown };

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * A result of `method` with what a 2026-07-28 server omitted filled in:
 * `resultType` "complete", and for a cacheable method `ttlMs` 0 and
 * `cacheScope` "private". A result that has them is returned as it is.
 */
export function completedResult(
  method: string | undefined,
  result: Record<string, unknown>,
): Record<string, unknown> {
  const cacheable = method !== undefined && CACHEABLE.has(method) &&
    (result.resultType === undefined || result.resultType === "complete");
  if (
    result.resultType !== undefined && (!cacheable || ("ttlMs" in result && "cacheScope" in result))
  ) {
    return result;
  }
  return {
    ...result,
    ...(result.resultType === undefined ? { resultType: "complete" } : {}),
    ...(cacheable && !("ttlMs" in result) ? { ttlMs: 0 } : {}),
    ...(cacheable && !("cacheScope" in result) ? { cacheScope: "private" } : {}),
  };
}

/**
 * Installs the lenient reading on a connection that speaks 2026-07-28 (a
 * 2025-era connection is left alone: results of that era have no
 * `resultType`). Call it once, after the handshake.
 */
export function bridgeModernResults(connection: Connection): void {
  const era = (connection.client as { getProtocolEra?: () => string | undefined })
    .getProtocolEra?.();
  if (era !== "modern") return;
  const transport = connection.transport;
  const deliver = transport.onmessage;
  const send = transport.send.bind(transport);
  if (deliver === undefined) return;
  const pending = new Map<unknown, string>();
  transport.send = (message, options) => {
    const m = message as Message;
    if (typeof m.method === "string" && m.id !== undefined) {
      if (pending.size >= MAX_PENDING) pending.delete(pending.keys().next().value);
      pending.set(m.id, m.method);
    }
    return send(message, options);
  };
  transport.onmessage = (message, extra) => {
    const m = message as Message;
    if (m.id !== undefined && m.method === undefined && ("result" in m || "error" in m)) {
      const method = pending.get(m.id);
      pending.delete(m.id);
      if (isObject(m.result)) {
        const result = completedResult(method, m.result);
        if (result !== m.result) message = { ...message, result } as typeof message;
      }
    }
    deliver(message, extra);
  };
}
