// Private: one request on a connection of the pool (one request at a time,
// or several on a shared stdio connection): the upstream's progress reaches
// exactly this request (by a token of ours), the caller's signal cancels it,
// and a connection that may still send something for it (cancelled, timed
// out, failed) is marked dead so that the pool replaces it (once the other
// requests on it ended).

import type { McpServerConfig } from "../run/mod.ts";
import { NO_TIMEOUT, watch } from "../run/mcp/connection.ts";
import { directCall, directCapable, Undelivered } from "./_fast_upstream.ts";
import { directStdioCall, stdioDirectCapable } from "./_fast_stdio.ts";
import { enterSlot, leaveSlot, type Slot, withoutServerInfo } from "./_upstream_connect.ts";
import { isUpstreamError, upstreamFailure } from "./_upstream_errors.ts";
import type { UpstreamCallContext, UpstreamMethod } from "./upstream.ts";

/** The methods whose result may be input_required (2026-07-28). */
const INPUT_REQUIRED_CAPABLE: ReadonlySet<string> = new Set([
  "tools/call",
  "prompts/get",
  "resources/read",
]);

/**
 * Sends one request on a checked-out connection of upstream server `name`
 * and returns its result as received (without `serverInfo`); `started` is
 * when the request began waiting (its deadline counts from then); `headers`
 * go on its HTTP request (a tool call's `Mcp-Param-*` headers). A
 * `tools/call` over a Streamable HTTP connection of `config` (2025 era, or
 * 2026-07-28 for a caller that takes input-required results) goes the direct
 * way (serve/_fast_upstream.ts), over a 2025-era stdio connection too
 * (serve/_fast_stdio.ts), else the SDK's.
 */
export async function sendOnSlot(
  name: string,
  slot: Slot,
  method: UpstreamMethod,
  params: Record<string, unknown>,
  context: UpstreamCallContext,
  started: number,
  headers?: Record<string, string>,
  config?: McpServerConfig,
): Promise<Record<string, unknown>> {
  const limit = context.timeoutMs;
  const connection = slot.connection!;
  enterSlot(slot, context);
  // Progress is taken off the transport by our token (none is lost when it
  // shares a chunk with the result) and handed on without the token.
  let token: string | undefined;
  let sent = params;
  const onProgress = context.onProgress;
  if (onProgress !== undefined) {
    token = `tf-${++connection.tokens}`;
    connection.progress.set(token, ({ progress, total, message }) =>
      onProgress({
        progress,
        ...(total === undefined ? {} : { total }),
        ...(message === undefined ? {} : { message }),
      }));
    sent = {
      ...params,
      _meta: { ...(params._meta as object | undefined), progressToken: token },
    };
  }
  // The caller's signal, or us (see below), cancel the request.
  const stop = new AbortController();
  const outer = context.signal;
  const onAbort = (): void => stop.abort(outer!.reason);
  if (outer?.aborted) stop.abort(outer.reason);
  else outer?.addEventListener("abort", onAbort, { once: true });
  try {
    const timeout = limit === undefined
      ? NO_TIMEOUT
      : Math.max(1, Math.ceil(limit - (performance.now() - started)));
    if (
      method === "tools/call" && config !== undefined && directCapable(config, connection, context)
    ) {
      const signal = timeout === NO_TIMEOUT
        ? stop.signal
        : AbortSignal.any([stop.signal, AbortSignal.timeout(timeout)]);
      try {
        return withoutServerInfo(
          await directCall(
            config,
            connection,
            params,
            context,
            signal,
            token,
            headers,
            slot.direct,
          ),
        );
      } catch (error) {
        // Refused before the server ran it: the SDK sends it (and handles the refusal).
        if (!(error instanceof Undelivered)) throw error;
        if (slot.direct !== undefined) slot.direct.handedBack++;
      }
    }
    if (method === "tools/call" && stdioDirectCapable(connection)) {
      return withoutServerInfo(await directStdioCall(connection, sent, stop.signal, timeout));
    }
    const request = connection.client.request(
      { method: method as "tools/call", params: sent },
      {
        signal: stop.signal,
        timeout,
        ...(headers === undefined ? {} : { headers }),
        ...(context.returnInputRequired === true && INPUT_REQUIRED_CAPABLE.has(method)
          ? { allowInputRequired: true }
          : {}),
      },
    ) as Promise<Record<string, unknown>>;
    return withoutServerInfo(await watch(connection, request));
  } catch (error) {
    // Given up on by us (connection lost, message over the cap), not settled
    // by the SDK: tell the SDK (and the server) to drop the request.
    if (error === connection.lostError || isOversize(error)) stop.abort(error);
    if (isUpstreamError(error)) throw error;
    // A cancelled, timed out or failed request may still make the server
    // send progress or log lines, or it may never answer (a hung call): the
    // connection is closed and replaced, so that none reaches another
    // request. Only a message over the cap leaves it as it was.
    if (!isOversize(error)) slot.dead = true;
    throw upstreamFailure(name, connection, error);
  } finally {
    outer?.removeEventListener("abort", onAbort);
    if (token !== undefined) connection.progress.delete(token);
    leaveSlot(slot, context);
  }
}

function isOversize(error: unknown): boolean {
  return (error as { code?: unknown })?.code === "output_too_large";
}
