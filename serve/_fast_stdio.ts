// Private: the direct path of a `tools/call` to a stdio upstream. The
// connection stays the SDK's (its process, initialize, era, the server's
// requests and notifications); only the call itself is written here, as one
// JSON-RPC line under an ID of ours, and its response taken off the
// transport before the SDK sees it: no schema pass over the outgoing request,
// no request bookkeeping of the SDK's, no error built to learn how to read
// the result. The result is checked against the protocol's `CallToolResult`
// schema and put in its shape, as the SDK's client would (the same reading
// as the Streamable HTTP direct path); a cancelled or timed out call sends
// `notifications/cancelled` and fails with the SDK's error. Progress comes by
// the caller's token (run/mcp's interception), logging and the server's
// requests through the SDK's handlers, as before; a lost connection or a
// message over the cap fails the call at once (`watch`). Calls side by side
// on one connection are told apart by their IDs.

import { type JSONRPCMessage, SdkError, SdkErrorCode } from "@modelcontextprotocol/client";
import { type Connection, NO_TIMEOUT, watch } from "../run/mcp/connection.ts";
import { resultOf } from "./_fast_upstream.ts";

/** A response to one of our calls, by the call's ID. */
type Waiting = Map<string, (message: Record<string, unknown>) => void>;

/** The calls each connection waits for (its transport is intercepted once). */
const waiting = new WeakMap<Connection, Waiting>();
let nextId = 0;
let enabled = true;

/**
 * Turns the direct path on or off (on by default); off, every call goes the
 * SDK's way. For tests that compare both paths on one server.
 */
export function useStdioDirect(on: boolean): void {
  enabled = on;
}

/**
 * Whether a `tools/call` over this connection can take the direct path: a
 * stdio connection in the 2025 era (a 2026-07-28 request carries an envelope
 * and its result may be input-required: the SDK's job), still open.
 */
export function stdioDirectCapable(connection: Connection): boolean {
  return enabled && connection.stdio !== undefined && !connection.closed &&
    connection.lostError === undefined && !connection.stdio.ended &&
    connection.client.getProtocolEra() === "legacy";
}

/** The calls waiting on `connection`, its transport intercepted for them on first use. */
function waitingOn(connection: Connection): Waiting {
  let calls = waiting.get(connection);
  if (calls !== undefined) return calls;
  const map: Waiting = new Map();
  calls = map;
  waiting.set(connection, map);
  const transport = connection.transport;
  const deliver = transport.onmessage;
  transport.onmessage = (message, extra) => {
    const id = (message as { id?: unknown }).id;
    if (typeof id === "string" && map.size > 0 && isResponse(message)) {
      const settle = map.get(id);
      if (settle !== undefined) {
        map.delete(id);
        settle(message as Record<string, unknown>);
        return;
      }
    }
    deliver?.(message, extra);
  };
  return map;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Whether a message is a JSON-RPC response as the SDK's message schema reads
 * one: a result that is an object, or an error with an integer code and a
 * message. Anything else goes on to the SDK, which drops it (the call then
 * ends at its deadline, as it does there).
 */
function isResponse(message: object): boolean {
  const m = message as Record<string, unknown>;
  if (m.jsonrpc !== "2.0" || "method" in m) return false;
  if ("result" in m) return isObject(m.result) && !("error" in m);
  const error = m.error;
  return isObject(error) && Number.isInteger(error.code) && typeof error.message === "string";
}

/**
 * Sends `tools/call` with `params` (the progress token already in its
 * `_meta` when the caller takes progress) on the stdio connection and
 * returns its result as the SDK's client would. `signal` cancels it and
 * `timeoutMs` ends it (`NO_TIMEOUT`: never), the server told either way;
 * both fail as the SDK's do (its `RequestTimeout` error).
 */
export async function directStdioCall(
  connection: Connection,
  params: Record<string, unknown>,
  signal: AbortSignal,
  timeoutMs: number,
): Promise<Record<string, unknown>> {
  if (signal.aborted) throw sdkAbort(signal.reason);
  const calls = waitingOn(connection);
  const id = `tf-${++nextId}`;
  const answer = Promise.withResolvers<Record<string, unknown>>();
  calls.set(id, answer.resolve);
  const cancel = (reason: unknown) => {
    if (!calls.delete(id)) return;
    // As the SDK does: the server is told, and stops the call.
    connection.transport.send({
      jsonrpc: "2.0",
      method: "notifications/cancelled",
      params: { requestId: id, reason: String(reason) },
    } as JSONRPCMessage).catch(() => {});
    answer.reject(sdkAbort(reason));
  };
  const onAbort = () => cancel(signal.reason);
  signal.addEventListener("abort", onAbort, { once: true });
  const timer = timeoutMs >= NO_TIMEOUT ? undefined : setTimeout(
    () =>
      cancel(
        new SdkError(SdkErrorCode.RequestTimeout, "Request timed out", { timeout: timeoutMs }),
      ),
    timeoutMs,
  );
  try {
    connection.transport.send(
      { jsonrpc: "2.0", id, method: "tools/call", params } as JSONRPCMessage,
    ).catch((error) => answer.reject(error));
    return resultOf(await watch(connection, answer.promise));
  } finally {
    calls.delete(id);
    clearTimeout(timer);
    signal.removeEventListener("abort", onAbort);
  }
}

/** What the SDK's client rejects a cancelled request with. */
function sdkAbort(reason: unknown): Error {
  return reason instanceof SdkError
    ? reason
    : new SdkError(SdkErrorCode.RequestTimeout, String(reason));
}
