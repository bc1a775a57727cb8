// The custom headers of the 2026-07-28 Streamable HTTP transport, against a
// scripted server on 127.0.0.1 that records what the client sent: declared
// arguments mirrored into `Mcp-Param-*` headers (plain or Base64, null and
// absent omitted, nested properties), tools with invalid declarations left out
// loudly (a name that is not a token, names repeated without regard to case, a
// number, a declaration under `items`), none of it in the 2025 era, a value
// with no header form refused before sending, and a huge value.
import assert from "node:assert/strict";
import { mcpBackend } from "../../../model/mod.ts";
import { type McpProtocol, Runner } from "../../../run/mod.ts";
import { paramHeadersOf, type ScriptedServer, startScriptedServer } from "./_scripted_http.ts";

const ROUTE = {
  name: "route",
  inputSchema: {
    type: "object",
    properties: {
      region: { type: "string", "x-mcp-header": "Region" },
      priority: { type: "integer", "x-mcp-header": "Priority" },
      verbose: { type: "boolean", "x-mcp-header": "Verbose" },
      note: { type: "string", "x-mcp-header": "Note" },
      target: {
        type: "object",
        properties: { zone: { type: "string", "x-mcp-header": "Zone" } },
      },
      plain: { type: "string" },
    },
    required: ["region"],
  },
};

function declaring(name: string, properties: Record<string, unknown>) {
  return { name, inputSchema: { type: "object", properties } };
}

const INVALID = [
  declaring("bad_token", { v: { type: "string", "x-mcp-header": "My Region" } }),
  declaring("bad_colon", { v: { type: "string", "x-mcp-header": "Region:Primary" } }),
  declaring("bad_duplicate", {
    a: { type: "string", "x-mcp-header": "Region" },
    b: { type: "string", "x-mcp-header": "region" },
  }),
  declaring("bad_number", { v: { type: "number", "x-mcp-header": "Score" } }),
  declaring("bad_object", { v: { type: "object", "x-mcp-header": "Data" } }),
  declaring("bad_empty", { v: { type: "string", "x-mcp-header": "" } }),
  declaring("bad_items", {
    v: { type: "array", items: { type: "string", "x-mcp-header": "Item" } },
  }),
];

