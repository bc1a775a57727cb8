/**
 * The errors of a `StateStore`: every one is a
 * {@linkcode StateStoreError} with a stable `code` and, when another error
 * caused it (a lost connection, unreadable stored data), that error as
 * `cause`.
 *
 * @module
 */

/**
 * The stable codes of state store errors.
 *
 * - `unavailable`: the store cannot be reached or did not answer (e.g. Redis
 *   is down); retrying later may succeed.
 * - `closed`: the store was closed; nothing more can be done with it.
 * - `bad_data`: what the store holds cannot be read (written by something
 *   else, or corrupted).
 * - `bad_option`: a limit or an address given to the store is malformed.
 */
export type StateStoreErrorCode = "unavailable" | "closed" | "bad_data" | "bad_option";

/** Options of {@linkcode StateStoreError}. */
export interface StateStoreErrorOptions {
  /** The underlying error. */
  cause?: unknown;
}

/**
 * An error of a `StateStore`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { StateStoreError } from "@toolfoundation/core/serve";
 *
 * const lost = new Error("connection refused");
 * const error = new StateStoreError("unavailable", "redis://127.0.0.1:6379 does not answer", {
 *   cause: lost,
 * });
 * assert.equal(error.code, "unavailable");
 * assert.equal(error.name, "StateStoreError");
 * assert.equal(error.cause, lost);
 * ```
 */
export class StateStoreError extends Error {
  /** The stable code. */
  readonly code: StateStoreErrorCode;

  /**
   * Creates the instance.
   *
   * @param code The stable code.
   * @param message What is wrong, where, how to fix it.
   * @param options The cause.
   */
  constructor(code: StateStoreErrorCode, message: string, options?: StateStoreErrorOptions) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = "StateStoreError";
    this.code = code;
  }
}
