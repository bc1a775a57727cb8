/**
 * Local backends: in-process handlers, and the context every backend gets (the
 * cancellation signal and a progress reporter).
 *
 * @module
 */

/** A progress report, normalized: a finite `progress`, an optional `total` and message. */
export interface ProgressUpdate {
  /** Progress so far (a count, or a fraction of `total`). */
  progress: number;
  /** The total, when known. */
  total?: number;
  /** A human-readable status. */
  message?: string;
}

/** What a backend receives besides the arguments. */
export interface ToolContext {
  /** The tool ID being run. */
  readonly toolId: string;
  /** Aborted when the run is cancelled or times out; `reason` says which. */
  readonly signal: AbortSignal;
  /**
   * Reports progress. A bare number is `{ progress }`; reports with a
   * non-finite `progress` are ignored, an invalid `total` or `message` is dropped.
   *
   * @param update The progress report.
   */
  progress(update: ProgressUpdate | number): void;
}

/**
 * An in-process tool implementation. It may return a value, a promise, or an
 * async iterable: every yielded value is a `chunk` event, and the result is
 * the generator's return value when it returns one, else the list of chunks.
 *
 * @example A streaming handler
 * ```ts
 * import assert from "node:assert/strict";
 * import { type LocalHandler, Runner } from "@toolfoundation/core/run";
 *
 * const count: LocalHandler = async function* (args, ctx) {
 *   const n = args.n as number;
 *   for (let i = 1; i <= n; i++) {
 *     ctx.progress({ progress: i, total: n });
 *     yield i;
 *   }
 *   return { counted: n };
 * };
 * const runner = new Runner();
 * runner.addLocalTool({ name: "count", inputSchema: { type: "object" } }, count);
 * const result = await runner.run("count", { n: 3 });
 * assert.deepEqual(result.structured, { counted: 3 });
 * ```
 *
 * A handler that holds resources (a process, a connection) may carry a
 * `close()` method: `Runner.close()` calls it.
 */
export type LocalHandler = (
  args: Record<string, unknown>,
  ctx: ToolContext,
) => unknown;

/**
 * Normalizes a progress report; `undefined` when it carries no finite progress.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { normalizeProgress } from "./local.ts";
 *
 * assert.deepEqual(normalizeProgress(3), { progress: 3 });
 * assert.deepEqual(
 *   normalizeProgress({ progress: 1, total: Infinity, message: "ok" }),
 *   { progress: 1, message: "ok" },
 * );
 * assert.equal(normalizeProgress({ progress: NaN }), undefined);
 * ```
 *
 * @param update A number or a progress-like object.
 * @returns The normalized report, or `undefined`.
 */
export function normalizeProgress(update: unknown): ProgressUpdate | undefined {
  if (typeof update === "number") return Number.isFinite(update) ? { progress: update } : undefined;
  if (typeof update !== "object" || update === null) return undefined;
  const u = update as Record<string, unknown>;
  if (typeof u.progress !== "number" || !Number.isFinite(u.progress)) return undefined;
  const out: ProgressUpdate = { progress: u.progress };
  if (typeof u.total === "number" && Number.isFinite(u.total)) out.total = u.total;
  if (typeof u.message === "string") out.message = u.message;
  return out;
}
