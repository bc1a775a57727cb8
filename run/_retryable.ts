// Private: which failures of a call are worth another attempt (a transport failure, HTTP 429,
// 502, 503, 504; never a final run error), with the wait a Retry-After asks for, which tools
// may be called twice, and the mark of an error that already went through a retry loop (see
// retry.ts for the loop and its policy).

import type { Tool } from "../model/mod.ts";

/** HTTP statuses worth retrying. */
const RETRY_STATUS = new Set([429, 502, 503, 504]);

/** Failures of the transport, by error name or message. */
const TRANSPORT_NAMES = new Set([
  "ConnectionReset",
  "ConnectionRefused",
  "ConnectionAborted",
  "BrokenPipe",
  "UnexpectedEof",
]);
// Not "connection closed": that is how a stdio server that died mid-call shows,
// and a process that crashed on a call is not restarted to run it again.
const TRANSPORT_TEXT =
  /connection (reset|refused|aborted)|ECONNRESET|ECONNREFUSED|socket hang up|error sending request|network error|fetch failed/i;

/** Codes of errors that are never retried, whatever their cause says. */
const FINAL = new Set([
  "tool_error",
  "input_validation",
  "output_validation",
  "timeout",
  "cancelled",
  "output_too_large",
  "permission_denied",
  "tool_not_found",
  "no_backend",
  "invalid_tool_id",
  "chain_reference",
]);

/** Marks an error that already went through a retry loop (a delegating tool must not retry it again). */
const RETRIED = Symbol("toolfoundation.retried");

/** Marks an error as having gone through a retry loop, and returns it. */
export function settled(error: unknown): unknown {
  if (typeof error === "object" && error !== null) {
    try {
      Object.defineProperty(error, RETRIED, { value: true });
    } catch { /* frozen: fine */ }
  }
  return error;
}

/** Whether a tool may be called twice: idempotentHint or readOnlyHint. */
export function isIdempotent(tool: Tool | undefined): boolean {
  const a = (tool?.annotations ?? {}) as Record<string, unknown>;
  return a.idempotentHint === true || a.readOnlyHint === true;
}

function retryAfterOf(value: unknown): number | undefined {
  const v = value as {
    retryAfter?: unknown;
    details?: { retryAfter?: unknown; headers?: unknown };
    headers?: unknown;
  };
  const raw = v?.retryAfter ?? v?.details?.retryAfter ??
    headerOf(v?.details?.headers) ?? headerOf(v?.headers);
  if (typeof raw === "number" && Number.isFinite(raw) && raw >= 0) return raw * 1000;
  if (typeof raw !== "string") return undefined;
  if (/^\s*\d+(\.\d+)?\s*$/.test(raw)) return Number(raw) * 1000;
  const date = Date.parse(raw);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

function headerOf(headers: unknown): unknown {
  if (headers instanceof Headers) return headers.get("retry-after") ?? undefined;
  if (typeof headers === "object" && headers !== null) {
    for (const [k, v] of Object.entries(headers)) if (k.toLowerCase() === "retry-after") return v;
  }
  return undefined;
}

/** The first Retry-After found along an error's causes. */
function retryAfterInChain(error: unknown): number | undefined {
  let current: unknown = error;
  for (let depth = 0; current !== undefined && current !== null && depth < 8; depth++) {
    const ms = retryAfterOf(current);
    if (ms !== undefined) return ms;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** Why an error is worth retrying (with Retry-After, when it says), or `undefined`. */
export function retryReason(
  error: unknown,
): { reason: string; status?: number; retryAfterMs?: number } | undefined {
  const code = (error as { code?: unknown })?.code;
  if (typeof code === "string" && FINAL.has(code)) return undefined;
  if ((error as { [RETRIED]?: boolean })?.[RETRIED] === true) return undefined;
  let current: unknown = error;
  for (let depth = 0; current !== undefined && current !== null && depth < 8; depth++) {
    const c = current as {
      name?: unknown;
      message?: unknown;
      code?: unknown;
      status?: unknown;
      details?: { status?: unknown };
    };
    const status = [c.details?.status, c.status, c.code].find((s) =>
      typeof s === "number" && s >= 100 && s < 600
    ) as number | undefined;
    if (status !== undefined) {
      if (!RETRY_STATUS.has(status)) return undefined;
      const retryAfterMs = retryAfterOf(c) ?? retryAfterOf(error);
      return {
        reason: `HTTP ${status}`,
        status,
        ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
      };
    }
    const message = typeof c.message === "string" ? c.message : "";
    const http = /\bHTTP (429|502|503|504)\b|\((429|502|503|504)\)/.exec(message);
    if (http) {
      // An error that quotes the status: its causes may still carry the Retry-After.
      const s = Number(http[1] ?? http[2]);
      const retryAfterMs = retryAfterInChain(current);
      return {
        reason: `HTTP ${s}`,
        status: s,
        ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
      };
    }
    if (
      (typeof c.name === "string" && TRANSPORT_NAMES.has(c.name)) || TRANSPORT_TEXT.test(message)
    ) {
      return { reason: `transport: ${message.split("\n")[0].slice(0, 120) || String(c.name)}` };
    }
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}
