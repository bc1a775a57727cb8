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
