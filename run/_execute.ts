// Private: running a backend's outcome under a deadline and a caller's signal,
// collecting async iterables, and classifying thrown values into RunErrors.

import type { ToolBackend } from "../model/mod.ts";
import {
  ExecutionError,
  PermissionDeniedError,
  RunCancelledError,
  RunError,
  RunTimeoutError,
} from "./errors.ts";

/** An abort controller created only when a backend asks for the signal. */
export class LazyAbort {
  #controller: AbortController | undefined;
  #reason: unknown;
  #aborted = false;

  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.#aborted) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }

  get aborted(): boolean {
    return this.#aborted;
  }

  abort(reason: unknown): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#reason = reason;
    this.#controller?.abort(reason);
  }
}

/** Where a run is: its tool ID and backend, for errors. */
interface RunSite {
  toolId: string;
  backend?: ToolBackend;
}

/** Makes a RunError of anything thrown by a backend. */
export function classify(error: unknown, site: RunSite): RunError {
  if (error instanceof RunError) {
    if (error.toolId === undefined && site.toolId !== undefined) {
      const id = JSON.stringify(site.toolId);
      if (error.message.startsWith("execution failed: ")) {
        error.message = `tool ${id} failed: ${error.message.slice("execution failed: ".length)}`;
      } else if (error.message.startsWith("permission denied: ")) {
        error.message = `tool ${id}: ${error.message}`;
      }
    }
    error.toolId ??= site.toolId;
    error.backend ??= site.backend;
    return error;
  }
  const name = (error as { name?: unknown })?.name;
  if (name === "NotCapable" || name === "PermissionDenied") {
    return new PermissionDeniedError((error as Error).message, { ...site, cause: error });
  }
  const message = error instanceof Error ? error.message : String(error);
  return new ExecutionError(message, { ...site, cause: error });
}

export function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as PromiseLike<unknown> | null)?.then === "function";
}

export function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return typeof value === "object" && value !== null &&
    typeof (value as AsyncIterable<unknown>)[Symbol.asyncIterator] === "function";
}

/** Drains an async iterable: chunks are reported, the return value (or the chunks) is the result. */
export async function collect(
  iterable: AsyncIterable<unknown>,
  control: LazyAbort,
  onChunk: ((chunk: unknown) => void) | undefined,
): Promise<unknown> {
  const iterator = iterable[Symbol.asyncIterator]();
  const chunks: unknown[] = [];
  let finished = false;
  try {
    while (!control.aborted) {
      const step = await iterator.next();
      if (step.done) {
        finished = true;
        return step.value !== undefined ? step.value : chunks;
      }
      if (control.aborted) break;
      chunks.push(step.value);
      onChunk?.(step.value);
    }
    return chunks;
  } finally {
    if (!finished) await iterator.return?.();
  }
}

/**
 * Settles work under a deadline (of which `spentMs` passed before) and a
 * caller's signal; whichever comes first wins.
 */
export function guard(
  work: Promise<unknown>,
  control: LazyAbort,
  site: RunSite,
  timeoutMs: number,
  signal: AbortSignal | undefined,
  spentMs = 0,
): Promise<unknown> {
  return new Promise((resolve, reject) => {
    let settled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const finish = (): boolean => {
      if (settled) return false;
      settled = true;
      if (timer !== undefined) clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      return true;
    };
    const onAbort = (): void => {
      if (!finish()) return;
      const error = new RunCancelledError({ ...site, cause: signal!.reason });
      control.abort(error);
      reject(error);
    };
    if (timeoutMs > 0 && Number.isFinite(timeoutMs)) {
      timer = setTimeout(() => {
        if (!finish()) return;
        const error = new RunTimeoutError(timeoutMs, site);
        control.abort(error);
        reject(error);
      }, Math.max(1, timeoutMs - spentMs));
    }
    signal?.addEventListener("abort", onAbort, { once: true });
    if (signal?.aborted) onAbort();
    work.then(
      (value) => {
        if (finish()) resolve(value);
      },
      (error) => {
        if (finish()) reject(classify(error, site));
      },
    );
  });
}

/** A signal aborted by `stop` or by the caller's `signal`, whichever comes first. */
export function linkedSignal(signal: AbortSignal | undefined, stop: AbortController): AbortSignal {
  return signal === undefined ? stop.signal : AbortSignal.any([signal, stop.signal]);
}
