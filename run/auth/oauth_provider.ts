/**
 * {@linkcode StoreOAuthProvider}: the MCP SDK's `OAuthClientProvider` backed
 * by a {@linkcode TokenStore}. Discovery, PKCE, dynamic registration, the
 * token requests, refresh, step-up and the issuer checks are the SDK's
 * (`auth()` and the transport); this class supplies what the SDK leaves to
 * the host: where tokens and registrations live, the client identity, the
 * grant, and what happens when a browser is needed.
 *
 * @module
 */

import {
  createPrivateKeyJwtAuth,
  type DpopSession,
  type OAuthClientInformationContext,
  type OAuthClientMetadata,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
  requestJwtAuthorizationGrant,
  type StoredOAuthClientInformation,
  type StoredOAuthTokens,
} from "@modelcontextprotocol/client";
import { AuthError } from "./auth_error.ts";
import { dpopKeySecrets, dpopSession, newDpopKey, pickDpopAlg } from "./_dpop.ts";
import type { AuthorizationCallback } from "./loopback.ts";
import type { AuthorizationHandler, OAuthClientSettings, OAuthGrant } from "./oauth_settings.ts";
import {
  type AuthEntry,
  serverKey,
  type StoredDpopKey,
  type StoredTokens,
  type TokenStore,
} from "./token_store.ts";

/** Options of {@linkcode StoreOAuthProvider}. */
export interface StoreOAuthProviderOptions {
  /** Where tokens and registrations are kept. */
  store: TokenStore;
  /** The client identity and grant. */
  settings?: OAuthClientSettings;
  /**
   * Present: a login may open a browser. Absent: when a login is needed the
   * flow stops with an {@linkcode AuthError} `auth_login_required` naming
   * `loginCommand` (never a browser).
   */
  authorize?: AuthorizationHandler;
  /** The command a user runs to log in, quoted in `auth_login_required` errors. */
  loginCommand?: string;
  /** How many authorization requests one provider makes at most (default 2: a login and one step-up). */
  maxAuthorizations?: number;
  /** The clock (ms since the epoch; default `Date.now`). */
  now?: () => number;
  /**
   * Receives every secret value the provider holds or obtains, once each, as
   * it appears: the configured client secret, private key and cross-app
   * tokens; a registered client secret; the PKCE `code_verifier`; the
   * authorization code; access, refresh and ID tokens; a JWT authorization
   * grant; the private part of a DPoP key. A host that prints or serves text scrubs these values from it.
   */
  onSecret?: (value: string) => void;
}

const LOOPBACK_PLACEHOLDER = "http://127.0.0.1/callback";

/**
 * An `OAuthClientProvider` for the MCP SDK whose tokens and client
 * registrations live in a {@linkcode TokenStore}, one entry per server and
 * issuer. Pass it as `authProvider` of the SDK's Streamable HTTP transport or
 * to {@linkcode login}. The members the SDK calls (`tokens`, `saveTokens`,
 * `clientInformation`, `redirectToAuthorization`, ...) are its
 * `OAuthClientProvider` interface and are not listed here.
 *
 * @example Client credentials, nothing interactive
 * ```ts
 * import assert from "node:assert/strict";
 * import { MemoryTokenStore, StoreOAuthProvider } from "@toolfoundation/core/run/auth";
 *
 * const provider = new StoreOAuthProvider("https://mcp.example/mcp", {
 *   store: new MemoryTokenStore(),
 *   settings: { grant: "client_credentials", clientId: "svc", clientSecret: "s3cr3t-value" },
 * });
 * assert.equal(provider.redirectUrl, undefined);
 * assert.equal((await provider.prepareTokenRequest())?.get("grant_type"), "client_credentials");
 * ```
 */
export class StoreOAuthProvider {
  /** The server's key in the store. */
  readonly server: string;
  /** The client ID metadata document URL (CIMD), when configured. */
  readonly clientMetadataUrl?: string;
  /**
   * Signs a `private_key_jwt` client assertion (set only for that method).
   *
   * @ignore
   */
  addClientAuthentication?: OAuthClientProvider["addClientAuthentication"];

