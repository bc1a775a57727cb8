// HTTP MCP servers (Streamable HTTP and the legacy HTTP+SSE transport) follow
// redirects by the provider's rule: the configured headers, Authorization,
// Cookie and Proxy-Authorization never reach another origin than the
// configured URL's; within the origin they are kept; a loop is an error.
import assert from "node:assert/strict";
import { createMcpHandler, Server } from "@modelcontextprotocol/server";
import { mcpBackend } from "../../../model/mod.ts";
import { type McpServerConfig, Runner } from "../../../run/mod.ts";
import { startSseServer } from "../../fixtures/run/mcp_sse_server.ts";
import { MemoryTokenStore, StoreOAuthProvider } from "../../../run/auth/mod.ts";
import { startOAuthFixture } from "../auth/_oauth_servers.ts";
import { HttpBodies } from "../../../run/mcp/_http.ts";
import { type Seen, twoOrigins } from "../_redirect_servers.ts";

const SECRET = "S3CRET-api-key";
const TOKEN = "T0KEN-bearer";
const HEADERS = { "X-Api-Key": SECRET, Authorization: `Bearer ${TOKEN}` };

/** A stateless MCP server with one tool, `echo`. */
function mcpHandler(): (request: Request) => Promise<Response> {
  const handler = createMcpHandler(() => {
    const server = new Server({ name: "redirect-fixture", version: "1.0.0" }, {
      capabilities: { tools: {} },
    });
    server.setRequestHandler("tools/list", () =>
      ({
        tools: [{
          name: "echo",
          inputSchema: { type: "object", properties: { message: { type: "string" } } },
        }],
      }) as never);
    server.setRequestHandler("tools/call", (request) =>
      ({
        content: [{ type: "text", text: `Echo: ${request.params.arguments?.message}` }],
      }) as never);
    return server as never;
  }, { legacy: "stateless" });
  return (request) => handler.fetch(request);
}

function runnerFor(config: McpServerConfig): Runner {
  const runner = new Runner({ mcpServers: { r: config }, timeoutMs: 20_000 });
  runner.registry.add(
    { name: "echo", namespace: "r", inputSchema: { type: "object" } },
    mcpBackend("r"),
  );
  return runner;
}

function leaks(seen: unknown): string[] {
  const text = JSON.stringify(seen);
  return [SECRET, TOKEN].filter((secret) => text.includes(secret));
}

for (const status of [307, 308]) {
  Deno.test(`MCP over HTTP: a ${status} of the POST /mcp to another origin reaches it without the configured headers`, async () => {
    const handler = mcpHandler();
    const servers = await twoOrigins({ away: handler, home: handler });
    const runner = runnerFor({
      transport: "http",
      url: `${servers.home}/redirect/${status}/away/mcp`,
      headers: HEADERS,
    });
    try {
      assert.equal((await runner.run("r:echo", { message: "hi" })).structured, "Echo: hi");
      assert.ok(servers.awaySeen.some((s) => s.method === "POST"), "the redirect was followed");
      assert.deepEqual(leaks(servers.awaySeen), []);
      const first = servers.homeSeen[0];
      assert.equal(first.headers["x-api-key"], SECRET, "the configured origin got them");
    } finally {
      await runner.close();
      await servers.close();
    }
  });
}

Deno.test("MCP over HTTP: a 307 within the origin keeps the configured headers", async () => {
  const handler = mcpHandler();
  const servers = await twoOrigins({ home: handler });
  const runner = runnerFor({
    transport: "http",
    url: `${servers.home}/redirect/307/home/mcp`,
    headers: HEADERS,
  });
  try {
    assert.equal((await runner.run("r:echo", { message: "hi" })).structured, "Echo: hi");
    const redirected = servers.homeSeen.filter((s: Seen) => new URL(s.url).pathname === "/mcp");
    assert.ok(redirected.length > 0);
    for (const seen of redirected) {
      assert.equal(seen.headers["x-api-key"], SECRET);
      assert.equal(seen.headers["authorization"], `Bearer ${TOKEN}`);
    }
    assert.deepEqual(servers.awaySeen, []);
  } finally {
    await runner.close();
    await servers.close();
  }
});

