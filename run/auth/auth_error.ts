/**
 * The errors of OAuth for Streamable HTTP servers.
 *
 * @module
 */

import { RunError, type RunErrorOptions } from "../errors.ts";

/** The codes an {@linkcode AuthError} carries (part of `RunErrorCode`). */
export type AuthErrorCode = "auth_login_required" | "auth_failed";

/** Options of {@linkcode AuthError}. */
export interface AuthErrorOptions extends RunErrorOptions {
  /** The server (its URL) the authorization was for. */
  server?: string;
}

/**
 * Authorizing with an MCP server failed (`auth_failed`) or needs an
 * interactive login first (`auth_login_required`). The message never
 * quotes a token, secret or authorization code.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { AuthError } from "@toolfoundation/core/run/auth";
 *
 * const error = new AuthError("auth_login_required", "log in first", { server: "https://mcp.example/mcp" });
 * assert.equal(error.code, "auth_login_required");
 * assert.equal(error.server, "https://mcp.example/mcp");
 * ```
 */
export class AuthError extends RunError {
  /** `auth_login_required` or `auth_failed`. */
  declare readonly code: AuthErrorCode;
  /** The server the authorization was for. */
  server: string | undefined;

  /**
   * Creates the instance.
   *
   * @param code `auth_login_required` or `auth_failed`.
   * @param message What is wrong and how to fix it.
   * @param options Cause and server.
   */
  constructor(code: AuthErrorCode, message: string, options?: AuthErrorOptions) {
    super(code, message, options);
    this.server = options?.server;
  }
}

/**
 * Finds an {@linkcode AuthError} in `error` or its cause chain (the runner
 * and the MCP SDK wrap errors).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { AuthError, findAuthError } from "@toolfoundation/core/run/auth";
 *
 * const inner = new AuthError("auth_failed", "no");
 * assert.equal(findAuthError(new Error("wrapped", { cause: inner })), inner);
 * assert.equal(findAuthError(new Error("plain")), undefined);
 * ```
 *
 * @param error Any thrown value.
 * @returns The first AuthError found, or undefined.
 */
export function findAuthError(error: unknown): AuthError | undefined {
  let current: unknown = error;
  for (let depth = 0; current !== undefined && current !== null && depth < 8; depth++) {
    if (current instanceof AuthError) return current;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}
