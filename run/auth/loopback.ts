/**
 * The loopback redirect receiver of an interactive login (RFC 8252 section
 * 7.3): an HTTP server on 127.0.0.1 at a random port that accepts one
 * authorization response per {@linkcode LoopbackReceiver.wait}, checks its
 * `state`, and gives up after a deadline.
 *
 * @module
 */

import { AuthError } from "./auth_error.ts";

/** What the authorization server sent back to the redirect URI. */
export interface AuthorizationCallback {
  /** The authorization code. */
  code: string;
  /** The `iss` parameter (RFC 9207), when present. */
  iss?: string;
}

/** Options of {@linkcode LoopbackReceiver.wait}. */
export interface LoopbackWaitOptions {
  /** How long to wait for the browser, in ms (default 300000, 5 minutes). */
  timeoutMs?: number;
  /** Cancels the wait. */
  signal?: AbortSignal;
}

/** Options of {@linkcode startLoopbackReceiver}. */
export interface LoopbackReceiverOptions {
  /** The path of the redirect URI (default `/callback`). */
  path?: string;
}

/** A running loopback receiver. */
export interface LoopbackReceiver {
  /** The redirect URI: `http://127.0.0.1:<port><path>`. */
  readonly redirectUrl: string;
  /**
   * Waits for the one authorization response carrying `state`. A response
   * with another `state`, an `error`, or no `code` fails the wait; so does
   * the deadline.
   */
  wait(state: string, options?: LoopbackWaitOptions): Promise<AuthorizationCallback>;
  /** Stops the server. */
  close(): Promise<void>;
}

const PAGE_OK = "<!doctype html><title>Logged in</title><p>Logged in. You can close this window.";
const PAGE_FAILED = "<!doctype html><title>Login failed</title><p>Login failed; see the terminal.";

interface Waiter {
  state: string;
  resolve(callback: AuthorizationCallback): void;
  reject(error: AuthError): void;
}

/**
 * Starts a loopback receiver on 127.0.0.1 (a random port). Needs
 * `--allow-net=127.0.0.1`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { startLoopbackReceiver } from "@toolfoundation/core/run/auth";
 *
 * const receiver = await startLoopbackReceiver();
 * const waiting = receiver.wait("s-123", { timeoutMs: 10_000 });
 * const response = await fetch(`${receiver.redirectUrl}?code=c-456&state=s-123`);
 * await response.body?.cancel();
 * assert.deepEqual(await waiting, { code: "c-456" });
 * await receiver.close();
 * ```
 *
 * @param options The redirect path.
 * @returns The running receiver.
 */
export function startLoopbackReceiver(
  options: LoopbackReceiverOptions = {},
): Promise<LoopbackReceiver> {
  const path = options.path ?? "/callback";
  let waiter: Waiter | undefined;

  const handler = (request: Request): Response => {
    const url = new URL(request.url);
    if (request.method !== "GET" || url.pathname !== path) {
      return new Response("not found", { status: 404 });
    }
    const current = waiter;
    if (current === undefined) {
      return new Response("no login is waiting for this response", { status: 409 });
    }
    waiter = undefined;
    const q = url.searchParams;
    const failed = (message: string) => {
      current.reject(new AuthError("auth_failed", message));
      return html(PAGE_FAILED, 400);
    };
    if (q.get("state") !== current.state) {
      return failed(
        "the authorization response's state does not match the login's (a stale or forged " +
          "redirect); nothing was exchanged: run the login again",
      );
    }
    const error = q.get("error");
    if (error !== null) {
      const description = q.get("error_description");
      return failed(
        `the authorization server refused the login: ${error.slice(0, 100)}${
          description ? ` (${description.slice(0, 300)})` : ""
        }`,
      );
    }
    const code = q.get("code");
    if (!code) return failed("the authorization response carries no code");
    const iss = q.get("iss");
    current.resolve(iss === null ? { code } : { code, iss });
    return html(PAGE_OK, 200);
  };

  return new Promise((resolve, reject) => {
    try {
      const server = Deno.serve({
        hostname: "127.0.0.1",
        port: 0,
        onListen: () => {},
        onError: () => new Response("error", { status: 500 }),
      }, handler);
      const { port } = server.addr as Deno.NetAddr;
      let closed = false;
      resolve({
        redirectUrl: `http://127.0.0.1:${port}${path}`,
        wait(state, waitOptions = {}) {
          if (waiter !== undefined) {
            return Promise.reject(new AuthError("auth_failed", "a login is already waiting"));
          }
          const timeoutMs = waitOptions.timeoutMs ?? 300_000;
          return new Promise<AuthorizationCallback>((resolveWait, rejectWait) => {
            const done = () => {
              clearTimeout(timer);
              waitOptions.signal?.removeEventListener("abort", onAbort);
              if (waiter === mine) waiter = undefined;
            };
            const timer = setTimeout(() => {
              done();
              rejectWait(
                new AuthError(
                  "auth_failed",
                  `no authorization response arrived within ${
                    Math.round(timeoutMs / 1000)
                  } s; run the login again (and finish it in the browser)`,
                ),
              );
            }, timeoutMs);
            const onAbort = () => {
              done();
              rejectWait(waitOptions.signal!.reason);
            };
            const mine: Waiter = {
              state,
              resolve: (callback) => {
                done();
                resolveWait(callback);
              },
              reject: (error) => {
                done();
                rejectWait(error);
              },
            };
            waiter = mine;
            if (waitOptions.signal?.aborted) onAbort();
            else waitOptions.signal?.addEventListener("abort", onAbort, { once: true });
          });
        },
        async close() {
          if (closed) return;
          closed = true;
          await server.shutdown();
        },
      });
    } catch (error) {
      reject(error);
    }
  });
}

function html(body: string, status: number): Response {
  return new Response(body, {
    status,
    headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" },
  });
}