Deno.test("MCP over HTTP: a redirect loop fails the connection, naming the loop", async () => {
  const servers = await twoOrigins();
  const runner = runnerFor({ transport: "http", url: `${servers.home}/loop`, headers: HEADERS });
  try {
    const error = await runner.run("r:echo", { message: "hi" }).catch((e) => e);
    assert.ok(error instanceof Error);
    assert.match(error.message, /more than 20 redirects/);
    assert.ok(servers.homeSeen.length <= 21 * 3, `${servers.homeSeen.length} requests`);
  } finally {
    await runner.close();
    await servers.close();
  }
});

Deno.test("MCP over SSE: a 307 of the stream's GET to another origin reaches it without the configured headers", async () => {
  const sse = startSseServer();
  const servers = await twoOrigins({
    // Every path moved to the other origin: the stream's GET, and the POSTs to the
    // endpoint it names (relative, so resolved against the configured URL).
    home: (request) => {
      const url = new URL(request.url);
      const location = new URL(url.pathname + url.search, sse.url).href;
      return new Response(null, { status: 307, headers: { location } });
    },
  });
  const runner = runnerFor({
    transport: "sse",
    url: `${servers.home}/sse`,
    headers: { "X-Test": SECRET, Authorization: `Bearer ${TOKEN}` },
  });
  try {
    assert.equal((await runner.run("r:echo", { message: "hi" })).structured, "Echo: hi");
    assert.ok(sse.seen.some((s) => s.method === "GET"), "the stream's redirect was followed");
    assert.ok(sse.seen.some((s) => s.method === "POST"), "the POSTs' redirects were followed");
    assert.deepEqual(leaks(sse.seen), []);
    assert.equal(servers.homeSeen[0].headers["x-test"], SECRET);
  } finally {
    await runner.close();
    await servers.close();
    await sse.stop();
  }
});

Deno.test("MCP over HTTP: the configured headers do not go to the authorization server (another origin)", async () => {
  const fx = await startOAuthFixture({ clients: { svc: "svc-secret" } });
  const provider = new StoreOAuthProvider(fx.mcpUrl, {
    store: new MemoryTokenStore(),
    loginCommand: "toolfoundation auth login tools.yaml r",
    settings: { grant: "client_credentials", clientId: "svc", clientSecret: "svc-secret" },
  });
  const runner = new Runner({
    mcpServers: {
      r: {
        transport: "http",
        url: fx.mcpUrl,
        headers: { "X-Api-Key": SECRET },
        authProvider: provider,
      },
    },
    timeoutMs: 20_000,
  });
  try {
    const { imported } = await runner.importMcpTools("r");
    assert.deepEqual(imported.map((t) => t.tool.name), ["whoami"]);
    assert.ok(fx.requests.some((r) => r.path === "/token"), "a token was asked for");
    assert.ok(fx.asHeaders.length > 0);
    assert.deepEqual(leaks(fx.asHeaders), []);
  } finally {
    await runner.close();
    await fx.close();
  }
});

Deno.test("MCP over HTTP: an OAuth form (client secret, code) is not redirected to another origin", async () => {
  const servers = await twoOrigins();
  const bodies = new HttpBodies(1024 * 1024, { headers: {}, origin: servers.home });
  try {
    const error = await bodies.fetch(`${servers.home}/redirect/307/away/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "client_credentials", client_secret: SECRET }),
    }).catch((e) => e);
    assert.ok(error instanceof Error);
    assert.equal((error as { code?: string }).code, "redirect_body");
    assert.match(error.message, /holds credentials, so it is not sent there/);
    assert.deepEqual(servers.awaySeen, []);
    // Within the origin it is followed.
    const same = await bodies.fetch(`${servers.home}/redirect/307/home/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "client_credentials", client_secret: SECRET }),
    });
    assert.match((await same.json() as Seen).body, /client_secret=S3CRET/);
  } finally {
    bodies.close();
    await servers.close();
  }
});
