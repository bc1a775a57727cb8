// Private test fixture: a DPoP-capable authorization server and an MCP server it protects
// (RFC 9449), both on 127.0.0.1, written by hand with Deno.serve. Every proof is verified on a
// path of its own (WebCrypto, not the SDK's signer): typ, alg, public JWK, signature, htm and
// htu exactly, iat, jti never seen before, ath for resource requests, the key of a bound token,
// the nonce when one is demanded. What a proof gets wrong is recorded in `errors` (and the
// request refused). Misbehaviour is a switch: nonces demanded every time, a garbage nonce,
// a token type the client did not ask for.

export type NonceMode = "once" | "always" | "garbage";

export interface DpopFixtureOptions {
  /** `dpop_signing_alg_values_supported` (default ["ES256"]; null leaves it out). */
  advertise?: string[] | null;
  /** The token endpoint demands a nonce: once per nonce, on every request, or a garbage one. */
  asNonce?: NonceMode;
  /** The MCP server demands a nonce (401 `WWW-Authenticate: DPoP error="use_dpop_nonce"`). */
  rsNonce?: NonceMode;
  /** The token_type the token endpoint answers (default: DPoP with a proof, else Bearer). */
  tokenType?: string;
  /** Pre-registered clients (client_id -> secret) for client_credentials. */
  clients?: Record<string, string>;
}

/** A proof as the fixture saw it. */
export interface SeenProof {
  where: "token" | "mcp";
  htm: string;
  htu: string;
  jti: string;
  jkt: string;
  nonce?: string;
  ath?: string;
}

export interface DpopFixture {
  mcpUrl: string;
  issuer: string;
  tokenUrl: string;
  /** Every valid proof, in order. */
  proofs: SeenProof[];
  /** What was wrong with the proofs that were refused. */
  errors: string[];
  /** The grant_type of every token request (challenged ones included). */
  tokenRequests: string[];
  /** Nonce challenges answered: by the token endpoint and by the MCP server. */
  challenges: { as: number; rs: number };
  /** The Authorization scheme of every MCP request that had one. */
  schemes: string[];
  /** Access tokens issued, with the thumbprint each is bound to (undefined: Bearer). */
  issued: Map<string, string | undefined>;
  /** The MCP requests answered (challenges included). */
  mcpRequests: number;
  /** Makes the MCP server refuse every access token issued so far. */
  expireAll(): void;
  options: DpopFixtureOptions;
  close(): Promise<void>;
}

export const GARBAGE_NONCE = 'has spaces and "quotes"';

function b64url(bytes: ArrayBuffer | Uint8Array): string {
  const u8 = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  return btoa(String.fromCharCode(...u8)).replaceAll("+", "-").replaceAll("/", "_")
    .replace(/=+$/, "");
}

function fromB64url(text: string): Uint8Array<ArrayBuffer> {
  const b64 = text.replaceAll("-", "+").replaceAll("_", "/");
  return Uint8Array.from(atob(b64 + "=".repeat((4 - b64.length % 4) % 4)), (c) => c.charCodeAt(0));
}

function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });
}

