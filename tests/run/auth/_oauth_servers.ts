// Private test fixture: an OAuth authorization server and an MCP server it protects, both on
// 127.0.0.1 (random ports), written by hand with Deno.serve. The MCP server answers
// initialize, tools/list and tools/call (tool "whoami") as JSON; every fault is a switch.

export interface OAuthFixtureOptions {
  /** Scopes in the protected resource metadata (default ["read"]). */
  scopesSupported?: string[];
  /** Scopes the authorization server lists (default: scopesSupported + offline_access). */
  asScopes?: string[];
  /** Access token lifetime in seconds (default 3600). */
  expiresIn?: number;
  /** tools/call needs this scope (403 insufficient_scope otherwise). */
  callScope?: string;
  /** tools/call always answers 403 insufficient_scope (a server that never accepts). */
  always403?: boolean;
  /**
   * The token endpoint answers garbage (200, not JSON) or 500, or (`echo`) refuses
   * with an error description quoting the request's Authorization header and
   * form (client secret, code, `code_verifier`).
   */
  tokenFault?: "garbage" | "500" | "echo";
  /** Pre-registered clients (client_id -> secret); DCR stays available. */
  clients?: Record<string, string>;
  /** A careless server: `whoami` answers with the bearer token it got (as is and base64). */
  echoSecrets?: boolean;
}

export interface RecordedRequest {
  path: string;
  params: Record<string, string>;
  authorization?: string;
}

export interface OAuthFixture {
  /** The MCP server's URL (`.../mcp`). */
  mcpUrl: string;
  /** The authorization server's issuer. */
  issuer: string;
  /** Requests the authorization server received (authorize, token, register). */
  requests: RecordedRequest[];
  /** The headers of every request the authorization server received, metadata included. */
  asHeaders: Record<string, string>[];
  /** Every access token issued. */
  issued: string[];
  /** Every refresh token issued. */
  refreshTokens: string[];
  /** Codes issued. */
  codes: string[];
  /** Makes the MCP server refuse every token issued so far (they "expired"). */
  expireAll(): void;
  /** Changes options while running. */
  options: OAuthFixtureOptions;
  close(): Promise<void>;
}

interface Grant {
  clientId: string;
  challenge: string;
  redirectUri: string;
  scope: string;
  resource?: string;
}

function b64url(bytes: ArrayBuffer): string {
  return btoa(String.fromCharCode(...new Uint8Array(bytes))).replaceAll("+", "-")
    .replaceAll("/", "_").replace(/=+$/, "");
}

function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });
}

