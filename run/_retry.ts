// Private: the retry loop around one execution (see retry.ts for the policy).

import type { Tool } from "../model/mod.ts";
import type { RunResult } from "./result.ts";
import { DEFAULT_RETRY_POLICY, type RetryEvent, type RetryOptions } from "./retry.ts";

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

function settled(error: unknown): unknown {
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

/** What one retried execution needs. */
export interface RetryContext extends RetryOptions {
  /** The tool ID. */
  toolId: string;
  /** The tool (for its hints), when registered. */
  tool: Tool | undefined;
  /** The call's deadline in ms (0 or Infinity: none). */
  timeoutMs: number;
  /** The caller's signal. */
  signal?: AbortSignal;
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve(false);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve(true);
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * Runs `attempt` (given the deadline left), again on a retryable failure of
 * an idempotent tool, within the deadline; the last error is thrown.
 */
export async function withRetries(
  attempt: (timeoutMs: number | undefined) => Promise<RunResult>,
  context: RetryContext,
): Promise<RunResult> {
  const policy = { ...DEFAULT_RETRY_POLICY, ...context.retry };
  if (!isIdempotent(context.tool) || policy.maxAttempts <= 1) return attempt(undefined);
  const started = performance.now();
  const limited = context.timeoutMs > 0 && Number.isFinite(context.timeoutMs);
  const left = () => context.timeoutMs - (performance.now() - started);
  for (let n = 1;; n++) {
    try {
      return await attempt(n === 1 ? undefined : Math.max(1, Math.floor(left())));
    } catch (error) {
      const why = retryReason(error);
      if (why === undefined || n >= policy.maxAttempts || context.signal?.aborted) {
        throw settled(error);
      }
      const backoff = Math.random() *
        Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (n - 1));
      const delayMs = Math.round(Math.max(backoff, why.retryAfterMs ?? 0));
      if (delayMs > policy.maxDelayMs) throw settled(error);
      // Room for the wait and some of the next attempt, or give up now.
      if (limited && delayMs + 50 >= left()) throw settled(error);
      const event: RetryEvent = {
        kind: "retry",
        toolId: context.toolId,
        attempt: n + 1,
        delayMs,
        reason: why.reason,
        ...(why.status === undefined ? {} : { status: why.status }),
      };
      context.onRetry?.(event);
      if (!await sleep(delayMs, context.signal)) throw settled(error);
    }
  }
}
