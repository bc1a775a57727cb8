import assert from "node:assert/strict";
import { httpClient, startHttp } from "./_helpers.ts";

Deno.test("serve emits OpenTelemetry spans per request and per tool call (OTEL_DENO=true, no exporter code)", async () => {
  const bodies: string[] = [];
  const collector = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    async (request) => {
      bodies.push(await request.text());
      return Response.json({});
    },
  );
  const endpoint = `http://127.0.0.1:${(collector.addr as Deno.NetAddr).port}`;
  const served = await startHttp([], {
    env: {
      OTEL_DENO: "true",
      OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
      OTEL_BSP_SCHEDULE_DELAY: "50",
      OTEL_SERVICE_NAME: "serve-test",
    },
  });
  try {
    const client = await httpClient(served.url);
    await client.callTool({ name: "add", arguments: { operation: "add", a: 1, b: 1 } });
    await client.listTools();
    await client.close();
    for (let i = 0; i < 100 && !bodies.join("").includes("tools/call add"); i++) {
      await new Promise((r) => setTimeout(r, 100));
    }
  } finally {
    await served.close();
    await collector.shutdown();
  }
  type Span = { name: string; attributes?: { key: string; value: { stringValue?: string } }[] };
  const spans: Span[] = [];
  for (const body of bodies) {
    try {
      for (const r of JSON.parse(body).resourceSpans ?? []) {
        for (const scope of r.scopeSpans ?? []) spans.push(...(scope.spans ?? []));
      }
    } catch { /* not a trace export */ }
  }
  const attrs = (span: Span) =>
    Object.fromEntries((span.attributes ?? []).map((a) => [a.key, a.value.stringValue]));
  const call = spans.find((s) => s.name === "tools/call add");
  assert.ok(call, `span names: ${spans.map((s) => s.name)}`);
  assert.equal(attrs(call)["gen_ai.tool.name"], "add");
  assert.equal(attrs(call)["mcp.method.name"], "tools/call");
  assert.equal(attrs(call)["network.transport"], "tcp");
  assert.ok(spans.some((s) => s.name === "tools/list"));
});

Deno.test("span names, attributes and status messages carry no secret the redactor knows", async () => {
  const bodies: string[] = [];
  const collector = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    async (request) => {
      bodies.push(await request.text());
      return Response.json({});
    },
  );
  const endpoint = `http://127.0.0.1:${(collector.addr as Deno.NetAddr).port}`;
  // The bearer token is a secret of serve's; a client that names a tool after it
  // puts it into the span name, the tool-name attribute and the error status.
  const token = "serve-token-0123456789abcdef";
  const served = await startHttp(["--token-env", "SERVE_TOKEN"], {
    env: {
      SERVE_TOKEN: token,
      OTEL_DENO: "true",
      OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
      OTEL_BSP_SCHEDULE_DELAY: "50",
      OTEL_SERVICE_NAME: "serve-test",
    },
  });
  try {
    const client = await httpClient(served.url, { authorization: `Bearer ${token}` });
    await assert.rejects(client.callTool({ name: token, arguments: {} }), /Unknown tool: \*\*\*/);
    await client.close();
    for (let i = 0; i < 100 && !bodies.join("").includes("tools/call ***"); i++) {
      await new Promise((r) => setTimeout(r, 100));
    }
  } finally {
    await served.close();
    await collector.shutdown();
  }
  const all = bodies.join("\n");
  assert.match(all, /tools\/call \*\*\*/);
  assert.ok(!all.includes(token), "the token is in an exported span");
});
