import assert from "node:assert/strict";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { Runner } from "../../run/mod.ts";
import {
  bearerAuth,
  createHttpHandler,
  Gateway,
  type HttpHandlerOptions,
  oauthResourceAuth,
  serveHttp,
} from "../../serve/mod.ts";

const INIT = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "t", version: "1" },
  },
};

function post(body: unknown, headers: Record<string, string> = {}, host = "127.0.0.1:8080") {
  return new Request(`http://${host}/mcp`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2025-06-18",
      ...headers,
    },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

async function gatewayWith(block?: Promise<void>): Promise<Gateway> {
  const runner = new Runner();
  runner.addLocalTool({
    name: "ping",
    inputSchema: { type: "object", properties: { n: { type: "integer" } } },
  }, async () => {
    await block;
    return "pong";
  });
  return await Gateway.create(runner);
}

async function withHandler(
  options: HttpHandlerOptions,
  work: (fetch: (r: Request) => Promise<Response>) => Promise<void>,
  block?: Promise<void>,
) {
  const gateway = await gatewayWith(block);
  const handler = createHttpHandler(gateway, options);
  try {
    await work((r) => handler.fetch(r, { remoteAddr: { hostname: "127.0.0.1" } }));
  } finally {
    await handler.close();
    await gateway.close();
  }
}

Deno.test("serve http refuses a foreign Host header and a foreign Origin with 403", async () => {
  await withHandler({}, async (fetch) => {
    const host = await fetch(post(INIT, {}, "evil.example:8080"));
    assert.equal(host.status, 403);
    assert.match(await host.text(), /Host header not allowed/);
    const origin = await fetch(post(INIT, { origin: "http://evil.example" }));
    assert.equal(origin.status, 403);
    assert.match(await origin.text(), /Origin not allowed/);
    const local = await fetch(post(INIT, { origin: "http://localhost:3000" }));
    assert.equal(local.status, 200);
    await local.body?.cancel();
  });
});

Deno.test("serve http accepts an allowed extra host and origin", async () => {
  await withHandler(
    { allowedHosts: ["tools.example"], allowedOrigins: ["https://app.example"] },
    async (fetch) => {
      const ok = await fetch(post(INIT, { origin: "https://app.example" }, "tools.example"));
      assert.equal(ok.status, 200);
      await ok.body?.cancel();
    },
  );
});

Deno.test("serve http rejects an oversized body with 413 before parsing it", async () => {
  await withHandler({ maxBodyBytes: 1024 }, async (fetch) => {
    const big = { ...INIT, params: { ...INIT.params, padding: "x".repeat(5000) } };
    const response = await fetch(post(big));
    assert.equal(response.status, 413);
    assert.match(await response.text(), /limit is 1024 bytes/);
    // Without a content-length (a stream), the limit holds too.
    const stream = new ReadableStream({
      start(c) {
        c.enqueue(new TextEncoder().encode(JSON.stringify(big)));
        c.close();
      },
    });
    const chunked = await fetch(
      new Request("http://127.0.0.1/mcp", {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
        },
        body: stream,
      }),
    );
    assert.equal(chunked.status, 413);
    await chunked.body?.cancel();
  });
});

Deno.test("serve http with a bearer token: missing or wrong token is 401, the right one passes", async () => {
  await withHandler({ auth: bearerAuth(["a-long-static-token-123"]) }, async (fetch) => {
    const missing = await fetch(post(INIT));
    assert.equal(missing.status, 401);
    assert.match(missing.headers.get("www-authenticate") ?? "", /^Bearer/);
    assert.doesNotMatch(await missing.text(), /a-long-static-token-123/);
    const wrong = await fetch(post(INIT, { authorization: "Bearer a-long-static-token-124" }));
    assert.equal(wrong.status, 401);
    await wrong.body?.cancel();
    const ok = await fetch(post(INIT, { authorization: "Bearer a-long-static-token-123" }));
    assert.equal(ok.status, 200);
    await ok.body?.cancel();
  });
});

Deno.test("serve http limits requests in flight per client with a clear 429", async () => {
  let open!: () => void;
  const block = new Promise<void>((resolve) => (open = resolve));
  await withHandler({ maxConcurrentPerClient: 2 }, async (fetch) => {
    const call = (id: number) =>
      fetch(
        post({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "ping", arguments: {} } }),
      );
    const first = call(1);
    const second = call(2);
    await new Promise((r) => setTimeout(r, 50));
    const third = await call(3);
    assert.equal(third.status, 429);
    assert.match(
      await third.text(),
      /too many concurrent requests from this client \(limit 2, --max-concurrent\)/,
    );
    open();
    for (const r of await Promise.all([first, second])) {
      assert.equal(r.status, 200);
      await r.text();
    }
    const after = await call(4);
    assert.equal(after.status, 200);
    await after.text();
  }, block);
});

