// Private: what a Streamable HTTP (or SSE) connection with an OAuth provider
// does when the MCP server refuses its access token with 401, around the
// SDK's own handling (which runs the provider's `auth()` and sends the
// request once more).
//
// - A refused token makes the provider forget the discovery it kept
//   (`invalidateCredentials("discovery")`, as the SDK asks hosts to do): the
//   authorization that follows reads the server's protected resource metadata
//   again, so a server that moved to another authorization server is followed
//   there (registered anew, a new token) instead of asking the old one.
// - A token obtained after a refusal that the server refuses again ends the
//   request with an `AuthError` naming the authorization server that issued
//   it: no third try, no loop.
// - `use_dpop_nonce` challenges are the DPoP layer's (RFC 9449): not refusals.

import { AuthError } from "../auth/auth_error.ts";

type Fetch = (url: string | URL, init?: RequestInit) => Promise<Response>;

/** The provider members used here (the SDK's `OAuthClientProvider`, all optional). */
interface CredentialsProvider {
  invalidateCredentials?(scope: "discovery"): void | Promise<void>;
  discoveryState?(): unknown;
  scrub?(text: string): string;
}

/** The value of a `Bearer` or `DPoP` Authorization header, if any. */
function presentedToken(headers: HeadersInit | undefined): string | undefined {
  const value = new Headers(headers).get("authorization");
  const match = value === null ? null : /^(?:Bearer|DPoP)\s+(\S+)$/i.exec(value);
  return match?.[1];
}

/** Whether a 401 is a DPoP nonce challenge (not a refused token). */
function isNonceChallenge(response: Response): boolean {
  return /error\s*=\s*"?use_dpop_nonce/i.test(response.headers.get("www-authenticate") ?? "");
}

/** The issuer (else URL) of the authorization server in a provider's discovery state. */
async function issuerOf(provider: CredentialsProvider): Promise<string | undefined> {
  const state = await provider.discoveryState?.() as {
    authorizationServerUrl?: string;
    authorizationServerMetadata?: { issuer?: string };
  } | undefined;
  return state?.authorizationServerMetadata?.issuer ?? state?.authorizationServerUrl;
}

/**
 * Wraps the fetch of a connection to `serverUrl` whose auth provider is
 * `provider` (unchanged when the provider is not an OAuth client provider).
 */
export function watchCredentials(fetch: Fetch, provider: unknown, serverUrl: string): Fetch {
  const p = provider as CredentialsProvider | undefined;
  if (typeof p?.invalidateCredentials !== "function") return fetch;
  const origin = new URL(serverUrl).origin;
  /** Tokens the server refused. */
  const refusedTokens = new Set<string>();
  /** Tokens first presented after a refusal and not yet accepted. */
  const fresh = new Set<string>();
  /** A 401 came and no new token has been presented since. */
  let refused = false;
  return async (url, init) => {
    const target = new URL(String(url));
    const contentType = new Headers(init?.headers).get("content-type") ?? "";
    // Only the MCP server's own requests; a token request (a form) is the SDK's business.
    if (target.origin !== origin || contentType.includes("x-www-form-urlencoded")) {
      return await fetch(url, init);
    }
    const token = presentedToken(init?.headers);
    if (token !== undefined && refused && !refusedTokens.has(token)) {
      fresh.add(token);
      refused = false;
    }
    const response = await fetch(url, init);
    if (response.status !== 401) {
      if (token !== undefined && response.ok) fresh.delete(token);
      return response;
    }
    if (isNonceChallenge(response)) return response;
    refused = true;
    if (token === undefined) return response;
    if (fresh.has(token)) {
      const challenge = response.headers.get("www-authenticate") ?? "";
      await response.body?.cancel().catch(() => undefined);
      const issuer = await issuerOf(p) ?? "its authorization server";
      const said = p.scrub?.(challenge.slice(0, 300)) ?? challenge.slice(0, 300);
      throw new AuthError(
        "auth_failed",
        `MCP server ${serverUrl} refused (HTTP 401) the access token authorization server ` +
          `${issuer} issued just now, after it had refused the previous one; not authorizing ` +
          `again. Its protected resource metadata names ${issuer}, yet it does not accept that ` +
          `server's tokens: check the server's authorization configuration (and auth.issuer)`,
        {
          server: serverUrl,
          cause: new Error(`HTTP 401${said === "" ? "" : `, WWW-Authenticate: ${said}`}`),
        },
      );
    }
    refusedTokens.add(token);
    await p.invalidateCredentials!("discovery");
    return response;
  };
}