async function withServer(
  tools: Record<string, unknown>[],
  protocol: McpProtocol,
  fn: (runner: Runner, server: ScriptedServer) => Promise<void>,
): Promise<void> {
  const server = startScriptedServer(tools);
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

function base64(text: string): string {
  return `=?base64?${btoa(String.fromCharCode(...new TextEncoder().encode(text)))}?=`;
}

Deno.test("in the 2026-07-28 era a call mirrors declared arguments into Mcp-Param headers by the encoding rules", async () => {
  await withServer([ROUTE], "2026-07-28", async (runner, server) => {
    await runner.importMcpTools("s");
    await runner.run("s:route", {
      region: "us-west1",
      priority: 42,
      verbose: false,
      note: "Grüße, 世界 ",
      target: { zone: "eu west 1" },
      plain: "not mirrored",
    });
    await runner.run("s:route", { region: " padded", note: "=?base64?abc?=" });
    const [first, second] = server.calls();
    assert.deepEqual(paramHeadersOf(first), {
      "mcp-param-region": "us-west1",
      "mcp-param-priority": "42",
      "mcp-param-verbose": "false",
      "mcp-param-note": base64("Grüße, 世界 "),
      "mcp-param-zone": "eu west 1",
    });
    // Absent arguments send no header; surrounding whitespace and a value that looks
    // like the sentinel are sent in Base64.
    assert.deepEqual(paramHeadersOf(second), {
      "mcp-param-region": base64(" padded"),
      "mcp-param-note": base64("=?base64?abc?="),
    });
    assert.equal(first.headers["mcp-method"], "tools/call");
    assert.equal(first.headers["mcp-name"], "route");
  });
});

Deno.test("in the 2026-07-28 era tools with invalid x-mcp-header declarations are left out with the reason; the others stay", async () => {
  await withServer([ROUTE, ...INVALID], "2026-07-28", async (runner, server) => {
    const { imported, skipped } = await runner.importMcpTools("s");
    assert.deepEqual(imported.map((e) => e.id), ["s:route"]);
    const reasons = Object.fromEntries(skipped.map((s) => [s.name, s.error.message]));
    assert.deepEqual(Object.keys(reasons).sort(), INVALID.map((t) => t.name).sort());
    assert.match(reasons.bad_token, /"My Region" is not an HTTP token/);
    assert.match(reasons.bad_colon, /"Region:Primary" is not an HTTP token/);
    assert.match(reasons.bad_duplicate, /"region" repeats "Region"/);
    assert.match(reasons.bad_number, /string, integer or boolean property \(got type "number"\)/);
    assert.match(reasons.bad_object, /got type "object"/);
    assert.match(reasons.bad_empty, /must be a non-empty string/);
    assert.match(reasons.bad_items, /reached from the root through "properties" alone/);
    for (const message of Object.values(reasons)) {
      assert.match(message, /MCP server "s": tool "bad_\w+" is left out/);
    }
    // The valid tool is still callable; an excluded one the caller registers anyway is refused
    // before anything is sent.
    await runner.run("s:route", { region: "r" });
    runner.registry.add(
      { name: "bad_token", namespace: "s", inputSchema: INVALID[0].inputSchema as never },
      mcpBackend("s"),
    );
    const error = await runner.run("s:bad_token", { v: "x" }).catch((e) => e);
    assert.equal(error.code, "execution");
    assert.match(error.message, /tool "bad_token" is left out/);
    assert.deepEqual(server.calls().map((c) => c.params.name), ["route"]);
  });
});

Deno.test("in the 2025 era no Mcp-Param header is sent and no tool is left out for its declarations", async () => {
  await withServer([ROUTE, ...INVALID], "legacy", async (runner, server) => {
    const { imported, skipped } = await runner.importMcpTools("s");
    assert.equal(imported.length, 1 + INVALID.length);
    assert.deepEqual(skipped, []);
    await runner.run("s:route", { region: "us-west1", priority: 1 });
    assert.deepEqual(paramHeadersOf(server.calls()[0]), {});
  });
});

Deno.test("a tool the runner holds without listing it gets its headers from the schema the runner holds", async () => {
  await withServer([ROUTE], "2026-07-28", async (runner, server) => {
    runner.registry.add(
      { name: "route", namespace: "s", inputSchema: ROUTE.inputSchema as never },
      mcpBackend("s"),
    );
    await runner.run("s:route", { region: "ap-south-1", verbose: true });
    assert.deepEqual(paramHeadersOf(server.calls()[0]), {
      "mcp-param-region": "ap-south-1",
      "mcp-param-verbose": "true",
    });
  });
});

Deno.test("an argument with no header form (an unpaired surrogate) fails the call before it is sent, naming argument and header", async () => {
  await withServer([ROUTE], "2026-07-28", async (runner, server) => {
    await runner.importMcpTools("s");
    const error = await runner.run("s:route", { region: "bad\uD800" }).catch((e) => e);
    assert.equal(error.code, "execution");
    assert.match(error.message, /argument "region" \(header Mcp-Param-Region\)/);
    assert.match(error.message, /unpaired UTF-16 surrogate/);
    assert.equal(server.calls().length, 0);
  });
});

Deno.test("a large value (32 KiB) is mirrored whole; one past the server's header limit fails naming the header and its size", async () => {
  await withServer([ROUTE], "2026-07-28", async (runner, server) => {
    await runner.importMcpTools("s");
    const large = "a".repeat(32 * 1024);
    await runner.run("s:route", { region: large });
    const sent = paramHeadersOf(server.calls()[0])["mcp-param-region"];
    assert.ok(sent === large, `sent ${sent?.length} characters, not ${large.length}`);
    // Deno.serve refuses request headers past 64 KiB with an empty 400.
    const huge = "b".repeat(1024 * 1024);
    const error = await runner.run("s:route", { region: huge }).catch((e) => e);
    assert.equal(error.code, "execution", String(error));
    assert.match(
      error.message,
      /the call carried 104\d{4} bytes of Mcp-Param headers \(largest: Mcp-Param-Region, 104\d{4} bytes\)/,
    );
    assert.equal(server.calls().length, 1, "the huge call never reached the handler");
  });
});
