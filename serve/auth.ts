/**
 * Authentication of HTTP requests: static bearer tokens (compared in
 * constant time) or OAuth resource-server mode (JWT access tokens verified
 * against the issuer's JWKS with `jose`: issuer, audience, expiry, scopes).
 *
 * @module
 */

import { constantTimeEqual, jsonError } from "./_guard.ts";

/** Who a request is, once authenticated. */
export interface AuthOutcome {
  /**
   * The principal: the OAuth token's subject (else its client id), or the
   * name of a static token (`bearer` when unnamed). Never the token. It owns
   * the sessions it opens and counts against the per-principal limits.
   */
  caller: string;
  /** The scopes the token grants (empty for static tokens, which grant everything). */
  scopes: readonly string[];
  /** Whether scopes are checked per tool (OAuth mode). */
  scoped: boolean;
}

/** How `serve` authenticates HTTP requests. */
export interface HttpAuth {
  /** The outcome, or the response to send instead (401). */
  authenticate(request: Request): Promise<AuthOutcome | Response>;
  /** The response for a path this auth serves itself (protected resource metadata), if any. */
  route?(request: Request): Response | undefined;
  /** The 403 for a token that lacks `required`. */
  insufficientScope(request: Request, required: readonly string[]): Response;
}

function bearerOf(request: Request): string | undefined {
  const header = request.headers.get("authorization") ?? "";
  const match = /^Bearer\s+([^\s]+)\s*$/i.exec(header);
  return match?.[1];
}

/**
 * Static bearer tokens (e.g. from `--token-env NAME`). Given as a record of
 * name → token, a request's principal (its `caller`, which owns its sessions
 * and counts against its limits) is the name of the token it presented,
 * never the token; given as a list, every token's principal is `bearer`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { bearerAuth } from "@toolfoundation/core/serve";
 *
 * const auth = bearerAuth({ TEAM_A_TOKEN: "s3cret-token-of-a", TEAM_B_TOKEN: "s3cret-token-of-b" });
 * const ok = await auth.authenticate(
 *   new Request("http://127.0.0.1/mcp", { headers: { authorization: "Bearer s3cret-token-of-b" } }),
 * );
 * assert.equal((ok as { caller: string }).caller, "TEAM_B_TOKEN");
 * const denied = await auth.authenticate(new Request("http://127.0.0.1/mcp"));
 * assert.equal((denied as Response).status, 401);
 * const unnamed = bearerAuth(["s3cret-token"]);
 * const old = await unnamed.authenticate(
 *   new Request("http://127.0.0.1/mcp", { headers: { authorization: "Bearer s3cret-token" } }),
 * );
 * assert.equal((old as { caller: string }).caller, "bearer");
 * ```
 *
 * @param tokens The accepted tokens by name (or a list, all named `bearer`): at least one, none empty.
 * @returns The auth.
 */
export function bearerAuth(tokens: readonly string[] | Readonly<Record<string, string>>): HttpAuth {
  const named: Array<[string, string]> = Array.isArray(tokens)
    ? tokens.map((token) => ["bearer", token])
    : Object.entries(tokens);
  if (named.length === 0 || named.some(([name, t]) => t.length === 0 || name.length === 0)) {
    throw new TypeError(
      "bearerAuth needs at least one non-empty token, each with a non-empty name",
    );
  }
  return {
    authenticate(request) {
      const given = bearerOf(request);
      let caller: string | undefined;
      // Compare with every token (no early exit) so timing says nothing.
      for (const [name, token] of named) {
        if (constantTimeEqual(given ?? "", token) && caller === undefined) caller = name;
      }
      if (given !== undefined && caller !== undefined) {
        return Promise.resolve({ caller, scopes: [], scoped: false });
      }
      return Promise.resolve(
        jsonError(401, given === undefined ? "missing bearer token" : "invalid bearer token", {
          "www-authenticate": `Bearer error="invalid_token"`,
        }),
      );
    },
    insufficientScope: () => jsonError(403, "forbidden"),
  };
}

/** Options of {@linkcode oauthResourceAuth}. */
export interface OAuthResourceOptions {
  /** The authorization server's issuer identifier (tokens' `iss`). */
  issuer: string;
  /** This server's resource identifier (tokens' `aud`), e.g. `https://tools.example.com/mcp`. */
  resource: string;
  /** The JWKS URL (default: `jwks_uri` of the issuer's metadata). */
  jwksUrl?: string;
  /** Scopes to advertise in the protected resource metadata. */
  scopesSupported?: readonly string[];
  /** Clock tolerance in seconds (default 5). */
  clockToleranceSec?: number;
}

