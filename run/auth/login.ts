/**
 * Interactive authorization: {@linkcode withAuthorization} finishes a
 * browser authorization the MCP SDK started (wait for the loopback
 * callback, exchange the code, try again), and {@linkcode login} runs a
 * whole login against a server without connecting an MCP client.
 *
 * @module
 */

import {
  auth,
  computeScopeUnion,
  discoverAuthorizationServerMetadata,
  discoverOAuthProtectedResourceMetadata,
  extractWWWAuthenticateParams,
  InsecureTokenEndpointError,
  InsufficientScopeError,
  IssuerMismatchError,
  OAuthError,
  SdkErrorCode,
  SdkHttpError,
  UnauthorizedError,
} from "@modelcontextprotocol/client";
import { AuthError } from "./auth_error.ts";
import type { LoopbackReceiver, LoopbackWaitOptions } from "./loopback.ts";
import type { AuthorizationHandler } from "./oauth_settings.ts";
import type { StoreOAuthProvider } from "./oauth_provider.ts";

/** A fetch function (the global `fetch`'s shape). */
export type FetchLike = (url: string | URL, init?: RequestInit) => Promise<Response>;

/** Options of {@linkcode withAuthorization} and {@linkcode login}. */
export interface AuthorizeOptions {
  /** Cancels the probe request of {@linkcode login}. */
  signal?: AbortSignal;
  /** The fetch used for the OAuth requests (default: global fetch). */
  fetch?: FetchLike;
}

/**
 * Runs `operation`; when it fails because the user has to authorize in the
 * browser (the provider opened an authorization URL and the SDK raised
 * `UnauthorizedError`), waits for the authorization response on the
 * loopback receiver, exchanges the code (the SDK's `auth()`, which checks
 * the issuer and the PKCE verifier), and runs `operation` again. The
 * provider's `maxAuthorizations` bounds the rounds (a 403 step-up loop).
 * Any other failure is an {@linkcode AuthError} with tokens, secrets and
 * codes scrubbed from its message.
 *
 * @example
 * ```ts ignore
 * const transport = () => new StreamableHTTPClientTransport(url, { authProvider: provider });
 * await withAuthorization(url, provider, async () => {
 *   const client = new Client({ name: "me", version: "1" });
 *   await client.connect(transport());
 *   return await client.listTools();
 * });
 * ```
 *
 * @param serverUrl The MCP server's URL.
 * @param provider The provider given to the transport.
 * @param operation What to run (again after each authorization).
 * @param options The fetch of the code exchange.
 * @returns What `operation` returned.
 */
export async function withAuthorization<T>(
  serverUrl: string | URL,
  provider: StoreOAuthProvider,
  operation: () => Promise<T>,
  options: AuthorizeOptions = {},
): Promise<T> {
  let legacyTried = false;
  for (;;) {
    let exchange: Promise<void> | undefined;
    try {
      return await operation();
    } catch (error) {
      if (
        !legacyTried && isIssuerMismatch(error) &&
        await legacyDiscovery(serverUrl, provider, options.fetch ?? fetch)
      ) {
        legacyTried = true;
        continue;
      }
      // Requests refused at the same time (or by other operations on this provider)
      // joined one authorization: its code is exchanged once, then each runs again.
      exchange = isUnauthorized(error)
        ? provider.finishPendingAuthorization(async (callback) => {
          provider.rememberSecret(callback.code);
          const result = await auth(provider, {
            serverUrl,
            authorizationCode: callback.code,
            ...(callback.iss === undefined ? {} : { iss: callback.iss }),
            ...(options.fetch === undefined ? {} : { fetchFn: options.fetch }),
          });
          if (result !== "AUTHORIZED") throw new UnauthorizedError();
        })
        : undefined;
      if (exchange === undefined) {
        throw isAuthFailure(error) ? toAuthError(error, provider) : error;
      }
    }
    try {
      await exchange;
    } catch (error) {
      throw toAuthError(error, provider);
    }
  }
}

/** What {@linkcode login} obtained (no token values). */
export interface LoginResult {
  /** The authorization server's issuer. */
  issuer: string;
  /** The scope granted, when the server said. */
  scope?: string;
  /** Whether a refresh token was issued. */
  refreshable: boolean;
  /** When the access token expires (ms since the epoch), when the server said. */
  expiresAt?: number;
}

