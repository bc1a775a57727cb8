/**
 * Where OAuth tokens and client registrations are kept: the
 * {@linkcode TokenStore} interface and its in-memory implementation. The
 * file implementation is in `file_token_store.ts`.
 *
 * @module
 */

/** Tokens as the token endpoint returned them (RFC 6749 section 5.1). */
export interface StoredTokens {
  /** The access token. */
  access_token: string;
  /** "Bearer", or "DPoP" for a token bound to the entry's DPoP key. */
  token_type: string;
  /** Lifetime in seconds from `obtainedAt`. */
  expires_in?: number;
  /** The scope granted. */
  scope?: string;
  /** The refresh token, when one was issued. */
  refresh_token?: string;
  /** An OpenID Connect ID token, when one was issued. */
  id_token?: string;
}

/** A client registration with an authorization server (pre-registered, CIMD or DCR). */
export interface StoredClient {
  /** The client ID (a URL for a client ID metadata document). */
  client_id: string;
  /** The client secret, for a confidential client. */
  client_secret?: string;
  /** How the client authenticates at the token endpoint. */
  token_endpoint_auth_method?: string;
  /** Other registration fields (RFC 7591 response). */
  [field: string]: unknown;
}

/**
 * The DPoP key pair of an entry (RFC 9449): the key its tokens are bound to,
 * kept so that a refreshed or reloaded token is presented with the same key.
 */
export interface StoredDpopKey {
  /** The JWS algorithm the key signs with (`ES256`, `ES384` or `ES512`). */
  alg: string;
  /** The private key as a JWK (`kty`, `crv`, `x`, `y`, `d`); `d` is a secret. */
  jwk: { kty: string; crv: string; x: string; y: string; d: string };
  /** The RFC 7638 SHA-256 thumbprint of the public key (the token's `cnf.jkt`). */
  jkt: string;
}

/** What is kept for one server and one authorization server (issuer). */
export interface AuthEntry {
  /** The MCP server's URL. */
  server: string;
  /** The authorization server's issuer. */
  issuer: string;
  /** The tokens, once obtained. */
  tokens?: StoredTokens;
  /** When the tokens were obtained (ms since the epoch). */
  obtainedAt?: number;
  /** The client registration used with this issuer. */
  client?: StoredClient;
  /** The DPoP key pair the tokens are bound to (made on the first DPoP token request). */
  dpop?: StoredDpopKey;
  /** A scope the server asked for that the stored tokens lack (a step-up that needs a login). */
  wantedScope?: string;
  /**
   * A discovery result to reuse instead of discovering (kept only for the
   * 2025-03-26 fallback, whose metadata fails the RFC 8414 issuer echo check).
   */
  discovery?: Record<string, unknown>;
  /** When the entry was last written (ms since the epoch). */
  updatedAt: number;
}

/**
 * Keeps one {@linkcode AuthEntry} per server and issuer. Implementations
 * must never log what they keep.
 */
export interface TokenStore {
  /**
   * Reads the entry of `server` and `issuer`; without `issuer`, the entry of
   * `server` written last.
   */
  get(server: string, issuer?: string): Promise<AuthEntry | undefined>;
  /** Writes (replaces) the entry of `entry.server` and `entry.issuer`. */
  set(entry: AuthEntry): Promise<void>;
  /** Deletes the entries of `server` (of one issuer, when given); returns how many were deleted. */
  delete(server: string, issuer?: string): Promise<number>;
  /** Every entry. */
  list(): Promise<AuthEntry[]>;
}

/**
 * The normalized key of a server URL: the URL without its fragment.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { serverKey } from "@toolfoundation/core/run/auth";
 *
 * assert.equal(serverKey("HTTPS://Mcp.Example/mcp#x"), "https://mcp.example/mcp");
 * ```
 *
 * @param url The server URL.
 * @returns The key entries are stored under.
 */
export function serverKey(url: string | URL): string {
  const u = new URL(url);
  u.hash = "";
  return u.href;
}

/** Picks the entry of `issuer`, or the newest one when `issuer` is undefined. */
export function pickEntry(
  entries: Iterable<AuthEntry>,
  issuer: string | undefined,
): AuthEntry | undefined {
  let best: AuthEntry | undefined;
  for (const entry of entries) {
    if (issuer !== undefined) {
      if (entry.issuer === issuer) return entry;
    } else if (best === undefined || entry.updatedAt >= best.updatedAt) {
      best = entry;
    }
  }
  return best;
}

/**
 * A {@linkcode TokenStore} in memory: for tests, services and the
 * conformance client; nothing outlives the process.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { MemoryTokenStore } from "@toolfoundation/core/run/auth";
 *
 * const store = new MemoryTokenStore();
 * await store.set({ server: "https://s.example/mcp", issuer: "https://as.example", updatedAt: 1 });
 * assert.equal((await store.get("https://s.example/mcp"))?.issuer, "https://as.example");
 * assert.equal(await store.delete("https://s.example/mcp"), 1);
 * assert.deepEqual(await store.list(), []);
 * ```
 */
export class MemoryTokenStore implements TokenStore {
  readonly #entries = new Map<string, Map<string, AuthEntry>>();

  /** {@inheritDoc TokenStore.get} */
  get(server: string, issuer?: string): Promise<AuthEntry | undefined> {
    const entry = pickEntry(this.#entries.get(server)?.values() ?? [], issuer);
    return Promise.resolve(entry === undefined ? undefined : structuredClone(entry));
  }

  /** {@inheritDoc TokenStore.set} */
  set(entry: AuthEntry): Promise<void> {
    let byIssuer = this.#entries.get(entry.server);
    if (byIssuer === undefined) this.#entries.set(entry.server, byIssuer = new Map());
    byIssuer.set(entry.issuer, structuredClone(entry));
    return Promise.resolve();
  }

  /** {@inheritDoc TokenStore.delete} */
  delete(server: string, issuer?: string): Promise<number> {
    const byIssuer = this.#entries.get(server);
    if (byIssuer === undefined) return Promise.resolve(0);
    if (issuer === undefined) {
      this.#entries.delete(server);
      return Promise.resolve(byIssuer.size);
    }
    return Promise.resolve(byIssuer.delete(issuer) ? 1 : 0);
  }

  /** {@inheritDoc TokenStore.list} */
  list(): Promise<AuthEntry[]> {
    return Promise.resolve(
      [...this.#entries.values()].flatMap((m) => [...m.values()]).map((e) => structuredClone(e)),
    );
  }
}