async function discoverJwks(issuer: string): Promise<string> {
  const base = issuer.replace(/\/$/, "");
  for (
    const path of ["/.well-known/oauth-authorization-server", "/.well-known/openid-configuration"]
  ) {
    try {
      const response = await fetch(base + path, { signal: AbortSignal.timeout(10_000) });
      if (!response.ok) {
        await response.body?.cancel();
        continue;
      }
      const meta = await response.json() as { jwks_uri?: unknown };
      if (typeof meta.jwks_uri === "string") return meta.jwks_uri;
    } catch { /* try the next one */ }
  }
  throw new Error(`cannot find the JWKS of issuer ${issuer}; give jwksUrl`);
}

/**
 * OAuth resource-server mode: protected resource metadata at
 * `/.well-known/oauth-protected-resource` (and with the endpoint's path
 * appended), 401 with `WWW-Authenticate` pointing at it, JWT access tokens
 * verified against the issuer's JWKS (signature, `iss`, `aud` = this
 * resource, `exp`), and the token's scopes for per-tool checks.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { oauthResourceAuth } from "@toolfoundation/core/serve";
 *
 * const auth = oauthResourceAuth({
 *   issuer: "https://auth.example.com",
 *   resource: "https://tools.example.com/mcp",
 *   jwksUrl: "https://auth.example.com/jwks.json",
 * });
 * const meta = auth.route!(
 *   new Request("https://tools.example.com/.well-known/oauth-protected-resource/mcp"),
 * );
 * assert.deepEqual((await meta!.json()).authorization_servers, ["https://auth.example.com"]);
 * const denied = await auth.authenticate(new Request("https://tools.example.com/mcp"));
 * assert.equal((denied as Response).status, 401);
 * ```
 *
 * @param options Issuer, resource, JWKS and scopes.
 * @returns The auth.
 */
export function oauthResourceAuth(options: OAuthResourceOptions): HttpAuth {
  const resource = new URL(options.resource);
  const metadataPath = `/.well-known/oauth-protected-resource${
    resource.pathname === "/" ? "" : resource.pathname
  }`;
  const metadataUrl = new URL(metadataPath, resource).href;
  // deno-lint-ignore no-explicit-any
  let keys: Promise<any> | undefined;
  const keySet = () =>
    keys ??= (async () => {
      const jose = await import("jose");
      const url = options.jwksUrl ?? await discoverJwks(options.issuer);
      return jose.createRemoteJWKSet(new URL(url));
    })().catch((error) => {
      keys = undefined;
      throw error;
    });
  const challenge = (error: string, description: string, scope?: readonly string[]) =>
    `Bearer resource_metadata="${metadataUrl}", error="${error}", error_description="${description}"` +
    (scope === undefined ? "" : `, scope="${scope.join(" ")}"`);
  return {
    route(request) {
      const path = new URL(request.url).pathname;
      if (path !== metadataPath && path !== "/.well-known/oauth-protected-resource") {
        return undefined;
      }
      return Response.json({
        resource: resource.href,
        authorization_servers: [options.issuer],
        bearer_methods_supported: ["header"],
        ...(options.scopesSupported === undefined
          ? {}
          : { scopes_supported: [...options.scopesSupported] }),
      });
    },
    async authenticate(request) {
      const token = bearerOf(request);
      if (token === undefined) {
        return jsonError(401, "missing bearer token", {
          "www-authenticate": `Bearer resource_metadata="${metadataUrl}"`,
        });
      }
      try {
        const jose = await import("jose");
        const { payload } = await jose.jwtVerify(token, await keySet(), {
          issuer: options.issuer,
          audience: resource.href,
          clockTolerance: options.clockToleranceSec ?? 5,
          requiredClaims: ["exp"],
        });
        const scopes = typeof payload.scope === "string"
          ? payload.scope.split(" ").filter((s) => s !== "")
          : Array.isArray(payload.scp)
          ? payload.scp.map(String)
          : [];
        const clientId = [payload.client_id, payload.azp].find((v) => typeof v === "string");
        return {
          caller: typeof payload.sub === "string" && payload.sub !== ""
            ? payload.sub
            : typeof clientId === "string" && clientId !== ""
            ? `client:${clientId}`
            : "oauth",
          scopes,
          scoped: true,
        };
      } catch (error) {
        const expired = (error as { code?: unknown })?.code === "ERR_JWT_EXPIRED";
        const description = expired ? "the access token expired" : "the access token is not valid";
        return jsonError(401, description, {
          "www-authenticate": challenge("invalid_token", description),
        });
      }
    },
    insufficientScope(_request, required) {
      return jsonError(403, `insufficient scope: this tool needs ${required.join(" ")}`, {
        "www-authenticate": challenge("insufficient_scope", "insufficient scope", required),
      });
    },
  };
}
