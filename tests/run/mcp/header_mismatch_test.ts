// A server that refuses a `tools/call` for Mcp-Param headers that do not match
// its arguments (-32020, HeaderMismatch): the client lists the tools again and
// retries once with the new listing's headers, never more; a garbage answer
// or a garbage listing does not make it loop; the 2025 era (no such headers)
// does not retry. Against the scripted server on 127.0.0.1.
import assert from "node:assert/strict";
import { mcpBackend } from "../../../model/mod.ts";
import { type McpProtocol, Runner } from "../../../run/mod.ts";
import {
  type Override,
  paramHeadersOf,
  type Received,
  type ScriptedServer,
  startScriptedServer,
} from "./_scripted_http.ts";

const UNDECLARED = {
  name: "route",
  inputSchema: { type: "object", properties: { region: { type: "string" } } },
};
const DECLARED = {
  name: "route",
  inputSchema: {
    type: "object",
    properties: { region: { type: "string", "x-mcp-header": "Region" } },
  },
};

function mismatch(id: unknown): Response {
  return Response.json({
    jsonrpc: "2.0",
    id,
    error: { code: -32020, message: "Header mismatch: Mcp-Param-Region is missing" },
  }, { status: 400 });
}

/** Refuses a call whose Mcp-Param-Region does not carry its `region` argument. */
function checksRegion(request: Received, id: unknown): Response | undefined {
  if (request.method !== "tools/call") return undefined;
  const region = (request.params.arguments as Record<string, unknown>).region;
  return paramHeadersOf(request)["mcp-param-region"] === region ? undefined : mismatch(id);
}

async function withServer(
  tools: Record<string, unknown>[],
  protocol: McpProtocol,
  override: Override,
  fn: (runner: Runner, server: ScriptedServer) => Promise<void>,
): Promise<void> {
  const server = startScriptedServer(tools, {}, override);
  const runner = new Runner({
    mcpServers: { s: { transport: "http", url: server.url, protocol } },
    timeoutMs: 30_000,
  });
  try {
    await fn(runner, server);
  } finally {
    await runner.close();
    await server.close();
  }
}

/** The methods the server got after the handshake, a call as `call(<Mcp-Param-Region>)`. */
function trail(server: ScriptedServer): string[] {
  return server.received
    .filter((r) => r.method === "tools/call" || r.method === "tools/list")
    .map((r) =>
      r.method === "tools/call" ? `call(${paramHeadersOf(r)["mcp-param-region"] ?? "-"})` : "list"
    );
}

Deno.test("a header mismatch on a stale listing makes the client list again and retry once with the new headers", async () => {
  const tools: Record<string, unknown>[] = [UNDECLARED];
  await withServer(tools, "2026-07-28", checksRegion, async (runner, server) => {
    await runner.importMcpTools("s");
    tools[0] = DECLARED; // the server now declares the header; our listing is stale
    const result = await runner.run("s:route", { region: "us-west1" });
    assert.deepEqual(result.mcpResult?.content, [{ type: "text", text: '{"region":"us-west1"}' }]);
    assert.deepEqual(trail(server), ["list", "call(-)", "list", "call(us-west1)"]);
    // The new declarations stay: the next call carries the header at once.
    await runner.run("s:route", { region: "eu" });
    assert.deepEqual(trail(server).slice(4), ["call(eu)"]);
  });
});

Deno.test("a server that always answers header mismatch gets one retry, then the call fails saying so", async () => {
  await withServer(
    [DECLARED],
    "2026-07-28",
    (r, id) => r.method === "tools/call" ? mismatch(id) : undefined,
    async (runner, server) => {
      await runner.importMcpTools("s");
      const error = await runner.run("s:route", { region: "us-west1" }).catch((e) => e);
      assert.equal(error.code, "execution", String(error));
      assert.match(
        error.message,
        /MCP server "s": tool "route": the server refused the call twice/,
      );
      assert.match(error.message, /Header mismatch: Mcp-Param-Region is missing/);
      assert.equal(error.details.mcpCode, -32020);
      assert.deepEqual(trail(server), ["list", "call(us-west1)", "list", "call(us-west1)"]);
    },
  );
});

Deno.test("a garbage listing after a header mismatch still gets the one retry, and its failure is named", async () => {
  await withServer(
    [DECLARED],
    "2026-07-28",
    (r, id, nth) =>
      r.method === "tools/call"
        ? mismatch(id)
        : r.method === "tools/list" && nth > 1
        ? new Response("}{ not json", { headers: { "content-type": "application/json" } })
        : undefined,
    async (runner, server) => {
      await runner.importMcpTools("s");
      const error = await runner.run("s:route", { region: "r1" }).catch((e) => e);
      assert.equal(error.code, "execution", String(error));
      assert.match(error.message, /refused the call twice/);
      assert.match(error.message, /\(that listing failed: /);
      assert.deepEqual(trail(server), ["list", "call(r1)", "list", "call(r1)"]);
    },
  );
});

Deno.test("a garbage error answer to a call is not a header mismatch: no listing, no retry", async () => {
  await withServer(
    [DECLARED],
    "2026-07-28",
    (r) =>
      r.method === "tools/call"
        ? new Response("<html>bad gateway</html>", {
          status: 400,
          headers: { "content-type": "text/html" },
        })
        : undefined,
    async (runner, server) => {
      await runner.importMcpTools("s");
      const error = await runner.run("s:route", { region: "r1" }).catch((e) => e);
      assert.equal(error.code, "execution", String(error));
      assert.doesNotMatch(error.message, /refused the call twice/);
      assert.deepEqual(trail(server), ["list", "call(r1)"]);
    },
  );
});

Deno.test("in the 2025 era a -32020 error is the call's error, without a retry", async () => {
  await withServer(
    [DECLARED],
    "legacy",
    (r, id) => r.method === "tools/call" ? mismatch(id) : undefined,
    async (runner, server) => {
      await runner.importMcpTools("s");
      const error = await runner.run("s:route", { region: "r1" }).catch((e) => e);
      assert.equal(error.code, "execution", String(error));
      assert.match(error.message, /Header mismatch/);
      assert.deepEqual(trail(server), ["list", "call(-)"]);
    },
  );
});

Deno.test("a tool called before any listing sends no header, and the mismatch's listing supplies it", async () => {
  await withServer([DECLARED], "2026-07-28", checksRegion, async (runner, server) => {
    runner.registry.add(
      { name: "route", namespace: "s", inputSchema: UNDECLARED.inputSchema as never },
      mcpBackend("s"),
    );
    const result = await runner.run("s:route", { region: "ap" });
    assert.deepEqual(result.mcpResult?.content, [{ type: "text", text: '{"region":"ap"}' }]);
    assert.deepEqual(trail(server), ["call(-)", "list", "call(ap)"]);
  });
});
