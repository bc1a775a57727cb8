// serve checks the Mcp-Param-* headers of a 2026-07-28 client's tools/call
// against its arguments (Streamable HTTP, custom headers): a missing,
// mismatched or malformed header is refused with HTTP 400 and JSON-RPC error
// -32020 before the tool runs; a null or absent argument expects no header;
// a 2025-era request is not checked. The tools serve lists keep their
// x-mcp-header declarations, and the SDK's own client, which builds the
// headers from them, is served.
import assert from "node:assert/strict";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { Runner } from "../../run/mod.ts";
import { createHttpHandler, Gateway, serveHttp } from "../../serve/mod.ts";

const SCHEMA = {
  type: "object" as const,
  properties: {
    region: { type: "string", "x-mcp-header": "Region" },
    count: { type: "integer", "x-mcp-header": "Count" },
    dry: { type: "boolean", "x-mcp-header": "Dry" },
    note: { type: "string" },
  },
  required: ["region"],
};

type Rpc = {
  id?: unknown;
  result?: { content?: { text?: string }[]; tools?: Record<string, unknown>[] };
  error?: { code: number; message: string; data?: Record<string, unknown> };
};

/** A gateway serving `route` (which records its calls) over HTTP, in process. */
async function start(): Promise<
  { url: string; calls: Record<string, unknown>[]; close(): Promise<void> }
> {
  const calls: Record<string, unknown>[] = [];
  const runner = new Runner();
  runner.addLocalTool({ name: "route", inputSchema: SCHEMA }, (args) => {
    calls.push(args);
    return `routed ${JSON.stringify(args)}`;
  });
  runner.addLocalTool({ name: "plain", inputSchema: { type: "object" } }, () => "plain");
  const gateway = await Gateway.create(runner);
  const serving = await serveHttp(gateway, { port: 0 });
  return {
    url: serving.url,
    calls,
    async close() {
      await serving.close();
      await gateway.close();
      await runner.close();
    },
  };
}

let ids = 0;

/** A raw tools/call of `era` with `headers` (the standard ones are added). */
async function call(
  url: string,
  args: Record<string, unknown>,
  headers: Record<string, string>,
  era: "2026-07-28" | "2025-11-25" = "2026-07-28",
  name = "route",
): Promise<{ status: number; body: Rpc }> {
  const id = ++ids;
  const modern = era === "2026-07-28";
  const response = await fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": era,
      ...(modern ? { "mcp-method": "tools/call", "mcp-name": name } : {}),
      ...headers,
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id,
      method: "tools/call",
      params: {
        name,
        arguments: args,
        ...(modern
          ? {
            _meta: {
              "io.modelcontextprotocol/protocolVersion": era,
              "io.modelcontextprotocol/clientInfo": { name: "header-test", version: "1.0.0" },
              "io.modelcontextprotocol/clientCapabilities": {},
            },
          }
          : {}),
      },
    }),
  });
  const text = await response.text();
  const json = text.trimStart().startsWith("{")
    ? text
    : text.split("\n").filter((l) => l.startsWith("data: ")).at(-1)!.slice(6);
  const body = JSON.parse(json) as Rpc;
  assert.equal(body.id, id, `the answer names the request: ${json}`);
  return { status: response.status, body };
}

function refused(
  answer: { status: number; body: Rpc },
  header: string,
  reason: string,
  message: RegExp,
): void {
  assert.equal(answer.status, 400, JSON.stringify(answer.body));
  assert.equal(answer.body.error?.code, -32020);
  assert.equal(answer.body.error?.data?.header, header);
  assert.equal(answer.body.error?.data?.reason, reason);
  assert.match(answer.body.error!.message, message);
}

Deno.test("serve accepts a 2026-07-28 call whose Mcp-Param headers match its arguments (plain, Base64, numbers, booleans)", async () => {
  const served = await start();
  try {
    const plain = await call(served.url, { region: "us-west1", count: 3, dry: false }, {
      "Mcp-Param-Region": "us-west1",
      "Mcp-Param-Count": "3",
      "Mcp-Param-Dry": "false",
    });
    assert.equal(plain.status, 200);
    assert.match(plain.body.result!.content![0].text!, /^routed /);
    // Non-ASCII text travels as Base64 of its UTF-8; an integer may be sent as 3.0.
    const wrapped = await call(served.url, { region: "Zürich", count: 3 }, {
      "Mcp-Param-Region": `=?base64?${btoa("Z\xc3\xbcrich")}?=`,
      "mcp-param-count": "3.0",
    });
    assert.equal(wrapped.status, 200, JSON.stringify(wrapped.body));
    // A value that only looks like the wrapper is literal.
    const literal = await call(served.url, { region: "=?base64?SGVsbG8=" }, {
      "Mcp-Param-Region": "=?base64?SGVsbG8=",
    });
    assert.equal(literal.status, 200, JSON.stringify(literal.body));
    // A null or absent argument expects no header, and one sent anyway is ignored.
    const absent = await call(served.url, { region: "eu" }, {
      "Mcp-Param-Region": "eu",
      "Mcp-Param-Dry": "true",
    });
    assert.equal(absent.status, 200, JSON.stringify(absent.body));
    assert.equal(served.calls.length, 4);
  } finally {
    await served.close();
  }
});