  readonly #store: TokenStore;
  readonly #settings: OAuthClientSettings;
  readonly #authorize: AuthorizationHandler | undefined;
  readonly #loginCommand: string;
  readonly #maxAuthorizations: number;
  readonly #now: () => number;
  readonly #secrets = new Set<string>();
  readonly #onSecret: ((value: string) => void) | undefined;
  #codeVerifier: string | undefined;
  /**
   * The PKCE verifiers saved lately, newest last: requests refused at the same
   * time each start an authorization, so the one that opens the browser finds
   * its own by the URL's `code_challenge`.
   */
  #verifiers: string[] = [];
  /** The client registrations made by this provider, by client ID (the flow's is kept). */
  readonly #registered = new Map<string, AuthEntry["client"]>();
  #pendingState: string | undefined;
  /** The interactive authorization in progress (one at a time; see `redirectToAuthorization`). */
  #flow: AuthorizationFlow | undefined;
  #discovery: OAuthDiscoveryState | undefined;
  #authorizationServerUrl: string | undefined;
  #resourceUrl: string | undefined;
  #authorizations = 0;
  #saves = 0;
  /** The DPoP key and session of each issuer this provider signed for (one key per entry). */
  readonly #dpop = new Map<string, Promise<{ key: StoredDpopKey; session: DpopSession }>>();
  /** A jwt_bearer token request was prepared and no tokens came of it yet. */
  #assertionPending = false;
  /** The authorization server refused the assertion (the SDK's retry is not sent). */
  #assertionRefused = false;

  /**
   * Creates the provider.
   *
   * @param serverUrl The MCP server's URL (the protected resource).
   * @param options Store, settings and the interactive handler.
   */
  constructor(serverUrl: string | URL, options: StoreOAuthProviderOptions) {
    this.server = serverKey(serverUrl);
    this.#store = options.store;
    this.#settings = options.settings ?? {};
    this.#authorize = options.authorize;
    this.#loginCommand = options.loginCommand ?? "toolfoundation auth login <manifest> <server>";
    this.#maxAuthorizations = options.maxAuthorizations ?? 2;
    this.#now = options.now ?? Date.now;
    this.#onSecret = options.onSecret;
    const s = this.#settings;
    if (s.clientMetadataUrl !== undefined) this.clientMetadataUrl = s.clientMetadataUrl;
    for (
      const secret of [
        s.clientSecret,
        s.privateKey,
        s.crossApp?.idToken,
        s.crossApp?.idpClientSecret,
      ]
    ) {
      if (secret) this.#keep(secret);
    }
    if (s.tokenEndpointAuthMethod === "private_key_jwt") {
      if (!s.clientId || !s.privateKey) {
        throw new AuthError(
          "auth_failed",
          `private_key_jwt needs a client ID and a private key (server ${this.server})`,
          { server: this.server },
        );
      }
      this.addClientAuthentication = createPrivateKeyJwtAuth({
        issuer: s.clientId,
        subject: s.clientId,
        privateKey: s.privateKey,
        alg: s.signingAlgorithm ?? "ES256",
      });
    }
    if (s.grant === "jwt_bearer" && s.assertion === undefined) {
      throw new AuthError(
        "auth_failed",
        `grant jwt_bearer needs an assertion (auth.assertionEnv or auth.assertionFile; ` +
          `server ${this.server})`,
        { server: this.server },
      );
    }
    if ((s.grant ?? "authorization_code") !== "authorization_code" && !s.clientId) {
      throw new AuthError(
        "auth_failed",
        `grant ${s.grant} needs a pre-registered client ID (server ${this.server})`,
        { server: this.server },
      );
    }
  }

  /** The grant in use. */
  get grant(): OAuthGrant {
    return this.#settings.grant ?? "authorization_code";
  }

  /** The redirect URI; undefined for the non-interactive grants. */
  get redirectUrl(): string | undefined {
    if (this.grant !== "authorization_code") return undefined;
    // Without a browser the URI is never used, but auth() needs one to take the refresh path.
    return this.#authorize?.redirectUrl ?? LOOPBACK_PLACEHOLDER;
  }

