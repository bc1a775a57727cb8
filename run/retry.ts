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
