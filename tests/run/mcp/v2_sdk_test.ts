// What the v2 SDK (@modelcontextprotocol/client 2.x) still gets wrong and we
// keep doing ourselves: progress notifications written in the same chunk as
// their response, and the stdio child's environment. Each test shows the bare
// SDK's behaviour next to the runner's.
import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/client";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { mcpBackend } from "../../../model/mod.ts";
import { childEnv, Runner } from "../../../run/mod.ts";
import { fakeServer } from "../_mcp_servers.ts";

const COUNT = 60;
const ALL = Array.from({ length: COUNT }, (_, i) => i + 1);

Deno.test("60 progress notifications and the result in one write: all 60 delivered, in order", async () => {
  const runner = new Runner({ mcpServers: { fake: fakeServer() } });
  runner.registry.add(
    { name: "progress", namespace: "fake", inputSchema: { type: "object" } },
    mcpBackend("fake"),
  );
  try {
    for (let round = 0; round < 3; round++) {
      const seen: number[] = [];
      let before = -1;
      await runner.run("fake:progress", { count: COUNT }, {
        onProgress: (update) => seen.push(update.progress),
      }).then(() => (before = seen.length));
      assert.deepEqual(seen, ALL);
      assert.equal(before, COUNT, "every notification came before the result");
    }
  } finally {
    await runner.close();
  }
});

Deno.test("the bare v2 SDK client loses progress notifications that share the result's chunk", async () => {
  const config = fakeServer();
  const client = new Client({ name: "bare", version: "0.0.0" });
  await client.connect(
    new StdioClientTransport({ command: config.command, args: config.args, stderr: "ignore" }),
  );
  try {
    let lost = 0;
    for (let round = 0; round < 3; round++) {
      const seen: number[] = [];
      await client.callTool({ name: "progress", arguments: { count: COUNT } }, {
        onprogress: (p) => seen.push(p.progress),
      });
      lost += COUNT - seen.length;
    }
    // If this fails, the SDK now delivers notifications that share a chunk with
    // the result, and our interception in run/mcp/_lifecycle.ts could go.
    assert.ok(lost > 0, "the SDK delivered every notification");
  } finally {
    await client.close();
  }
});

Deno.test("the v2 SDK's stdio environment drops the certificate and proxy variables ours keeps", () => {
  const saved = { ca: Deno.env.get("NODE_EXTRA_CA_CERTS"), proxy: Deno.env.get("HTTPS_PROXY") };
  Deno.env.set("NODE_EXTRA_CA_CERTS", "/tmp/tf-ca.pem");
  Deno.env.set("HTTPS_PROXY", "http://proxy.invalid:3128");
  try {
    const sdk = getDefaultEnvironment();
    assert.equal(sdk.NODE_EXTRA_CA_CERTS, undefined);
    assert.equal(sdk.HTTPS_PROXY, undefined);
    const ours = childEnv({});
    assert.equal(ours.NODE_EXTRA_CA_CERTS, "/tmp/tf-ca.pem");
    assert.equal(ours.HTTPS_PROXY, "http://proxy.invalid:3128");
  } finally {
    for (const [name, value] of [["NODE_EXTRA_CA_CERTS", saved.ca], ["HTTPS_PROXY", saved.proxy]]) {
      if (value === undefined) Deno.env.delete(name!);
      else Deno.env.set(name!, value);
    }
  }
});
