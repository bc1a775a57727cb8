// What Deno's own fetch instrumentation (OTEL_DENO=true) exports when `serve`
// calls an HTTP provider: the whole URL (`url.full`, `url.query`), as sent,
// variables resolved, and no request header. A secret in a URL query
// therefore leaves in spans no redactor of ours sees, and `serve` warns at
// start; a secret in a header does not. If Deno stops recording the query,
// the second assertion below fails: then the warning and the paragraph in
// docs/security.md can go.
import assert from "node:assert/strict";
import { httpClient, startHttp } from "./_helpers.ts";

const IN_QUERY = "query-secret-0123456789";
const IN_HEADER = "header-secret-0123456789";

Deno.test("with OTEL_DENO, serve warns of a variable in a provider's URL query; Deno's fetch spans record the query, never a header", async () => {
  const bodies: string[] = [];
  const collector = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    async (r) => {
      bodies.push(await r.text());
      return Response.json({});
    },
  );
  const provider = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (r) => {
    await r.body?.cancel();
    return Response.json({ ok: true });
  });
  const dir = await Deno.makeTempDir({ prefix: "tf-otel-url-" });
  const manifest = `${dir}/tools.yaml`;
  const base = `http://127.0.0.1:${provider.addr.port}/call`;
  await Deno.writeTextFile(
    manifest,
    [
      "version: 1",
      "providers:",
      "  inquery:",
      `    url: '${base}?api_key=\${env:Q_SECRET}'`,
      "  inheader:",
      `    url: ${base}`,
      "    headers: { X-Api-Key: '${env:H_SECRET}' }",
      "tools:",
      "  - { name: q, provider: inquery, inputSchema: { type: object } }",
      "  - { name: h, provider: inheader, inputSchema: { type: object } }",
    ].join("\n"),
  );
  const served = await startHttp([], {
    manifest,
    env: {
      Q_SECRET: IN_QUERY,
      H_SECRET: IN_HEADER,
      OTEL_DENO: "true",
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${collector.addr.port}`,
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
      OTEL_BSP_SCHEDULE_DELAY: "50",
    },
  });
  let stderr = "";
  try {
    const client = await httpClient(served.url);
    for (const name of ["q", "h"]) {
      const result = await client.callTool({ name, arguments: {} });
      assert.notEqual(result.isError, true, JSON.stringify(result));
    }
    await client.close();
    for (let i = 0; i < 100 && !bodies.join("").includes("url.query"); i++) {
      await new Promise((r) => setTimeout(r, 100));
    }
  } finally {
    stderr = served.stderr();
    await served.close();
    await collector.shutdown();
    await provider.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
  assert.match(stderr, /warning: OTEL_DENO is set and provider inquery puts a variable/);
  assert.doesNotMatch(stderr, /provider inheader/);
  const exported = bodies.join("\n");
  assert.match(exported, new RegExp(`"url\\.query"[^}]*api_key=${IN_QUERY}`));
  assert.ok(!exported.includes(IN_HEADER), "a header's secret is in no span");
  assert.ok(!stderr.includes(IN_QUERY) && !stderr.includes(IN_HEADER));
});

Deno.test("without OTEL_DENO, serve does not warn of a variable in a URL query", async () => {
  const dir = await Deno.makeTempDir({ prefix: "tf-otel-url-" });
  const manifest = `${dir}/tools.yaml`;
  await Deno.writeTextFile(
    manifest,
    [
      "version: 1",
      "providers:",
      "  inquery:",
      "    url: 'http://127.0.0.1:9/call?api_key=${env:Q_SECRET}'",
      "tools:",
      "  - { name: q, provider: inquery, inputSchema: { type: object } }",
    ].join("\n"),
  );
  const served = await startHttp([], { manifest, env: { Q_SECRET: IN_QUERY } });
  try {
    assert.doesNotMatch(served.stderr(), /OTEL_DENO/);
  } finally {
    await served.close();
    await Deno.remove(dir, { recursive: true });
  }
});