async function sha256(text: string): Promise<string> {
  return b64url(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
}

interface Expect {
  where: "token" | "mcp";
  htm: string;
  htu: string;
  accessToken?: string;
}

/** Verifies one proof; returns what it says, or what is wrong with it. */
async function verify(
  proof: string | null,
  expect: Expect,
  jtis: Set<string>,
): Promise<SeenProof | string> {
  if (proof === null) return `${expect.where}: no DPoP header`;
  const parts = proof.split(".");
  if (parts.length !== 3) return `${expect.where}: not a compact JWS`;
  let header: Record<string, unknown>;
  let claims: Record<string, unknown>;
  try {
    header = JSON.parse(new TextDecoder().decode(fromB64url(parts[0])));
    claims = JSON.parse(new TextDecoder().decode(fromB64url(parts[1])));
  } catch {
    return `${expect.where}: header or claims are not JSON`;
  }
  if (header.typ !== "dpop+jwt") return `${expect.where}: typ ${header.typ}`;
  if (header.alg !== "ES256") return `${expect.where}: alg ${header.alg}`;
  const jwk = header.jwk as Record<string, string> | undefined;
  if (!jwk || jwk.kty !== "EC" || jwk.crv !== "P-256") return `${expect.where}: jwk not P-256`;
  if ("d" in jwk) return `${expect.where}: the jwk header carries the private key`;
  const key = await crypto.subtle.importKey(
    "jwk",
    { kty: "EC", crv: "P-256", x: jwk.x, y: jwk.y },
    { name: "ECDSA", namedCurve: "P-256" },
    false,
    ["verify"],
  );
  const ok = await crypto.subtle.verify(
    { name: "ECDSA", hash: "SHA-256" },
    key,
    fromB64url(parts[2]),
    new TextEncoder().encode(`${parts[0]}.${parts[1]}`),
  );
  if (!ok) return `${expect.where}: signature does not verify with the header's jwk`;
  if (claims.htm !== expect.htm) return `${expect.where}: htm ${claims.htm} for ${expect.htm}`;
  if (claims.htu !== expect.htu) return `${expect.where}: htu ${claims.htu} for ${expect.htu}`;
  if (typeof claims.jti !== "string" || claims.jti.length < 16) {
    return `${expect.where}: jti missing or short`;
  }
  if (jtis.has(claims.jti)) return `${expect.where}: jti ${claims.jti} reused`;
  jtis.add(claims.jti);
  const iat = claims.iat;
  if (typeof iat !== "number" || Math.abs(Date.now() / 1000 - iat) > 60) {
    return `${expect.where}: iat ${iat} not within 60 s`;
  }
  if (expect.accessToken === undefined) {
    if (claims.ath !== undefined) return `${expect.where}: ath in a token request proof`;
  } else if (claims.ath !== await sha256(expect.accessToken)) {
    return `${expect.where}: ath is not the hash of the access token`;
  }
  const jkt = await sha256(JSON.stringify({ crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y }));
  return {
    where: expect.where,
    htm: claims.htm as string,
    htu: claims.htu as string,
    jti: claims.jti,
    jkt,
    ...(typeof claims.nonce === "string" ? { nonce: claims.nonce } : {}),
    ...(typeof claims.ath === "string" ? { ath: claims.ath } : {}),
  };
}

/** The nonce state of one server: whether a proof's nonce is accepted, and the next one. */
class Nonces {
  #current = `n-${crypto.randomUUID()}`;
  constructor(readonly mode: NonceMode | undefined) {}
  /** The nonce to challenge with, or undefined when the proof's nonce is accepted. */
  challenge(nonce: string | undefined): string | undefined {
    if (this.mode === undefined) return undefined;
    if (this.mode === "garbage") return GARBAGE_NONCE;
    if (this.mode === "always" || nonce !== this.#current) {
      this.#current = `n-${crypto.randomUUID()}`;
      return this.#current;
    }
    return undefined;
  }
}

export function startDpopFixture(options: DpopFixtureOptions = {}): Promise<DpopFixture> {
  const proofs: SeenProof[] = [];
  const errors: string[] = [];
  const tokenRequests: string[] = [];
  const challenges = { as: 0, rs: 0 };
  const schemes: string[] = [];
  const issued = new Map<string, string | undefined>();
  const valid = new Set<string>();
  const refreshes = new Map<string, string | undefined>(); // refresh token -> bound jkt
  const codes = new Map<string, { challenge: string; redirectUri: string }>();
  const clients = new Map<string, string | undefined>(Object.entries(options.clients ?? {}));
  const jtis = new Set<string>();
  const asNonces = new Nonces(options.asNonce);
  const rsNonces = new Nonces(options.rsNonce);
  let mcpRequests = 0;

  let issuer = "";
  const as = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    const url = new URL(req.url);
    if (url.pathname === "/.well-known/oauth-authorization-server") {
      const advertise = options.advertise === undefined ? ["ES256"] : options.advertise;
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
        authorization_response_iss_parameter_supported: true,
        ...(advertise === null ? {} : { dpop_signing_alg_values_supported: advertise }),
      });
    }
    if (url.pathname === "/register") {
      const body = await req.json();
      const id = `client-${crypto.randomUUID()}`;
      clients.set(id, undefined);
      return json({ ...body, client_id: id, token_endpoint_auth_method: "none" }, 201);
    }
    if (url.pathname === "/authorize") {
      const p = url.searchParams;
      const code = `code-${crypto.randomUUID()}`;
      codes.set(code, {
        challenge: p.get("code_challenge") ?? "",
        redirectUri: p.get("redirect_uri") ?? "",
      });
      const back = new URL(p.get("redirect_uri")!);
      back.searchParams.set("code", code);
      if (p.get("state")) back.searchParams.set("state", p.get("state")!);
      back.searchParams.set("iss", issuer);
      return new Response(null, { status: 302, headers: { location: back.href } });
    }
    if (url.pathname !== "/token") return new Response("not found", { status: 404 });
    const params = Object.fromEntries(new URLSearchParams(await req.text()));
    tokenRequests.push(params.grant_type);
    const header = req.headers.get("dpop");
    let proof: SeenProof | undefined;
    if (header !== null) {
      const seen = await verify(
        header,
        { where: "token", htm: "POST", htu: `${issuer}/token` },
        jtis,
      );
      if (typeof seen === "string") {
        errors.push(seen);
        return json({ error: "invalid_dpop_proof", error_description: seen }, 400);
      }
      const nonce = asNonces.challenge(seen.nonce);
      if (nonce !== undefined) {
        challenges.as++;
        return json({ error: "use_dpop_nonce", error_description: "nonce required" }, 400, {
          "dpop-nonce": nonce,
        });
      }
      proofs.push(seen);
      proof = seen;
    }
    if (params.grant_type === "client_credentials") {
      const auth = req.headers.get("authorization");
      const [id, secret] = auth?.startsWith("Basic ")
        ? atob(auth.slice(6)).split(":").map(decodeURIComponent)
        : [params.client_id, params.client_secret];
      if (!clients.has(id) || clients.get(id) !== secret) {
        return json({ error: "invalid_client" }, 401);
      }
    } else if (params.grant_type === "authorization_code") {
      const grant = codes.get(params.code);
      codes.delete(params.code);
      if (grant === undefined || grant.challenge !== await sha256(params.code_verifier ?? "")) {
        return json({ error: "invalid_grant" }, 400);
      }
    } else if (params.grant_type === "refresh_token") {
      if (!refreshes.has(params.refresh_token)) return json({ error: "invalid_grant" }, 400);
      const bound = refreshes.get(params.refresh_token);
      if (bound !== undefined && bound !== proof?.jkt) {
        errors.push("token: refresh with a key other than the one the refresh token is bound to");
        return json({ error: "invalid_dpop_proof", error_description: "wrong key" }, 400);
      }
    } else {
      return json({ error: "unsupported_grant_type" }, 400);
    }
    const access = `access-${crypto.randomUUID()}`;
    const refresh = `refresh-${crypto.randomUUID()}`;
    const tokenType = options.tokenType ?? (proof ? "DPoP" : "Bearer");
    const bound = tokenType === "DPoP" ? proof?.jkt : undefined;
    issued.set(access, bound);
    valid.add(access);
    refreshes.set(refresh, proof?.jkt);
    return json({
      access_token: access,
      token_type: tokenType,
      expires_in: 3600,
      ...(params.grant_type === "client_credentials" ? {} : { refresh_token: refresh }),
    });
  });
  issuer = `http://127.0.0.1:${(as.addr as Deno.NetAddr).port}`;

  let base = "";
  const rs = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    const url = new URL(req.url);
    const prm = `${base}/.well-known/oauth-protected-resource/mcp`;
    if (url.pathname === "/.well-known/oauth-protected-resource/mcp") {
      return json({ resource: `${base}/mcp`, authorization_servers: [issuer] });
    }
    if (url.pathname !== "/mcp") return new Response("not found", { status: 404 });
    mcpRequests++;
    if (req.method !== "POST") return new Response(null, { status: 405 });
    const refuse = (error: string, extra: Record<string, string> = {}) => {
      req.body?.cancel();
      return new Response("unauthorized", {
        status: 401,
        headers: {
          "www-authenticate": `DPoP error="${error}", algs="ES256", resource_metadata="${prm}"`,
          ...extra,
        },
      });
    };
    const authorization = req.headers.get("authorization");
    const match = /^(\S+) (\S+)$/.exec(authorization ?? "");
    if (match === null) return refuse("invalid_token");
    const [, scheme, token] = match;
    schemes.push(scheme);
    if (!valid.has(token)) return refuse("invalid_token");
    const bound = issued.get(token);
    let jkt: string | undefined;
    if (bound !== undefined) {
      if (scheme !== "DPoP") {
        errors.push(`mcp: DPoP-bound token presented with ${scheme}`);
        return refuse("invalid_token");
      }
      const seen = await verify(req.headers.get("dpop"), {
        where: "mcp",
        htm: "POST",
        htu: `${base}/mcp`,
        accessToken: token,
      }, jtis);
      if (typeof seen === "string") {
        errors.push(seen);
        return refuse("invalid_dpop_proof");
      }
      if (seen.jkt !== bound) {
        errors.push("mcp: proof signed with a key other than the token's");
        return refuse("invalid_dpop_proof");
      }
      const nonce = rsNonces.challenge(seen.nonce);
      if (nonce !== undefined) {
        challenges.rs++;
        return refuse("use_dpop_nonce", { "dpop-nonce": nonce });
      }
      proofs.push(seen);
      jkt = seen.jkt;
    } else if (scheme !== "Bearer") {
      errors.push(`mcp: Bearer token presented with ${scheme}`);
      return refuse("invalid_token");
    }
    const message = await req.json();
    if (message.id === undefined) return new Response(null, { status: 202 });
    const reply = (result: unknown) => json({ jsonrpc: "2.0", id: message.id, result });
    if (message.method === "initialize") {
      return reply({
        protocolVersion: message.params.protocolVersion,
        capabilities: { tools: {} },
        serverInfo: { name: "dpop-fixture", version: "1.0.0" },
      });
    }
    if (message.method === "tools/list") {
      return reply({ tools: [{ name: "whoami", inputSchema: { type: "object" } }] });
    }
    if (message.method === "tools/call") {
      return reply({ content: [{ type: "text", text: `${scheme} ${jkt ?? "-"}` }] });
    }
    return json({ jsonrpc: "2.0", id: message.id, error: { code: -32601, message: "no method" } });
  });
  base = `http://127.0.0.1:${(rs.addr as Deno.NetAddr).port}`;

  return Promise.resolve({
    mcpUrl: `${base}/mcp`,
    issuer,
    tokenUrl: `${issuer}/token`,
    proofs,
    errors,
    tokenRequests,
    challenges,
    schemes,
    issued,
    get mcpRequests() {
      return mcpRequests;
    },
    expireAll: () => valid.clear(),
    options,
    close: async () => {
      await Promise.all([as.shutdown(), rs.shutdown()]);
    },
  });
}
