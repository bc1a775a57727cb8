// Tools of an upstream that speaks both eras and lists different tools in
// each: a tool call goes to the side that lists the tool, so a 2025-era
// client can call a tool the upstream lists only in 2026-07-28 (serve's
// catalog is the 2026-07-28 list). An upstream whose 2025 list is garbage is
// routed by the client's era alone, as before.
import assert from "node:assert/strict";
import { mcpUpstream } from "../../serve/mod.ts";
import { httpClient, ROOT, startHttp } from "./_helpers.ts";
import { startUpstream2026 } from "./_upstream_2026.ts";

function textOf(result: unknown): string {
  const content = (result as { content?: { type: string; text?: string }[] }).content ?? [];
  return content.map((c) => c.text ?? "").join("");
}

async function eraOf(
  upstream: ReturnType<typeof mcpUpstream>,
  tool: string,
  clientEra: "legacy" | "modern",
): Promise<string> {
  return textOf(
    await upstream.request("tools/call", { name: tool, arguments: {} }, { clientEra }),
  );
}

Deno.test("mcpUpstream of both eras: a 2025-era client's call of a tool listed only in 2026-07-28 goes to that side; others stay in the client's era", async () => {
  const fixture = await startUpstream2026();
  const upstream = mcpUpstream("up", { transport: "http", url: fixture.url, protocol: "auto" });
  try {
    await upstream.capabilities();
    assert.equal(await eraOf(upstream, "whoami_era_modern_only", "legacy"), "modern");
    assert.equal(await eraOf(upstream, "whoami_era", "legacy"), "legacy");
    assert.equal(await eraOf(upstream, "whoami_era", "modern"), "modern");
    assert.equal(await eraOf(upstream, "whoami_era_modern_only", "modern"), "modern");
  } finally {
    await upstream.close();
    await fixture.close();
  }
});

Deno.test("mcpUpstream of both eras whose 2025 tools/list is garbage: calls are routed by the client's era alone", async () => {
  const fixture = await startUpstream2026({ UPSTREAM_2026_LEGACY_TOOLS: "garbage" });
  const upstream = mcpUpstream("up", { transport: "http", url: fixture.url, protocol: "auto" });
  try {
    const capabilities = await upstream.capabilities();
    assert.ok(capabilities.tools !== undefined);
    assert.equal(await eraOf(upstream, "whoami_era", "legacy"), "legacy");
    assert.equal(await eraOf(upstream, "whoami_era_modern_only", "legacy"), "legacy");
    assert.equal(await eraOf(upstream, "whoami_era", "modern"), "modern");
  } finally {
    await upstream.close();
    await fixture.close();
  }
});

Deno.test("serve --http --sessions: a 2025-era client lists and calls a tool its upstream lists only in 2026-07-28", async () => {
  const served = await startHttp(["--sessions"], {
    manifest: `${ROOT}tests/fixtures/serve/manifest_2026.yaml`,
  });
  const client = await httpClient(served.url);
  try {
    const { tools } = await client.listTools();
    assert.ok(tools.some((t) => t.name === "whoami_era_modern_only"));
    const only = await client.callTool({ name: "whoami_era_modern_only", arguments: {} });
    assert.equal(textOf(only), "modern", `serve's stderr:\n${served.stderr()}`);
    const both = await client.callTool({ name: "whoami_era", arguments: {} });
    assert.equal(textOf(both), "legacy");
  } finally {
    await client.close().catch(() => {});
    await served.close();
  }
});