Deno.test("serve refuses a 2026-07-28 call with a missing, mismatched or malformed Mcp-Param header with 400 and -32020, before the tool runs", async () => {
  const served = await start();
  try {
    refused(
      await call(served.url, { region: "us-west1" }, {}),
      "Mcp-Param-Region",
      "missing",
      /the Mcp-Param-Region header is missing, but the arguments carry region="us-west1"/,
    );
    refused(
      await call(served.url, { region: "us-west1" }, { "Mcp-Param-Region": "eu-west1" }),
      "Mcp-Param-Region",
      "mismatch",
      /carries "eu-west1", but the arguments carry region="us-west1"/,
    );
    refused(
      await call(served.url, { region: "a", count: 3 }, {
        "Mcp-Param-Region": "a",
        "Mcp-Param-Count": "4",
      }),
      "Mcp-Param-Count",
      "mismatch",
      /carries "4", but the arguments carry count=3/,
    );
    refused(
      await call(served.url, { region: "a", dry: true }, {
        "Mcp-Param-Region": "a",
        "Mcp-Param-Dry": "True",
      }),
      "Mcp-Param-Dry",
      "mismatch",
      /carries "True"/,
    );
    // Base64 without its padding, and with characters outside its alphabet.
    for (const bad of ["=?base64?SGVsbG8?=", "=?base64?SGVs!!!bG8=?=", "=?base64?/w==?="]) {
      refused(
        await call(served.url, { region: "Hello" }, { "Mcp-Param-Region": bad }),
        "Mcp-Param-Region",
        "malformed",
        /is malformed: a value must be visible ASCII, or =\?base64\?…\?= around canonical Base64/,
      );
    }
    // Base64 of other text than the argument.
    refused(
      await call(served.url, { region: "Hello" }, {
        "Mcp-Param-Region": `=?base64?${btoa("Bye")}?=`,
      }),
      "Mcp-Param-Region",
      "mismatch",
      /carries "Bye", but the arguments carry region="Hello"/,
    );
    assert.deepEqual(served.calls, [], "no refused call ran the tool");
  } finally {
    await served.close();
  }
});

Deno.test("serve refuses a huge mismatched Mcp-Param header with a short error, and serves a large matching one", async () => {
  const served = await start();
  try {
    const big = "x".repeat(32 * 1024);
    const mismatched = await call(served.url, { region: big }, { "Mcp-Param-Region": `${big}y` });
    refused(
      mismatched,
      "Mcp-Param-Region",
      "mismatch",
      /… \(3277\d characters\), but the arguments carry region="x+… \(3277\d characters\)/,
    );
    assert.ok(
      mismatched.body.error!.message.length < 1000,
      `the error quotes the values shortened (${mismatched.body.error!.message.length} characters)`,
    );
    assert.deepEqual(served.calls, []);
    const matching = await call(served.url, { region: big }, { "Mcp-Param-Region": big });
    assert.equal(matching.status, 200, JSON.stringify(matching.body).slice(0, 300));
    assert.equal(served.calls.length, 1);
    // Past the HTTP server's header limit (64 KiB): refused before serve reads it.
    const huge = "y".repeat(1024 * 1024);
    const response = await fetch(served.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": "tools/call",
        "mcp-name": "route",
        "mcp-param-region": huge,
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: {
          name: "route",
          arguments: { region: huge },
          _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28" },
        },
      }),
    });
    await response.body?.cancel();
    assert.equal(response.status, 400);
    assert.equal(served.calls.length, 1, "the huge call did not run");
  } finally {
    await served.close();
  }
});

Deno.test("serve does not check Mcp-Param headers of a 2025-era call, nor of a tool without declarations", async () => {
  const served = await start();
  try {
    const legacy = await call(
      served.url,
      { region: "us" },
      { "Mcp-Param-Region": "eu" },
      "2025-11-25",
    );
    assert.equal(legacy.status, 200, JSON.stringify(legacy.body));
    assert.equal(legacy.body.error, undefined);
    const plain = await call(served.url, {}, { "Mcp-Param-Region": "eu" }, "2026-07-28", "plain");
    assert.equal(plain.status, 200, JSON.stringify(plain.body));
    assert.equal(plain.body.error, undefined);
    assert.deepEqual(served.calls, [{ region: "us" }]);
  } finally {
    await served.close();
  }
});

Deno.test("a 2026-07-28 client sees the served tools' x-mcp-header declarations, and its own headers are accepted", async () => {
  const served = await start();
  const client = new Client({ name: "header-test", version: "1.0.0" }, {
    versionNegotiation: { mode: { pin: "2026-07-28" } },
  });
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(served.url)));
    const { tools } = await client.listTools();
    const route = tools.find((t) => t.name === "route")!;
    assert.deepEqual(route.inputSchema.properties, SCHEMA.properties);
    // The SDK's callTool builds the headers from the listing (Base64 for non-ASCII).
    const result = await client.callTool({
      name: "route",
      arguments: { region: " Zürich ", count: 7, dry: true },
    });
    assert.notEqual(result.isError, true, JSON.stringify(result));
    assert.deepEqual(served.calls, [{ region: " Zürich ", count: 7, dry: true }]);
  } finally {
    await client.close();
    await served.close();
  }
});

Deno.test("the HTTP handler refuses a mismatched Mcp-Param header without a listener too", async () => {
  const runner = new Runner();
  let ran = 0;
  runner.addLocalTool({ name: "route", inputSchema: SCHEMA }, () => String(++ran));
  const gateway = await Gateway.create(runner);
  const handler = createHttpHandler(gateway);
  try {
    const response = await handler.fetch(
      new Request("http://127.0.0.1/mcp", {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-protocol-version": "2026-07-28",
          "mcp-method": "tools/call",
          "mcp-name": "route",
          "mcp-param-region": "b",
        },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: "x1",
          method: "tools/call",
          params: {
            name: "route",
            arguments: { region: "a" },
            _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28" },
          },
        }),
      }),
    );
    assert.equal(response.status, 400);
    const body = await response.json();
    assert.equal(body.id, "x1");
    assert.equal(body.error.code, -32020);
    assert.equal(ran, 0);
  } finally {
    await handler.close();
    await gateway.close();
    await runner.close();
  }
});
