// Private test fixture: authorization servers and one MCP server (a protected resource) on
// 127.0.0.1, by hand with Deno.serve, for the JWT-bearer grant (RFC 7523) and for a server that
// moves to another authorization server mid-session (its protected resource metadata changes).
// Each authorization server registers clients (DCR), issues codes, and answers the
// authorization_code, client_credentials and jwt-bearer grants; the MCP server accepts only tokens
// of the authorization server its metadata names now (or none: `refuseAll`).

export interface FakeAs {
  issuer: string;
  /** Requests to /register, /authorize and /token, with their form or query. */
  requests: { path: string; params: Record<string, string> }[];
  /** The jwt-bearer assertions it accepts (others: invalid_grant). */
  assertions: Set<string>;
  close(): Promise<void>;
}

export interface FakeResource {
  mcpUrl: string;
  /** The authorization server the metadata names (an issuer URL; any URL). */
  authorizationServer: string;
  /** Refuse every token (401), the fresh ones too. */
  refuseAll: boolean;
  /** Methods received, with whether a token was accepted. */
  calls: { method: string; accepted: boolean }[];
  /** How many times the protected resource metadata was read. */
  metadataReads: number;
  close(): Promise<void>;
}

/** Which authorization server issued each access token (shared by all fixtures of a test). */
const issuedBy = new Map<string, string>();

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json" },
  });
}

export function startFakeAs(name: string): FakeAs {
  const requests: FakeAs["requests"] = [];
  const assertions = new Set<string>();
  const clients = new Set<string>();
  let issuer = "";
  let n = 0;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    const url = new URL(req.url);
    if (url.pathname === "/.well-known/oauth-authorization-server") {
      return json({
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        registration_endpoint: `${issuer}/register`,
        response_types_supported: ["code"],
        grant_types_supported: [
          "authorization_code",
          "client_credentials",
          "urn:ietf:params:oauth:grant-type:jwt-bearer",
        ],
        code_challenge_methods_supported: ["S256"],
        token_endpoint_auth_methods_supported: ["none"],
      });
    }
    const params: Record<string, string> = {};
    if (req.method === "GET") url.searchParams.forEach((v, k) => (params[k] = v));
    else if (req.headers.get("content-type")?.includes("json")) {
      Object.assign(params, await req.json());
    } else new URLSearchParams(await req.text()).forEach((v, k) => (params[k] = v));
    requests.push({ path: url.pathname, params });
    if (url.pathname === "/register") {
      const id = `${name}-client-${++n}`;
      clients.add(id);
      return json({ ...params, client_id: id, token_endpoint_auth_method: "none" }, 201);
    }
    if (url.pathname === "/authorize") {
      if (!clients.has(params.client_id)) return new Response("unknown client", { status: 400 });
      const back = new URL(params.redirect_uri);
      back.searchParams.set("code", `${name}-code-${++n}`);
      if (params.state) back.searchParams.set("state", params.state);
      back.searchParams.set("iss", issuer);
      return new Response(null, { status: 302, headers: { location: back.href } });
    }
    if (url.pathname === "/token") {
      if (
        params.grant_type === "urn:ietf:params:oauth:grant-type:jwt-bearer" &&
        !assertions.has(params.assertion)
      ) {
        return json({ error: "invalid_grant", error_description: "assertion refused" }, 400);
      }
      const token = `${name}-token-${crypto.randomUUID()}`;
      issuedBy.set(token, issuer);
      return json({ access_token: token, token_type: "Bearer", expires_in: 3600 });
    }
    return new Response("not found", { status: 404 });
  });
  issuer = `http://127.0.0.1:${(server.addr as Deno.NetAddr).port}`;
  return { issuer, requests, assertions, close: () => server.shutdown() };
}

export function startFakeResource(authorizationServer: string): FakeResource {
  const state: FakeResource = {
    mcpUrl: "",
    authorizationServer,
    refuseAll: false,
    calls: [],
    metadataReads: 0,
    close: () => Promise.resolve(),
  };
  let base = "";
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    const url = new URL(req.url);
    const prm = `${base}/.well-known/oauth-protected-resource/mcp`;
    if (url.pathname === "/.well-known/oauth-protected-resource/mcp") {
      state.metadataReads++;
      return json({ resource: `${base}/mcp`, authorization_servers: [state.authorizationServer] });
    }
    if (url.pathname !== "/mcp") return new Response("not found", { status: 404 });
    if (req.method !== "POST") return new Response(null, { status: 405 });
    const message = await req.json();
    const token = req.headers.get("authorization")?.replace(/^Bearer /, "");
    const accepted = !state.refuseAll && token !== undefined &&
      issuedBy.get(token) === state.authorizationServer;
    state.calls.push({ method: message.method, accepted });
    if (!accepted) {
      return new Response("unauthorized", {
        status: 401,
        headers: { "www-authenticate": `Bearer error="invalid_token", resource_metadata="${prm}"` },
      });
    }
    if (message.id === undefined) return new Response(null, { status: 202 });
    const result = message.method === "initialize"
      ? {
        protocolVersion: message.params.protocolVersion,
        capabilities: { tools: {} },
        serverInfo: { name: "moving", version: "1.0.0" },
      }
      : message.method === "tools/list"
      ? { tools: [{ name: "whoami", inputSchema: { type: "object" } }] }
      : message.method === "tools/call"
      ? { content: [{ type: "text", text: `token of ${issuedBy.get(token!)}` }] }
      : undefined;
    return result === undefined
      ? json({ jsonrpc: "2.0", id: message.id, error: { code: -32601, message: "no method" } })
      : json({ jsonrpc: "2.0", id: message.id, result });
  });
  base = `http://127.0.0.1:${(server.addr as Deno.NetAddr).port}`;
  state.mcpUrl = `${base}/mcp`;
  state.close = () => server.shutdown();
  return state;
}
