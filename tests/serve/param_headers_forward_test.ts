// serve forwards a tool call to a 2026-07-28 upstream over Streamable HTTP
// with the Mcp-Param-* headers its x-mcp-header declarations ask for, built as
// the runner's client builds them, for clients of either era. When the
// upstream refuses them (-32020: serve's copy of the declarations is stale),
// serve lists the tools again and retries once; a second refusal, a garbage
// listing or a garbage answer end the call with an error that says so, never
// a loop. A 2025-era upstream gets no such headers.
import assert from "node:assert/strict";
import { mcpBackend, type Tool } from "../../model/mod.ts";
import { type McpProtocol, Runner } from "../../run/mod.ts";
import { Gateway, mcpUpstream } from "../../serve/mod.ts";
import {
  type Override,
  paramHeadersOf,
  type Received,
  type ScriptedServer,
  startScriptedServer,
} from "../run/mcp/_scripted_http.ts";

const UNDECLARED = {
  name: "route",
  inputSchema: {
    type: "object",
    properties: { region: { type: "string" }, count: { type: "integer" } },
  },
};
const DECLARED = {
  name: "route",
  inputSchema: {
    type: "object",
    properties: {
      region: { type: "string", "x-mcp-header": "Region" },
      count: { type: "integer", "x-mcp-header": "Count" },
    },
  },
};

function mismatch(id: unknown): Response {
  return Response.json({
    jsonrpc: "2.0",
    id,
    error: { code: -32020, message: "Header mismatch: Mcp-Param-Region is missing" },
  }, { status: 400 });
}

/** Decodes a header value as a server does (the Base64 wrapper, else literal). */
function decoded(value: string | undefined): string | undefined {
  const wrapped = value?.match(/^=\?base64\?(.*)\?=$/);
  if (wrapped === null || wrapped === undefined) return value;
  return new TextDecoder().decode(Uint8Array.from(atob(wrapped[1]), (c) => c.charCodeAt(0)));
}

/** An upstream that checks Mcp-Param-Region against its `region` argument. */
function checksRegion(request: Received, id: unknown): Response | undefined {
  if (request.method !== "tools/call") return undefined;
  const region = (request.params.arguments as Record<string, unknown>).region;
  return decoded(paramHeadersOf(request)["mcp-param-region"]) === region ? undefined : mismatch(id);
}

type Era = "legacy" | "modern";

/**
 * serve's gateway in front of a scripted upstream whose listing is `tools`;
 * the catalog is what the upstream listed at start (`served`, default the same).
 */
async function withGateway(
  tools: Record<string, unknown>[],
  protocol: McpProtocol,
  override: Override | undefined,
  fn: (gateway: Gateway, server: ScriptedServer) => Promise<void>,
): Promise<void> {
  const server = startScriptedServer(tools, {}, override);
  const upstream = mcpUpstream("s", { transport: "http", url: server.url, protocol });
  const runner = new Runner();
  for (const tool of tools) {
    runner.registry.add(structuredClone(tool) as unknown as Tool, mcpBackend("s"));
  }
  const gateway = await Gateway.create(runner, { upstreams: [upstream], timeoutMs: 20_000 });
  try {
    await fn(gateway, server);
  } finally {
    await gateway.close();
    await upstream.close();
    await runner.close();
    await server.close();
  }
}

/** The tools/list and tools/call requests the upstream got, a call as `call(<Mcp-Param-Region>)`. */
function trail(server: ScriptedServer): string[] {
  return server.received
    .filter((r) => r.method === "tools/call" || r.method === "tools/list")
    .map((r) =>
      r.method === "tools/call" ? `call(${paramHeadersOf(r)["mcp-param-region"] ?? "-"})` : "list"
    );
}

function textOf(result: { content?: unknown }): string {
  return ((result.content ?? []) as { text?: string }[]).map((c) => c.text ?? "").join("");
}

for (const era of ["legacy", "modern"] as Era[]) {
  Deno.test(`serve forwards a ${era} client's call to a 2026-07-28 upstream with the Mcp-Param headers its tool declares`, async () => {
    await withGateway([DECLARED], "2026-07-28", checksRegion, async (gateway, server) => {
      const plain = await gateway.callTool("route", { region: "us-west1", count: 3 }, {
        caller: "t",
        clientEra: era,
      });
      assert.notEqual(plain.isError, true, textOf(plain));
      assert.deepEqual(paramHeadersOf(server.calls()[0]), {
        "mcp-param-region": "us-west1",
        "mcp-param-count": "3",
      });
      // Non-ASCII text and surrounding spaces travel as Base64 of the UTF-8.
      const wrapped = await gateway.callTool("route", { region: " Zürich" }, {
        caller: "t",
        clientEra: era,
      });
      assert.notEqual(wrapped.isError, true, textOf(wrapped));
      assert.deepEqual(paramHeadersOf(server.calls()[1]), {
        "mcp-param-region": `=?base64?${btoa(" Z\xc3\xbcrich")}?=`,
      });
      // From the catalog's schema: no listing, no retry.
      assert.deepEqual(trail(server), [
        "call(us-west1)",
        `call(=?base64?${btoa(" Z\xc3\xbcrich")}?=)`,
      ]);
    });
  });
}

