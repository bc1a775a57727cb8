// `serve` between clients and upstreams of different protocol eras. An
// upstream of both eras (`protocol: auto`) is spoken to in the era of each
// client, so 2025-era clients keep what 2026-07-28 removed (server-to-client
// requests during a call, subscriptions) and 2026-07-28 clients get that
// era's results: `resultType`, cache hints passed through, -32021 for an
// undeclared capability. A 2026-07-28 client in front of a 2025-only
// upstream works too. The harness checks some of this vacuously (a proxy's
// error text passes `tools-call-simple-text`), so the content is checked here.
import assert from "node:assert/strict";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { httpClient, ROOT, startHttp } from "./_helpers.ts";

const MANIFEST_2026 = `${ROOT}tests/fixtures/serve/manifest_2026.yaml`;
const SIMPLE_TEXT = "This is a simple text response for testing.";

/** A 2026-07-28 client (never falls back to 2025). */
async function modernClient(
  url: string,
  capabilities: Record<string, unknown> = {},
): Promise<Client> {
  const client = new Client({ name: "serve-test-2026", version: "1.0.0" }, {
    capabilities,
    versionNegotiation: { mode: { pin: "2026-07-28" } },
  });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

function textOf(result: unknown): string {
  const content = (result as { content?: { type: string; text?: string }[] }).content ?? [];
  return content.map((c) => c.text ?? "").join("");
}

Deno.test("a 2025-era client in front of an upstream of both eras is served in 2025 upstream too", async () => {
  const served = await startHttp(["--sessions"], { manifest: MANIFEST_2026 });
  const client = await httpClient(served.url, {}, { sampling: {} });
  try {
    assert.equal(textOf(await client.callTool({ name: "whoami_era", arguments: {} })), "legacy");
    // The content itself: an error text of serve would pass the harness's check.
    const simple = await client.callTool({ name: "test_simple_text", arguments: {} });
    assert.notEqual(simple.isError, true);
    assert.deepEqual(simple.content, [{ type: "text", text: SIMPLE_TEXT }]);
    const failing = await client.callTool({ name: "test_error_handling", arguments: {} });
    assert.equal(failing.isError, true);
    assert.equal(textOf(failing), "This tool intentionally returns an error for testing");
    // A server-to-client request during a call (2025 only) reaches the client.
    client.setRequestHandler("sampling/createMessage", () =>
      Promise.resolve({
        role: "assistant" as const,
        content: { type: "text" as const, text: "Paris" },
        model: "test",
      }));
    const sampled = await client.callTool({ name: "test_sampling", arguments: { prompt: "?" } });
    assert.equal(textOf(sampled), "LLM response: Paris");
    // Subscriptions (removed in 2026-07-28) and completion are forwarded.
    await client.subscribeResource({ uri: "test://watched-resource" });
    await client.unsubscribeResource({ uri: "test://watched-resource" });
    const completed = await client.complete({
      ref: { type: "ref/prompt", name: "test_prompt_with_arguments" },
      argument: { name: "arg1", value: "a" },
    });
    assert.deepEqual(completed.completion.values, ["alpha", "beta"]);
  } finally {
    await client.close();
    await served.close();
  }
});

Deno.test("a 2026-07-28 client in front of an upstream of both eras gets that era's results", async () => {
  const served = await startHttp([], { manifest: MANIFEST_2026 });
  const bare = await modernClient(served.url);
  const sampler = await modernClient(served.url, { sampling: {} });
  try {
    assert.equal(textOf(await bare.callTool({ name: "whoami_era", arguments: {} })), "modern");
    const simple = await bare.callTool({ name: "test_simple_text", arguments: {} });
    assert.deepEqual(simple.content, [{ type: "text", text: SIMPLE_TEXT }]);
    const failing = await bare.callTool({ name: "test_error_handling", arguments: {} });
    assert.equal(failing.isError, true);
    assert.equal(textOf(failing), "This tool intentionally returns an error for testing");
    // An undeclared capability the upstream needs: its -32021, not a tool error.
    await assert.rejects(
      bare.callTool({ name: "test_missing_capability", arguments: {} }),
      (error: { code?: unknown }) => error.code === -32021,
    );
    const allowed = await sampler.callTool({ name: "test_missing_capability", arguments: {} });
    assert.equal(textOf(allowed), "Success");
    // Completion is forwarded; lists carry the upstream's cache hints, and
    // serve's own tools/list its own.
    const completed = await bare.complete({
      ref: { type: "ref/prompt", name: "test_prompt_with_arguments" },
      argument: { name: "arg1", value: "a" },
    });
    assert.deepEqual(completed.completion.values, ["alpha", "beta"]);
    // deno-lint-ignore no-explicit-any
    const request = bare.request.bind(bare) as (r: any) => Promise<Record<string, unknown>>;
    const prompts = await request({ method: "prompts/list", params: {} });
    assert.equal(prompts.ttlMs, 300_000);
    assert.equal(prompts.cacheScope, "public");
    const tools = await request({ method: "tools/list", params: {} });
    assert.equal(tools.ttlMs, 60_000);
    assert.equal(tools.cacheScope, "private");
  } finally {
    await bare.close();
    await sampler.close();
    await served.close();
  }
});

Deno.test("a 2026-07-28 client in front of a 2025-only upstream gets the upstream's results", async () => {
  // The default manifest's upstream is reached with `protocol: legacy`.
  const served = await startHttp();
  const client = await modernClient(served.url);
  try {
    const simple = await client.callTool({ name: "test_simple_text", arguments: {} });
    assert.deepEqual(simple.content, [{ type: "text", text: SIMPLE_TEXT }]);
    const echoed = await client.callTool({ name: "echo", arguments: { text: "hi" } });
    assert.deepEqual(echoed.structuredContent, { echoed: "hi" });
    const prompt = await client.getPrompt({ name: "test_simple_prompt" });
    assert.equal(prompt.messages.length, 1);
    const read = await client.readResource({ uri: "test://static-text" });
    assert.equal(
      (read.contents[0] as { text: string }).text,
      "This is the content of the static text resource.",
    );
  } finally {
    await client.close();
    await served.close();
  }
});