Deno.test("serve http answers an unknown or hidden tool with a JSON-RPC error, not a crash", async () => {
  await withHandler({}, async (fetch) => {
    const response = await fetch(
      post({
        jsonrpc: "2.0",
        id: 7,
        method: "tools/call",
        params: { name: "secret_admin_tool", arguments: {} },
      }),
    );
    const text = await response.text();
    assert.match(text, /"code":-32602/);
    assert.match(text, /Unknown tool: secret_admin_tool/);
  });
});

Deno.test("serveHttp refuses a non-loopback interface without auth", async () => {
  const gateway = await gatewayWith();
  try {
    await assert.rejects(() => serveHttp(gateway, { hostname: "0.0.0.0", port: 0 }), {
      code: "auth_required",
    });
  } finally {
    await gateway.close();
  }
});

Deno.test("two stateless serve instances answer one client alternating between them", async () => {
  const a = await gatewayWith();
  const b = await gatewayWith();
  const one = await serveHttp(a, { port: 0 });
  const two = await serveHttp(b, { port: 0 });
  try {
    const seen: string[] = [];
    let turn = 0;
    const alternating = (input: string | URL | Request, init?: RequestInit) => {
      const target = turn++ % 2 === 0 ? one.url : two.url;
      seen.push(target);
      return fetch(target, init ?? (input as Request));
    };
    const client = new Client({ name: "lb", version: "1" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(one.url), { fetch: alternating }),
    );
    for (let i = 0; i < 4; i++) {
      const result = await client.callTool({ name: "ping", arguments: { n: i } });
      assert.deepEqual(result.content, [{ type: "text", text: "pong" }]);
    }
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name), ["ping"]);
    await client.close();
    assert.ok(seen.includes(one.url) && seen.includes(two.url));
  } finally {
    await one.close();
    await two.close();
    await a.close();
    await b.close();
  }
});

// OAuth resource-server mode against a local issuer with its own JWKS.
Deno.test("serve http in OAuth mode: metadata, 401 for missing/expired/wrong-audience tokens, 403 for a missing scope", async () => {
  const jose = await import("jose");
  const { publicKey, privateKey } = await jose.generateKeyPair("RS256");
  const jwk = { ...await jose.exportJWK(publicKey), kid: "k1", alg: "RS256" };
  const issuerServer = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    () => Response.json({ keys: [jwk] }),
  );
  const issuer = `http://127.0.0.1:${(issuerServer.addr as Deno.NetAddr).port}`;
  const resource = "http://127.0.0.1:8080/mcp";
  const token = (claims: Record<string, unknown>, expires = "5m", audience = resource) =>
    new jose.SignJWT(claims).setProtectedHeader({ alg: "RS256", kid: "k1" }).setIssuer(issuer)
      .setAudience(audience).setSubject("user-42").setIssuedAt().setExpirationTime(expires).sign(
        privateKey,
      );
  const auth = oauthResourceAuth({ issuer, resource, jwksUrl: `${issuer}/jwks` });
  try {
    await withHandler({ auth, toolScopes: { ping: ["tools:ping"] } }, async (fetch) => {
      const meta = await fetch(
        new Request("http://127.0.0.1:8080/.well-known/oauth-protected-resource/mcp"),
      );
      assert.deepEqual((await meta.json()).authorization_servers, [issuer]);
      const missing = await fetch(post(INIT));
      assert.equal(missing.status, 401);
      assert.match(
        missing.headers.get("www-authenticate")!,
        /resource_metadata="http:\/\/127\.0\.0\.1:8080\/\.well-known\/oauth-protected-resource\/mcp"/,
      );
      await missing.body?.cancel();
      const expired = await fetch(
        post(INIT, { authorization: `Bearer ${await token({}, "-1m")}` }),
      );
      assert.equal(expired.status, 401);
      assert.match(expired.headers.get("www-authenticate")!, /invalid_token/);
      assert.match(await expired.text(), /expired/);
      const foreign = await fetch(
        post(INIT, { authorization: `Bearer ${await token({}, "5m", "https://other/mcp")}` }),
      );
      assert.equal(foreign.status, 401);
      await foreign.body?.cancel();
      const call = {
        jsonrpc: "2.0",
        id: 2,
        method: "tools/call",
        params: { name: "ping", arguments: {} },
      };
      const noScope = await fetch(
        post(call, { authorization: `Bearer ${await token({ scope: "other" })}` }),
      );
      assert.equal(noScope.status, 403);
      assert.match(noScope.headers.get("www-authenticate")!, /insufficient_scope/);
      await noScope.body?.cancel();
      const ok = await fetch(
        post(call, { authorization: `Bearer ${await token({ scope: "tools:ping" })}` }),
      );
      assert.equal(ok.status, 200);
      assert.match(await ok.text(), /pong/);
    });
  } finally {
    await issuerServer.shutdown();
  }
});