  /**
   * The metadata of this client (dynamic registration and the CIMD fallback scope).
   *
   * @ignore
   */
  get clientMetadata(): OAuthClientMetadata {
    const s = this.#settings;
    const interactive = this.grant === "authorization_code";
    return {
      client_name: s.clientName ?? "toolfoundation",
      redirect_uris: interactive ? [this.redirectUrl!] : [],
      grant_types: interactive
        ? ["authorization_code", "refresh_token"]
        : this.grant === "client_credentials"
        ? ["client_credentials"]
        : ["urn:ietf:params:oauth:grant-type:jwt-bearer"],
      response_types: interactive ? ["code"] : [],
      ...(s.tokenEndpointAuthMethod
        ? { token_endpoint_auth_method: s.tokenEndpointAuthMethod }
        : {}),
      ...(s.scopes?.length ? { scope: s.scopes.join(" ") } : {}),
    };
  }

  /** A fresh random `state` for each authorization request. */
  state(): string {
    this.#pendingState = randomToken();
    return this.#pendingState;
  }

  /**
   * The authorization response awaited since the browser was sent to the
   * authorization server (undefined when no authorization is in progress).
   * Every caller gets the same response until the authorization ends.
   */
  takePendingAuthorization(): Promise<AuthorizationCallback> | undefined {
    return this.#flow?.callback;
  }

  /**
   * Exchanges the code of the authorization in progress with `exchange`,
   * once however many callers ask (requests refused at the same time all
   * wait for the same login); the authorization ends when the exchange
   * settles, so a later refusal (a step-up) starts a new one.
   *
   * @param exchange Exchanges the code (the SDK's `auth()` with `authorizationCode`).
   * @returns The exchange, or undefined when no authorization is in progress.
   */
  finishPendingAuthorization(
    exchange: (callback: AuthorizationCallback) => Promise<void>,
  ): Promise<void> | undefined {
    const flow = this.#flow;
    if (flow === undefined) return undefined;
    flow.exchange ??= flow.callback.then(exchange).finally(() => this.#endFlow(flow));
    return flow.exchange;
  }

  #endFlow(flow: AuthorizationFlow): void {
    if (this.#flow !== flow) return;
    this.#flow = undefined;
    this.#pendingState = undefined;
  }

  /**
   * The stored or configured client registration for the issuer.
   *
   * @ignore
   */
  async clientInformation(
    ctx?: OAuthClientInformationContext,
  ): Promise<StoredOAuthClientInformation | undefined> {
    const s = this.#settings;
    this.#checkIssuer(ctx?.issuer);
    const entry = await this.#entry(ctx?.issuer);
    if (
      this.grant === "authorization_code" && this.#authorize === undefined &&
      entry?.tokens?.refresh_token === undefined
    ) {
      throw this.#loginRequired(
        entry?.tokens ? "its access token is no longer accepted" : "no login is stored",
      );
    }
    if (s.clientId !== undefined) {
      return {
        client_id: s.clientId,
        ...(s.clientSecret !== undefined ? { client_secret: s.clientSecret } : {}),
        ...(s.tokenEndpointAuthMethod && s.tokenEndpointAuthMethod !== "private_key_jwt"
          ? { token_endpoint_auth_method: s.tokenEndpointAuthMethod }
          : {}),
        // Bound to the issuer on first use (the SDK compares the stamp on every read).
        ...((entry?.issuer || s.issuer || ctx?.issuer)
          ? { issuer: entry?.issuer || s.issuer || ctx?.issuer }
          : {}),
      };
    }
    // The registration the authorization in progress was made with (a request refused
    // at the same time may have registered another one since).
    const flowClient = this.#flow?.client;
    if (flowClient !== undefined) {
      return {
        ...flowClient,
        issuer: entry?.issuer ?? ctx?.issuer,
      } as StoredOAuthClientInformation;
    }
    if (entry?.client === undefined) return undefined;
    if (typeof entry.client.client_secret === "string") {
      this.#keep(entry.client.client_secret);
    }
    return { ...entry.client, issuer: entry.issuer } as StoredOAuthClientInformation;
  }