/**
 * Logs in to an MCP server: asks it (unauthenticated) for its challenge,
 * then runs the SDK's `auth()` (discovery, registration or CIMD, PKCE S256,
 * resource indicator, scope selection) with the provider, completing the
 * browser step through {@linkcode withAuthorization}. The tokens land in the
 * provider's store.
 *
 * @example
 * ```ts ignore
 * const receiver = await startLoopbackReceiver();
 * const provider = new StoreOAuthProvider(url, {
 *   store: new FileTokenStore(defaultTokenStorePath()),
 *   authorize: loopbackAuthorization(receiver, browserOpener()),
 * });
 * const result = await login(url, provider);
 * await receiver.close();
 * ```
 *
 * @param serverUrl The MCP server's URL.
 * @param provider A provider with an `authorize` handler using `options.receiver`.
 * @param options The fetch and signal.
 * @returns The issuer, scope and lifetime obtained.
 */
export async function login(
  serverUrl: string | URL,
  provider: StoreOAuthProvider,
  options: AuthorizeOptions = {},
): Promise<LoginResult> {
  const fetchFn = options.fetch ?? fetch;
  let challenge: { resourceMetadataUrl?: URL; scope?: string } = {};
  try {
    const response = await fetchFn(serverUrl, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 0,
        method: "initialize",
        params: {
          protocolVersion: "2025-11-25",
          capabilities: {},
          clientInfo: { name: "toolfoundation", version: "0" },
        },
      }),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
    await response.body?.cancel();
    if (response.status === 401) challenge = extractWWWAuthenticateParams(response);
  } catch (error) {
    throw new AuthError("auth_failed", `cannot reach ${serverUrl}: ${(error as Error).message}`, {
      cause: error,
      server: String(serverUrl),
    });
  }
  const entry = await provider.storedEntry();
  const scope = computeScopeUnion(challenge.scope, entry?.wantedScope);
  const saved = provider.savedTokens;
  await withAuthorization(serverUrl, provider, async () => {
    if (provider.savedTokens > saved) return; // the code was exchanged: logged in
    const result = await auth(provider, {
      serverUrl,
      ...(challenge.resourceMetadataUrl
        ? { resourceMetadataUrl: challenge.resourceMetadataUrl }
        : {}),
      ...(scope === undefined ? {} : { scope }),
      // A login asks anew even when a refresh token is stored.
      forceReauthorization: provider.grant === "authorization_code",
      fetchFn,
    });
    if (result !== "AUTHORIZED") throw new UnauthorizedError();
  }, options);
  const stored = await provider.storedEntry();
  const tokens = stored?.tokens;
  return {
    issuer: stored?.issuer ?? "",
    ...(tokens?.scope === undefined ? {} : { scope: tokens.scope }),
    refreshable: tokens?.refresh_token !== undefined,
    ...(tokens?.expires_in === undefined || stored?.obtainedAt === undefined
      ? {}
      : { expiresAt: stored.obtainedAt + tokens.expires_in * 1000 }),
  };
}

/**
 * The 2025-03-26 fallback: a server with no protected resource metadata
 * (RFC 9728) is its own authorization server, with metadata at its origin's
 * `/.well-known/oauth-authorization-server`. Such metadata may name an
 * issuer with a path (`https://host/oauth`), which the RFC 8414 issuer echo
 * check refuses. When (and only when) there is no resource metadata and the
 * named issuer has the server's own origin, this adopts that metadata as the
 * provider's discovery state (kept in the store) and returns true.
 *
 * @param serverUrl The MCP server's URL.
 * @param provider The provider to give the discovery state.
 * @param fetchFn The fetch to use.
 * @returns Whether the fallback applies (then retry).
 */