export function startOAuthFixture(options: OAuthFixtureOptions = {}): Promise<OAuthFixture> {
  const requests: RecordedRequest[] = [];
  const issued: string[] = [];
  const refreshTokens: string[] = [];
  const codes: string[] = [];
  const grants = new Map<string, Grant>();
  const refreshGrants = new Map<string, { clientId: string; scope: string }>();
  const valid = new Map<string, string>(); // access token -> scope
  const clients = new Map<string, string | undefined>(Object.entries(options.clients ?? {}));
  let counter = 0;
  const next = (kind: string) => `${kind}-${crypto.randomUUID()}-${++counter}`;

  let issuer = "";
  const asHeaders: Record<string, string>[] = [];
  const as: Deno.HttpServer = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    async (req): Promise<Response> => {
      const url = new URL(req.url);
      asHeaders.push(Object.fromEntries(req.headers));
      if (url.pathname === "/.well-known/oauth-authorization-server") {
        return json({
          issuer,
          authorization_endpoint: `${issuer}/authorize`,
          token_endpoint: `${issuer}/token`,
          registration_endpoint: `${issuer}/register`,
          response_types_supported: ["code"],
          grant_types_supported: ["authorization_code", "refresh_token", "client_credentials"],
          code_challenge_methods_supported: ["S256"],
          token_endpoint_auth_methods_supported: [
            "client_secret_basic",
            "client_secret_post",
            "none",
          ],
          scopes_supported: options.asScopes ??
            [...(options.scopesSupported ?? ["read"]), "offline_access"],
        });
      }
      const params: Record<string, string> = {};
      if (req.method === "GET") url.searchParams.forEach((v, k) => (params[k] = v));
      else if (req.headers.get("content-type")?.includes("json")) {
        Object.assign(params, await req.json());
      } else {
        new URLSearchParams(await req.text()).forEach((v, k) => (params[k] = v));
      }
      const authorization = req.headers.get("authorization") ?? undefined;
      requests.push({ path: url.pathname, params, ...(authorization ? { authorization } : {}) });
      if (url.pathname === "/register") {
        const id = next("client");
        clients.set(id, undefined);
        return json({ ...params, client_id: id, token_endpoint_auth_method: "none" }, 201);
      }
      if (url.pathname === "/authorize") {
        if (params.code_challenge_method !== "S256" || !params.code_challenge) {
          return new Response("PKCE S256 required", { status: 400 });
        }
        if (!clients.has(params.client_id)) return new Response("unknown client", { status: 400 });
        const code = next("code");
        codes.push(code);
        grants.set(code, {
          clientId: params.client_id,
          challenge: params.code_challenge,
          redirectUri: params.redirect_uri,
          scope: params.scope ?? "",
          ...(params.resource ? { resource: params.resource } : {}),
        });
        const back = new URL(params.redirect_uri);
        back.searchParams.set("code", code);
        if (params.state) back.searchParams.set("state", params.state);
        back.searchParams.set("iss", issuer);
        return new Response(null, { status: 302, headers: { location: back.href } });
      }
      if (url.pathname === "/token") {
        if (options.tokenFault === "500") return new Response("internal error", { status: 500 });
        if (options.tokenFault === "echo") {
          return json({
            error: "invalid_grant",
            error_description: `refused: ${authorization} ${new URLSearchParams(params)}`,
          }, 400);
        }
        if (options.tokenFault === "garbage") {
          return new Response("<html>not json", {
            status: 200,
            headers: { "content-type": "text/html" },
          });
        }
        let clientId = params.client_id;
        if (authorization?.startsWith("Basic ")) {
          const [id, secret] = atob(authorization.slice(6)).split(":").map(decodeURIComponent);
          if (clients.get(id) !== secret) return json({ error: "invalid_client" }, 401);
          clientId = id;
        } else if (
          clients.get(clientId) !== undefined && clients.get(clientId) !== params.client_secret
        ) {
          return json({ error: "invalid_client" }, 401);
        }
        let scope: string;
        if (params.grant_type === "authorization_code") {
          const grant = grants.get(params.code);
          grants.delete(params.code);
          if (grant === undefined || grant.clientId !== clientId) {
            return json({
              error: "invalid_grant",
            }, 400);
          }
          const digest = b64url(
            await crypto.subtle.digest(
              "SHA-256",
              new TextEncoder().encode(params.code_verifier ?? ""),
            ),
          );
          if (digest !== grant.challenge) {
            return json({
              error: "invalid_grant",
              error_description: "PKCE",
            }, 400);
          }
          if (params.redirect_uri !== grant.redirectUri) {
            return json(
              { error: "invalid_grant" },
              400,
            );
          }
          scope = grant.scope;
        } else if (params.grant_type === "refresh_token") {
          const grant = refreshGrants.get(params.refresh_token);
          if (grant === undefined) return json({ error: "invalid_grant" }, 400);
          scope = grant.scope;
        } else if (params.grant_type === "client_credentials") {
          if (!clients.has(clientId) || clients.get(clientId) === undefined) {
            return json({ error: "invalid_client" }, 401);
          }
          scope = params.scope ?? "";
        } else {
          return json({ error: "unsupported_grant_type" }, 400);
        }
        const access = next("access");
        issued.push(access);
        valid.set(access, scope);
        const body: Record<string, unknown> = {
          access_token: access,
          token_type: "Bearer",
          expires_in: options.expiresIn ?? 3600,
          scope,
        };
        if (params.grant_type !== "client_credentials") {
          const refresh = next("refresh");
          refreshTokens.push(refresh);
          refreshGrants.set(refresh, { clientId, scope });
          body.refresh_token = refresh;
        }
        return json(body);
      }
      return new Response("not found", { status: 404 });
    },
  );
  issuer = `http://127.0.0.1:${(as.addr as Deno.NetAddr).port}`;

  let base = "";
  const rs: Deno.HttpServer = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    async (req): Promise<Response> => {
      const url = new URL(req.url);
      const prm = `${base}/.well-known/oauth-protected-resource/mcp`;
      if (url.pathname === "/.well-known/oauth-protected-resource/mcp") {
        return json({
          resource: `${base}/mcp`,
          authorization_servers: [issuer],
          scopes_supported: options.scopesSupported ?? ["read"],
        });
      }
      if (url.pathname !== "/mcp") return new Response("not found", { status: 404 });
      if (req.method !== "POST") return new Response(null, { status: 405 });
      const token = req.headers.get("authorization")?.replace(/^Bearer /, "");
      const scope = token === undefined ? undefined : valid.get(token);
      if (scope === undefined) {
        await req.body?.cancel();
        return new Response("unauthorized", {
          status: 401,
          headers: { "www-authenticate": `Bearer resource_metadata="${prm}"` },
        });
      }
      const message = await req.json();
      if (message.id === undefined) return new Response(null, { status: 202 });
      if (message.method === "initialize") {
        return json({
          jsonrpc: "2.0",
          id: message.id,
          result: {
            protocolVersion: message.params.protocolVersion,
            capabilities: { tools: {} },
            serverInfo: { name: "oauth-fixture", version: "1.0.0" },
          },
        });
      }
      if (message.method === "tools/list") {
        return json({
          jsonrpc: "2.0",
          id: message.id,
          result: { tools: [{ name: "whoami", inputSchema: { type: "object" } }] },
        });
      }
      if (message.method === "tools/call") {
        const needed = options.callScope;
        if (options.always403 || (needed && !scope.split(" ").includes(needed))) {
          const want = options.always403 ? "admin" : `${scope} ${needed}`.trim();
          return new Response("forbidden", {
            status: 403,
            headers: {
              "www-authenticate":
                `Bearer error="insufficient_scope", scope="${want}", resource_metadata="${prm}"`,
            },
          });
        }
        return json({
          jsonrpc: "2.0",
          id: message.id,
          result: {
            content: [{
              type: "text",
              text: options.echoSecrets
                ? `scope: ${scope}; token ${token} ${btoa(`Bearer ${token}`)}`
                : `scope: ${scope}`,
            }],
          },
        });
      }
      return json({
        jsonrpc: "2.0",
        id: message.id,
        error: { code: -32601, message: "no method" },
      });
    },
  );
  base = `http://127.0.0.1:${(rs.addr as Deno.NetAddr).port}`;
  const mcpUrl = `${base}/mcp`;

  return Promise.resolve({
    mcpUrl,
    issuer,
    requests,
    asHeaders,
    issued,
    refreshTokens,
    codes,
    options,
    expireAll: () => valid.clear(),
    close: async () => {
      await Promise.all([as.shutdown(), rs.shutdown()]);
    },
  });
}

/** Plays the user's browser: follows the authorization server's redirect to the loopback URI. */
export async function scriptedBrowser(
  authorizationUrl: URL,
  tamper?: (redirect: URL) => URL,
): Promise<void> {
  const response = await fetch(authorizationUrl, { redirect: "manual" });
  await response.body?.cancel();
  const location = response.headers.get("location");
  if (location === null) throw new Error(`authorize answered ${response.status}`);
  const target = new URL(location, authorizationUrl);
  const back = await fetch(tamper ? tamper(target) : target);
  await back.body?.cancel();
}
