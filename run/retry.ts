/**
 * Retries where they are safe: a call to an idempotent tool (annotation
 * `idempotentHint: true` or `readOnlyHint: true`) that fails on the way
 * (a transport failure: an HTTP request that could not be sent or whose
 * connection was refused or reset; or HTTP 429, 502, 503, 504; not a stdio
 * server that died during the call) is tried again with exponential backoff and full jitter,
 * waiting at least what `Retry-After` asks when the failure carries it, and
 * only while the call's deadline leaves room. A tool error (MCP `isError`),
 * invalid input or output, a timeout or a cancellation is never retried.
 * Every retry is reported to `onRetry` before its wait.
 *
 * @module
 */

import type { Tool } from "../model/mod.ts";
import type { RunResult } from "./result.ts";
import { isIdempotent, retryReason, settled } from "./_retryable.ts";

/** How retries are spaced and how many there are. */
export interface RetryPolicy {
  /** Attempts in all, the first included (default 4). */
  maxAttempts?: number;
  /** Base of the exponential backoff in ms (default 200): attempt n waits up to base * 2^(n-1). */
  baseDelayMs?: number;
  /** The longest wait between two attempts in ms (default 10000; Retry-After above it gives up). */
  maxDelayMs?: number;
}

/** One retry, reported before its wait. */
export interface RetryEvent {
  /** Always `"retry"`. */
  kind: "retry";
  /** The tool ID. */
  toolId: string;
  /** The attempt that is about to start (2 for the first retry). */
  attempt: number;
  /** How long the runner waits before it, in ms. */
  delayMs: number;
  /** Why: `HTTP 503`, `transport: connection reset`, ... */
  reason: string;
  /** The HTTP status, when there was one. */
  status?: number;
}

/** The runner options about retries. */
export interface RetryOptions {
  /** The retry policy (defaults above); `{ maxAttempts: 1 }` turns retries off. */
  retry?: RetryPolicy;
  /** Receives every retry. */
  onRetry?: (event: RetryEvent) => void;
}

/** The default policy. */
export const DEFAULT_RETRY_POLICY: Readonly<Required<RetryPolicy>> = Object.freeze({
  maxAttempts: 4,
  baseDelayMs: 200,
  maxDelayMs: 10_000,
});

/** What one retried execution needs. */
export interface RetryContext extends RetryOptions {
  /** The tool ID. */
  toolId: string;
  /** The tool (for its hints), when registered. */
  tool: Tool | undefined;
  /** The call's deadline in ms (0 or Infinity: none). */
  timeoutMs: number;
  /** Milliseconds of the deadline spent before the first attempt. */
  spentMs?: number;
  /** The caller's signal. */
  signal?: AbortSignal;
}

/** Waits `ms`; false when the signal aborted first. */
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
 * Runs `attempt` (given the time spent of the deadline), again on a retryable failure of
 * an idempotent tool, within the deadline; the last error is thrown. The
 * runner runs every call through it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { localBackend } from "@toolfoundation/core/model";
 * import { withRetries } from "./retry.ts";
 *
 * const tool = { name: "t", inputSchema: { type: "object" as const }, annotations: { readOnlyHint: true } };
 * let calls = 0;
 * const result = await withRetries(() => {
 *   calls++;
 *   if (calls === 1) return Promise.reject(new Error("HTTP 503"));
 *   return Promise.resolve({ tool, backend: localBackend("t"), structured: "ok", durationMs: 1 });
 * }, { toolId: "t", tool, timeoutMs: 10_000, retry: { baseDelayMs: 1 } });
 * assert.equal(result.structured, "ok");
 * assert.equal(calls, 2);
 * ```
 *
 * @param attempt One attempt, given the milliseconds of the deadline spent before it (`undefined` on the first).
 * @param context The tool, its deadline, the caller's signal and the retry options.
 * @returns The result of the first attempt that succeeds.
 */
export async function withRetries(
  attempt: (spentMs: number | undefined) => Promise<RunResult>,
  context: RetryContext,
): Promise<RunResult> {
  const policy = { ...DEFAULT_RETRY_POLICY, ...context.retry };
  if (!isIdempotent(context.tool) || policy.maxAttempts <= 1) return attempt(undefined);
  const started = performance.now();
  const limited = context.timeoutMs > 0 && Number.isFinite(context.timeoutMs);
  const spent = () => (context.spentMs ?? 0) + (performance.now() - started);
  const left = () => context.timeoutMs - spent();
  for (let n = 1;; n++) {
    try {
      return await attempt(n === 1 ? undefined : Math.floor(spent()));
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