export async function legacyDiscovery(
  serverUrl: string | URL,
  provider: StoreOAuthProvider,
  fetchFn: FetchLike,
): Promise<boolean> {
  try {
    await discoverOAuthProtectedResourceMetadata(serverUrl, {}, fetchFn);
    return false; // it has resource metadata: no 2025-03-26 fallback
  } catch { /* none: the 2025-03-26 rules apply */ }
  const origin = new URL(serverUrl).origin;
  const metadata = await discoverAuthorizationServerMetadata(`${origin}/`, {
    fetchFn,
    skipIssuerValidation: true,
  }).catch(() => undefined);
  if (metadata?.issuer === undefined) return false;
  let issuerOrigin: string;
  try {
    issuerOrigin = new URL(metadata.issuer).origin;
  } catch {
    return false;
  }
  if (issuerOrigin !== origin) return false;
  await provider.adoptDiscovery({
    authorizationServerUrl: `${origin}/`,
    authorizationServerMetadata: metadata,
  }, metadata.issuer);
  return true;
}

/** Whether `error` (or its cause) comes from authorization (not the network or the server's tools). */
function isAuthFailure(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current !== undefined && current !== null && depth < 6; depth++) {
    if (
      current instanceof AuthError || current instanceof OAuthError ||
      current instanceof UnauthorizedError || current instanceof IssuerMismatchError ||
      current instanceof InsecureTokenEndpointError || current instanceof InsufficientScopeError ||
      (current instanceof SdkHttpError &&
        (current.code === SdkErrorCode.ClientHttpAuthentication ||
          current.code === SdkErrorCode.ClientHttpForbidden))
    ) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

function isIssuerMismatch(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current !== undefined && current !== null && depth < 6; depth++) {
    if (current instanceof IssuerMismatchError) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** Whether `error` (or its cause) is the SDK's "authorization needed" signal. */
export function isUnauthorized(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current !== undefined && current !== null && depth < 6; depth++) {
    if (current instanceof UnauthorizedError) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * `error` as an {@linkcode AuthError} (an AuthError found in its cause
 * chain is returned as is), its message scrubbed of what the provider has
 * seen (tokens, secrets, codes).
 */
export function toAuthError(error: unknown, provider: StoreOAuthProvider): AuthError {
  let current: unknown = error;
  for (let depth = 0; current !== undefined && current !== null && depth < 8; depth++) {
    if (current instanceof AuthError) return current;
    current = (current as { cause?: unknown }).cause;
  }
  const message = provider.scrub(String((error as Error)?.message ?? error));
  const cause = new Error(message);
  cause.name = (error as Error)?.name ?? "Error";
  return new AuthError(
    "auth_failed",
    `authorization with ${provider.server} failed: ${message}${dpopHint(error)}`,
    { cause, server: provider.server },
  );
}

/** What a DPoP error of the token endpoint means (RFC 9449 sections 5 and 8), or "". */
function dpopHint(error: unknown): string {
  let current: unknown = error;
  for (let depth = 0; current !== undefined && current !== null && depth < 8; depth++) {
    if (current instanceof OAuthError) {
      if (current.code === "use_dpop_nonce") {
        return " (use_dpop_nonce: the authorization server asked for a new DPoP nonce again " +
          "after the client had retried with the one it sent; it is misbehaving)";
      }
      if (current.code === "invalid_dpop_proof") {
        return " (invalid_dpop_proof: the authorization server refused the DPoP proof; " +
          "set auth.dpop: false to ask for bearer tokens)";
      }
      return ` (${current.code})`;
    }
    current = (current as { cause?: unknown }).cause;
  }
  return "";
}

/**
 * The {@linkcode AuthorizationHandler} of a login through `receiver`:
 * `open` shows the URL, the response is awaited on the receiver (one per
 * authorization, `state` checked, within `options.timeoutMs`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loopbackAuthorization, startLoopbackReceiver } from "@toolfoundation/core/run/auth";
 *
 * const receiver = await startLoopbackReceiver();
 * const handler = loopbackAuthorization(receiver, () => {});
 * assert.equal(handler.redirectUrl, receiver.redirectUrl);
 * await receiver.close();
 * ```
 *
 * @param receiver The running loopback receiver.
 * @param open Shows the authorization URL (a browser opener, or a scripted browser in tests).
 * @param options The deadline and cancellation of each wait.
 * @returns The handler to pass as `authorize` to the provider.
 */
export function loopbackAuthorization(
  receiver: LoopbackReceiver,
  open: (url: URL) => void | Promise<void>,
  options: LoopbackWaitOptions = {},
): AuthorizationHandler {
  return {
    redirectUrl: receiver.redirectUrl,
    open,
    receive: (state) => receiver.wait(state, options),
  };
}