Deno.test("an upstream that refuses stale headers once is listed again and the call retried once with its declarations", async () => {
  const tools: Record<string, unknown>[] = [UNDECLARED];
  const server = startScriptedServer(tools, {}, checksRegion);
  const upstream = mcpUpstream("s", { transport: "http", url: server.url, protocol: "2026-07-28" });
  const runner = new Runner();
  runner.registry.add(structuredClone(UNDECLARED) as Tool, mcpBackend("s"));
  const gateway = await Gateway.create(runner, { upstreams: [upstream] });
  try {
    tools[0] = DECLARED; // the upstream now declares the header; serve's catalog is stale
    const result = await gateway.callTool("route", { region: "eu" }, { caller: "t" });
    assert.notEqual(result.isError, true, textOf(result));
    assert.equal(textOf(result), '{"region":"eu"}');
    assert.deepEqual(trail(server), ["call(-)", "list", "call(eu)"]);
    // The new listing stays: the next call carries the header at once.
    await gateway.callTool("route", { region: "ap" }, { caller: "t", clientEra: "modern" });
    assert.deepEqual(trail(server).slice(3), ["call(ap)"]);
  } finally {
    await gateway.close();
    await upstream.close();
    await runner.close();
    await server.close();
  }
});

Deno.test("an upstream that always refuses the headers gets one retry, then the call fails naming the upstream to fix", async () => {
  await withGateway(
    [DECLARED],
    "2026-07-28",
    (r, id) => r.method === "tools/call" ? mismatch(id) : undefined,
    async (gateway, server) => {
      const result = await gateway.callTool("route", { region: "r1" }, { caller: "t" });
      assert.equal(result.isError, true);
      assert.match(
        textOf(result),
        /upstream server "s" refused tool "route" twice for Mcp-Param headers that do not match its arguments \(-32020\), the second time after its tools were listed again: .*Header mismatch: Mcp-Param-Region is missing.*fix the upstream server/,
      );
      assert.deepEqual(trail(server), ["call(r1)", "list", "call(r1)"]);
    },
  );
});

Deno.test("a garbage listing after a refusal still gets the one retry, and its failure is named", async () => {
  await withGateway(
    [DECLARED],
    "2026-07-28",
    (r, id) =>
      r.method === "tools/call"
        ? mismatch(id)
        : r.method === "tools/list"
        ? new Response("}{ not json", { headers: { "content-type": "application/json" } })
        : undefined,
    async (gateway, server) => {
      const result = await gateway.callTool("route", { region: "r1" }, { caller: "t" });
      assert.equal(result.isError, true);
      assert.match(textOf(result), /refused tool "route" twice/);
      assert.match(textOf(result), /\(that listing failed: /);
      assert.deepEqual(trail(server), ["call(r1)", "list", "call(r1)"]);
    },
  );
});

Deno.test("a garbage error answer to a call is not a header refusal: no listing, no retry", async () => {
  await withGateway(
    [DECLARED],
    "2026-07-28",
    (r) =>
      r.method === "tools/call"
        ? new Response("<html>bad gateway</html>", {
          status: 400,
          headers: { "content-type": "text/html" },
        })
        : undefined,
    async (gateway, server) => {
      const result = await gateway.callTool("route", { region: "r1" }, { caller: "t" });
      assert.equal(result.isError, true);
      assert.doesNotMatch(textOf(result), /refused tool/);
      assert.deepEqual(trail(server), ["call(r1)"]);
    },
  );
});

Deno.test("a 2025-era upstream gets no Mcp-Param headers, whatever the tool declares", async () => {
  await withGateway([DECLARED], "legacy", undefined, async (gateway, server) => {
    const result = await gateway.callTool("route", { region: "us", count: 2 }, { caller: "t" });
    assert.notEqual(result.isError, true, textOf(result));
    assert.deepEqual(paramHeadersOf(server.calls()[0]), {});
  });
});