  /**
   * Keeps a registration (dynamic, CIMD, or the issuer stamp of a configured one).
   *
   * @ignore
   */
  async saveClientInformation(
    info: StoredOAuthClientInformation,
    ctx?: OAuthClientInformationContext,
  ): Promise<void> {
    const issuer = ctx?.issuer ?? info.issuer;
    this.#checkIssuer(issuer);
    const { issuer: _drop, ...client } = info as StoredOAuthClientInformation & { issuer?: string };
    if (typeof client.client_secret === "string") this.#keep(client.client_secret);
    this.#registered.set(client.client_id, client as AuthEntry["client"]);
    await this.#update(issuer, (entry) => ({ ...entry, client: client as AuthEntry["client"] }));
  }

  /**
   * The stored tokens for the issuer; without one, the server's newest tokens.
   *
   * @ignore
   */
  async tokens(ctx?: OAuthClientInformationContext): Promise<StoredOAuthTokens | undefined> {
    const entry = await this.#entry(ctx?.issuer);
    if (entry?.tokens === undefined) return undefined;
    this.#remember(entry.tokens);
    return { ...entry.tokens, issuer: entry.issuer } as StoredOAuthTokens;
  }

  /**
   * Stores new tokens (a refresh without a new refresh token keeps the old one).
   *
   * @ignore
   */
  async saveTokens(tokens: StoredOAuthTokens, ctx?: OAuthClientInformationContext): Promise<void> {
    const issuer = ctx?.issuer ?? tokens.issuer;
    this.#checkIssuer(issuer);
    const { issuer: _drop, ...fresh } = tokens as StoredOAuthTokens & { issuer?: string };
    this.#remember(fresh as StoredTokens);
    const signed = issuer === undefined ? undefined : await this.#dpop.get(issuer);
    this.#checkTokenType(fresh.token_type, signed !== undefined, issuer);
    this.#saves++;
    // Tokens after the browser step: that authorization is over (whoever exchanged its code).
    const flow = this.#flow;
    const client = flow?.answered ? flow.client : undefined;
    if (flow?.answered) this.#endFlow(flow);
    this.#assertionPending = false;
    this.#assertionRefused = false;
    await this.#update(issuer, (entry) => {
      const kept = entry.tokens?.refresh_token;
      const next: StoredTokens = {
        ...(fresh as StoredTokens),
        ...(fresh.refresh_token === undefined && kept !== undefined ? { refresh_token: kept } : {}),
      };
      const wanted = entry.wantedScope !== undefined && !covers(next.scope, entry.wantedScope)
        ? entry.wantedScope
        : undefined;
      const { wantedScope: _w, ...rest } = entry;
      return {
        ...rest,
        // The tokens belong to the registration the authorization was made with.
        ...(client === undefined ? {} : { client }),
        tokens: next,
        obtainedAt: this.#now(),
        // The key the token request was signed with: the token (or its refresh token) is bound to it.
        ...(signed === undefined ? {} : { dpop: signed.key }),
        ...(wanted === undefined ? {} : { wantedScope: wanted }),
      };
    });
  }

  /**
   * Opens the authorization URL, or stops with `auth_login_required` when no
   * browser may be used. While an authorization is in progress (the browser
   * step or its code exchange), a request refused at the same time joins it
   * instead: no second browser, no second wait on the loopback receiver, no
   * second PKCE verifier, not counted against `maxAuthorizations` (its
   * request fails as unauthorized and is retried after the one login).
   */
  async redirectToAuthorization(url: URL): Promise<void> {
    if (this.#authorize === undefined) {
      const scope = url.searchParams.get("scope") ?? undefined;
      if (scope !== undefined) {
        await this.#update(undefined, (entry) => ({ ...entry, wantedScope: scope }));
      }
      this.#pendingState = undefined;
      throw this.#loginRequired(
        scope === undefined ? "it needs a new authorization" : `it asks for scope "${scope}"`,
      );
    }
    if (this.#flow !== undefined && !this.#flow.failed) return;
    this.#authorizations++;
    if (this.#authorizations > this.#maxAuthorizations) {
      this.#pendingState = undefined;
      throw new AuthError(
        "auth_failed",
        `server ${this.server} asked for authorization ${this.#authorizations} times in one ` +
          `session (limit ${this.#maxAuthorizations}); it keeps refusing the granted scope ` +
          `(403 insufficient_scope): check the scopes your account may have`,
        { server: this.server },
      );
    }
    const state = url.searchParams.get("state") ?? this.#pendingState ?? "";
    const callback = this.#authorize.receive(state);
    const flow: AuthorizationFlow = {
      callback,
      verifier: undefined,
      client: this.#registered.get(url.searchParams.get("client_id") ?? ""),
      answered: false,
      failed: false,
      exchange: undefined,
    };
    this.#flow = flow;
    // Observed through takePendingAuthorization / finishPendingAuthorization (which
    // report a failed browser step: timeout, refusal, forged state); the next refusal
    // after such a failure starts a new authorization instead of joining it.
    callback.then(() => (flow.answered = true), () => (flow.failed = true));
    try {
      flow.verifier = await this.#verifierOf(url);
      await this.#authorize.open(url);
    } catch (error) {
      this.#endFlow(flow);
      throw error;
    }
  }

  /** Keeps the PKCE verifier of the authorization being started (memory only). */
  saveCodeVerifier(codeVerifier: string): void {
    this.#codeVerifier = codeVerifier;
    this.#verifiers = [...this.#verifiers.slice(-7), codeVerifier];
    this.#keep(codeVerifier);
  }

  /** The saved verifier whose S256 challenge the authorization URL carries (else the last saved). */
  async #verifierOf(url: URL): Promise<string | undefined> {
    const challenge = url.searchParams.get("code_challenge");
    if (challenge !== null) {
      for (const verifier of [...this.#verifiers].reverse()) {
        if (await s256(verifier) === challenge) return verifier;
      }
    }
    return this.#codeVerifier;
  }

  /** The PKCE verifier of the authorization in progress (its own, whoever joined it since). */
  codeVerifier(): string {
    const flowVerifier = this.#flow?.verifier;
    if (flowVerifier !== undefined) return flowVerifier;
    if (this.#codeVerifier === undefined) {
      throw new AuthError("auth_failed", "no authorization is in progress (no PKCE verifier)", {
        server: this.server,
      });
    }
    return this.#codeVerifier;
  }

  /**
   * Keeps the discovery result for this provider's lifetime.
   *
   * @ignore
   */
  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.#discovery = state;
  }

  /**
   * The discovery result kept by {@linkcode StoreOAuthProvider.saveDiscoveryState} or in the store.
   *
   * @ignore
   */
  async discoveryState(): Promise<OAuthDiscoveryState | undefined> {
    if (this.#discovery !== undefined) return this.#discovery;
    const stored = (await this.#entry(undefined))?.discovery;
    return stored === undefined ? undefined : stored as unknown as OAuthDiscoveryState;
  }

  /**
   * Uses `state` instead of discovery from now on, and keeps it in the store
   * under `issuer` (the 2025-03-26 fallback; see {@linkcode legacyDiscovery}).
   *
   * @ignore
   */
  async adoptDiscovery(state: OAuthDiscoveryState, issuer: string): Promise<void> {
    this.#discovery = state;
    await this.#update(issuer, (entry) => ({
      ...entry,
      discovery: structuredClone(state) as unknown as Record<string, unknown>,
    }));
  }

  /** Forgets what the server said is no longer valid. */
  async invalidateCredentials(
    scope: "all" | "client" | "tokens" | "verifier" | "discovery",
  ): Promise<void> {
    if (this.#assertionPending && scope !== "verifier" && scope !== "discovery") {
      // The SDK is about to retry a refused token request: the same assertion
      // would be refused again (RFC 7523 errors are final for that assertion).
      this.#assertionPending = false;
      this.#assertionRefused = true;
    }
    if (scope === "verifier" || scope === "all") {
      this.#codeVerifier = undefined;
      if (this.#flow !== undefined) this.#endFlow(this.#flow);
    }
    // A DPoP key goes with the tokens bound to it: the next login makes a new one.
    if (scope === "tokens" || scope === "client" || scope === "all") this.#dpop.clear();
    // "discovery" (a refused access token): discover the authorization server anew, in
    // case the server moved to another one. A stored 2025-03-26 fallback stays: such a
    // server is its own authorization server (it has no resource metadata to change).
    if (scope === "discovery" || scope === "all") this.#discovery = undefined;
    if (scope === "all") {
      await this.#store.delete(this.server);
      return;
    }
    if (scope === "tokens" || scope === "client") {
      for (const entry of (await this.#store.list()).filter((e) => e.server === this.server)) {
        const { tokens: _t, obtainedAt: _o, client, dpop: _k, ...rest } = entry;
        await this.#store.set({
          ...rest,
          ...(scope === "tokens" && client !== undefined ? { client } : {}),
          updatedAt: this.#now(),
        });
      }
    }
  }

  /**
   * The DPoP session (RFC 9449) of the current authorization server, or
   * undefined when DPoP is not used: the SDK signs a proof into every token
   * request with it, and presents a `token_type: DPoP` access token as
   * `Authorization: DPoP` with a fresh proof per request (answering one
   * `use_dpop_nonce` challenge of the authorization or the MCP server each
   * time). The key is the entry's stored one, else a new one that
   * {@linkcode StoreOAuthProvider.saveTokens} stores with the tokens.
   *
   * @ignore
   */
  dpop(): Promise<DpopSession | undefined> {
    return this.#dpopFor().then((d) => d?.session);
  }

  async #dpopFor(): Promise<{ key: StoredDpopKey; session: DpopSession } | undefined> {
    const setting = this.#settings.dpop;
    if (setting === false) return undefined;
    const issuer = this.#authorizationServerUrl ?? (await this.#entry(undefined))?.issuer;
    if (issuer === undefined) return undefined;
    const known = this.#dpop.get(issuer);
    if (known !== undefined) return known;
    const stored = (await this.#entry(issuer))?.dpop;
    let alg: string | undefined;
    if (stored === undefined) {
      const metadata = this.#discovery?.authorizationServerMetadata as
        | Record<string, unknown>
        | undefined;
      const advertised = metadata?.dpop_signing_alg_values_supported;
      alg = pickDpopAlg(advertised);
      if (alg === undefined && setting === true) {
        if (Array.isArray(advertised) && advertised.length > 0) {
          throw new AuthError(
            "auth_failed",
            `authorization server ${issuer} signs DPoP proofs only with ` +
              `${advertised.join(", ")}; this client signs with ES256, ES384 or ES512 ` +
              `(set auth.dpop: false to use bearer tokens)`,
            { server: this.server },
          );
        }
        alg = "ES256";
      }
      if (alg === undefined) return undefined;
    }
    if (this.#dpop.has(issuer)) return this.#dpop.get(issuer);
    const made = (async () => {
      const key = stored ?? await newDpopKey(alg!);
      for (const secret of dpopKeySecrets(key)) this.#keep(secret);
      return { key, session: await dpopSession(key, this.server) };
    })();
    this.#dpop.set(issuer, made);
    made.catch(() => this.#dpop.delete(issuer));
    return made;
  }

  /** Refuses a token this client cannot present (RFC 6749 section 7.1; RFC 9449 section 5). */
  #checkTokenType(type: string | undefined, signed: boolean, issuer: string | undefined): void {
    const kind = (type ?? "").toLowerCase();
    if (kind === "bearer" || (kind === "dpop" && signed)) return;
    const from = `authorization server ${issuer ?? "(unknown)"} (server ${this.server})`;
    throw new AuthError(
      "auth_failed",
      kind === "dpop"
        ? `${from} issued a DPoP-bound token (token_type DPoP) although this client sent no ` +
          `DPoP proof, so no key of this client can present it; nothing was stored ` +
          `(set auth.dpop: true if the server requires DPoP)`
        : `${from} issued a token of type ${JSON.stringify(type ?? "")}; this client presents ` +
          `only Bearer and DPoP tokens and must not use a token type it does not understand ` +
          `(RFC 6749 section 7.1); nothing was stored`,
      { server: this.server },
    );
  }

  /** Records the issuer (the cross-app access grant names it as the audience). */
  saveAuthorizationServerUrl(url: string): void {
    this.#authorizationServerUrl = url;
  }

  /** Records the resource indicator the SDK selected. */
  saveResourceUrl(url: string): void {
    this.#resourceUrl = url;
  }

  /** The grant's parameters of a token request; undefined for the authorization code grant. */
  prepareTokenRequest(
    scope?: string,
  ): Promise<URLSearchParams | undefined> | URLSearchParams | undefined {
    if (this.grant === "client_credentials") {
      const params = new URLSearchParams({ grant_type: "client_credentials" });
      if (scope) params.set("scope", scope);
      return params;
    }
    if (this.grant === "cross_app_access") return this.#jwtBearerRequest(scope);
    if (this.grant === "jwt_bearer") return this.#assertionRequest(scope);
    return undefined;
  }

  /** The authorization server in use (its issuer), once discovered. */
  get authorizationServer(): string | undefined {
    return this.#authorizationServerUrl;
  }

  /**
   * Replaces every token, secret and code this provider has seen in `text`
   * with `***` (for error messages that quote a server's answer).
   */
  scrub(text: string): string {
    let out = text;
    for (const secret of [...this.#secrets].sort((a, b) => b.length - a.length)) {
      if (secret.length >= 4) out = out.split(secret).join("***");
    }
    return out;
  }

  /** How many times this provider has saved tokens (a login watches it). */
  get savedTokens(): number {
    return this.#saves;
  }

  /** The store's entry for this server (the newest issuer); for status and login reports. */
  storedEntry(): Promise<AuthEntry | undefined> {
    return this.#entry(undefined);
  }

  /** Adds a value (an authorization code) to what {@linkcode StoreOAuthProvider.scrub} removes. */
  rememberSecret(value: string): void {
    if (value) this.#keep(value);
  }

  /** The RFC 7523 token request of a ready assertion (workload identity federation). */
  async #assertionRequest(scope?: string): Promise<URLSearchParams> {
    const issuer = this.#authorizationServerUrl ?? "the authorization server";
    if (this.#assertionRefused) {
      this.#assertionRefused = false;
      throw new AuthError(
        "auth_failed",
        `${issuer} refused the JWT-bearer assertion for server ${this.server} (its answer is ` +
          `in the warning above); not retried: check that the assertion is current, that its ` +
          `audience is ${issuer}, and that client ${this.#settings.clientId} may use the ` +
          `jwt-bearer grant there`,
        { server: this.server },
      );
    }
    let assertion: string;
    try {
      assertion = (await this.#settings.assertion!()).trim();
    } catch (error) {
      throw new AuthError(
        "auth_failed",
        `cannot read the JWT-bearer assertion of server ${this.server}: ${
          (error as Error)?.message ?? error
        }`,
        { server: this.server, cause: error },
      );
    }
    if (assertion === "") {
      throw new AuthError(
        "auth_failed",
        `the JWT-bearer assertion of server ${this.server} is empty ` +
          `(auth.assertionEnv or auth.assertionFile)`,
        { server: this.server },
      );
    }
    this.#keep(assertion);
    this.#assertionPending = true;
    const params = new URLSearchParams({
      grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer",
      assertion,
    });
    if (scope) params.set("scope", scope);
    return params;
  }

  async #jwtBearerRequest(scope?: string): Promise<URLSearchParams> {
    const idp = this.#settings.crossApp;
    if (idp === undefined) {
      throw new AuthError("auth_failed", `grant cross_app_access needs its crossApp IdP settings`, {
        server: this.server,
      });
    }
    if (this.#authorizationServerUrl === undefined || this.#resourceUrl === undefined) {
      throw new AuthError(
        "auth_failed",
        `cross-app access needs the server's protected resource metadata (RFC 9728); ` +
          `${this.server} did not provide it`,
        { server: this.server },
      );
    }
    const grant = await requestJwtAuthorizationGrant({
      tokenEndpoint: idp.idpTokenEndpoint,
      audience: this.#authorizationServerUrl,
      resource: this.#resourceUrl,
      idToken: idp.idToken,
      clientId: idp.idpClientId,
      ...(idp.idpClientSecret ? { clientSecret: idp.idpClientSecret } : {}),
      ...(scope ? { scope } : {}),
    });
    this.#keep(grant.jwtAuthGrant);
    const params = new URLSearchParams({
      grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer",
      assertion: grant.jwtAuthGrant,
    });
    if (scope) params.set("scope", scope);
    return params;
  }

  #checkIssuer(issuer: string | undefined): void {
    const expected = this.#settings.issuer;
    if (expected !== undefined && issuer !== undefined && issuer !== expected) {
      throw new AuthError(
        "auth_failed",
        `server ${this.server} names authorization server ${issuer}, but its auth settings ` +
          `expect issuer ${expected}; nothing was sent to it (fix auth.issuer if the server moved)`,
        { server: this.server },
      );
    }
  }

  #loginRequired(reason: string): AuthError {
    return new AuthError(
      "auth_login_required",
      `server ${this.server} needs a login (${reason}); run: ${this.#loginCommand}`,
      { server: this.server },
    );
  }

  #remember(tokens: StoredTokens): void {
    for (const value of [tokens.access_token, tokens.refresh_token, tokens.id_token]) {
      if (value) this.#keep(value);
    }
  }

  /** Remembers a secret for {@linkcode StoreOAuthProvider.scrub} and tells `onSecret` (once). */
  #keep(value: string): void {
    if (this.#secrets.has(value)) return;
    this.#secrets.add(value);
    this.#onSecret?.(value);
  }

  #entry(issuer: string | undefined): Promise<AuthEntry | undefined> {
    return this.#store.get(this.server, issuer);
  }

  async #update(
    issuer: string | undefined,
    change: (entry: AuthEntry) => AuthEntry,
  ): Promise<void> {
    const current = await this.#entry(issuer);
    const key = issuer ?? current?.issuer ?? this.#settings.issuer ?? "";
    const base: AuthEntry = current?.issuer === key
      ? current
      : { server: this.server, issuer: key, updatedAt: 0 };
    await this.#store.set({
      ...change(base),
      server: this.server,
      issuer: key,
      updatedAt: this.#now(),
    });
  }
}

