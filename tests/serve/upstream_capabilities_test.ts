// The gateway's client offers an upstream what the downstream client offers:
// sampling, elicitation and roots as that client declared them, nothing it
// did not declare (an upstream must not ask a client for what it cannot
// answer). Connections are pooled per set of capabilities, so two clients
// with different capabilities each reach the upstream as themselves.
import assert from "node:assert/strict";
import type { Client } from "@modelcontextprotocol/client";
import { httpClient, startHttp } from "./_helpers.ts";

async function upstreamSaw(client: Client): Promise<unknown> {
  const result = await client.callTool({ name: "client_capabilities", arguments: {} });
  assert.notEqual(result.isError, true, JSON.stringify(result));
  return JSON.parse((result.content as { text: string }[])[0].text);
}

Deno.test("serve --http --sessions declares upstream the capabilities of each downstream client", async () => {
  const served = await startHttp(["--sessions"]);
  const sampler = await httpClient(served.url, {}, { sampling: {} });
  const bare = await httpClient(served.url, {}, {});
  const eliciter = await httpClient(served.url, {}, {
    elicitation: { form: {} },
    roots: { listChanged: true },
  });
  try {
    assert.deepEqual(await upstreamSaw(sampler), { sampling: {} });
    assert.deepEqual(await upstreamSaw(bare), {});
    assert.deepEqual(await upstreamSaw(eliciter), { elicitation: { form: {} }, roots: {} });
    // Interleaved: each still gets a connection declaring its own.
    const [a, b, c] = await Promise.all([
      upstreamSaw(bare),
      upstreamSaw(sampler),
      upstreamSaw(eliciter),
    ]);
    assert.deepEqual(a, {});
    assert.deepEqual(b, { sampling: {} });
    assert.deepEqual(c, { elicitation: { form: {} }, roots: {} });
    // A client without sampling gets the upstream's own answer to an
    // undeclared capability, not a sampling request it cannot serve.
    const refused = await bare.callTool({ name: "test_sampling", arguments: { prompt: "hi" } });
    assert.doesNotMatch(JSON.stringify(refused), /LLM response/);
  } finally {
    await Promise.all([sampler.close(), bare.close(), eliciter.close()]);
    await served.close();
  }
});

Deno.test("serve --http without sessions declares upstream a stateless request's own capabilities, else none", async () => {
  const { Client, StreamableHTTPClientTransport } = await import("@modelcontextprotocol/client");
  const served = await startHttp([]);
  // A 2025 request without a session: nothing tells serve what its client offers.
  const legacy = await httpClient(served.url, {}, { sampling: {}, elicitation: {} });
  // A 2026-07-28 request carries its client's capabilities in its envelope.
  const modern = new Client({ name: "modern", version: "1" }, {
    capabilities: { elicitation: { form: {} } },
    versionNegotiation: { mode: { pin: "2026-07-28" } },
  });
  await modern.connect(new StreamableHTTPClientTransport(new URL(served.url)));
  try {
    assert.deepEqual(await upstreamSaw(legacy), {});
    assert.deepEqual(await upstreamSaw(modern), { elicitation: { form: {} } });
  } finally {
    await Promise.all([legacy.close(), modern.close()]);
    await served.close();
  }
});
