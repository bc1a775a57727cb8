/**
 * The errors of the serve layer: every one is a {@linkcode ServeError} with a
 * stable `code` from {@linkcode ServeErrorCode}.
 *
 * @module
 */

/**
 * The stable codes of serve errors.
 *
 * - `name_clash`: two tools would be served under the same name.
 * - `bad_option`: an option is malformed (address, limit, prefix, ...).
 * - `auth_required`: listening beyond loopback without auth configured.
 * - `listen_failed`: the address is in use or not on this machine (the message names it).
 * - `unauthorized`: a request without valid credentials (HTTP 401).
 * - `forbidden`: a token without the scope a tool needs (HTTP 403).
 * - `bad_host`: a Host header outside the allowed names (DNS rebinding).
 * - `bad_origin`: an Origin header outside the allowed origins (DNS rebinding).
 * - `body_too_large`: a request body above the limit (HTTP 413).
 * - `too_many_requests`: a client above its concurrency limit (HTTP 429).
 * - `upstream_unavailable`: an upstream server cannot be reached.
 */
export type ServeErrorCode =
  | "name_clash"
  | "bad_option"
  | "auth_required"
  | "listen_failed"
  | "unauthorized"
  | "forbidden"
  | "bad_host"
  | "bad_origin"
  | "body_too_large"
  | "too_many_requests"
  | "upstream_unavailable";

/** Options of {@linkcode ServeError}. */
export interface ServeErrorOptions {
  /** The underlying error. */
  cause?: unknown;
}

/**
 * An error of the serve layer.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ServeError } from "@toolfoundation/core/serve";
 *
 * const error = new ServeError("name_clash", "tools a and b are both served as \"x\"");
 * assert.equal(error.code, "name_clash");
 * assert.equal(error.name, "ServeError");
 * ```
 */
export class ServeError extends Error {
  /** The stable code. */
  readonly code: ServeErrorCode;

  /**
   * Creates the instance.
   *
   * @param code The stable code.
   * @param message What is wrong, where, how to fix it.
   * @param options The cause.
   */
  constructor(code: ServeErrorCode, message: string, options?: ServeErrorOptions) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = "ServeError";
    this.code = code;
  }
}