/** An interactive authorization: its browser step, PKCE verifier and code exchange. */
interface AuthorizationFlow {
  /** The authorization response on the loopback receiver. */
  callback: Promise<AuthorizationCallback>;
  /** The PKCE verifier its authorization URL was made with. */
  verifier: string | undefined;
  /** The registration its authorization URL names, when this provider made it. */
  client: AuthEntry["client"] | undefined;
  /** The browser step is done (the response came). */
  answered: boolean;
  /** The browser step failed (no code will come). */
  failed: boolean;
  /** The code exchange, once someone started it. */
  exchange: Promise<void> | undefined;
}

/** Whether the space-separated scope `granted` includes every scope of `wanted`. */
function covers(granted: string | undefined, wanted: string): boolean {
  const have = new Set((granted ?? "").split(" ").filter(Boolean));
  return wanted.split(" ").filter(Boolean).every((s) => have.has(s));
}

/** The PKCE S256 challenge of a verifier (RFC 7636): base64url of its SHA-256. */
async function s256(verifier: string): Promise<string> {
  const digest = new Uint8Array(
    await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier)),
  );
  return btoa(String.fromCharCode(...digest)).replaceAll("+", "-").replaceAll("/", "_")
    .replace(/=+$/, "");
}

/** 32 random bytes, base64url. */
function randomToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return btoa(String.fromCharCode(...bytes)).replaceAll("+", "-").replaceAll("/", "_")
    .replace(/=+$/, "");
}
