// The request signal `serve --http` hands the MCP SDK: Deno's
// `request.signal` in its current behaviour (the package's deno.json opts in
// with `"unstable": ["no-legacy-abort"]`): it aborts when the client goes
// away, never after a delivered response, and Deno prints no notice about
// the legacy behaviour on serve's stderr.
import assert from "node:assert/strict";
import { httpClient, startHttp } from "./_helpers.ts";

const LEGACY_NOTICE = /legacy behavior|no-legacy-abort/;

Deno.test("serve --http prints no notice about Deno's legacy request.signal on its stderr", async () => {
  const served = await startHttp([]);
  try {
    const client = await httpClient(served.url);
    await client.listTools();
    const sum = await client.callTool({
      name: "add",
      arguments: { operation: "add", a: 1, b: 2 },
    });
    assert.notEqual(sum.isError, true);
    await client.close();
    assert.doesNotMatch(served.stderr(), LEGACY_NOTICE);
  } finally {
    await served.close();
  }
  assert.doesNotMatch(served.stderr(), LEGACY_NOTICE);
});

Deno.test("serve --http: a client that goes away mid-call cancels the upstream call", async () => {
  const served = await startHttp([]);
  try {
    const gone = new AbortController();
    const call = fetch(served.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2025-06-18",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "slow", arguments: { ms: 20_000 } },
      }),
      signal: gone.signal,
    }).then(async (response) => await response.text());
    await new Promise((resolve) => setTimeout(resolve, 1500));
    gone.abort();
    await call.catch(() => {});
    const end = Date.now() + 10_000;
    while (!/"tool":"slow".*"outcome":"cancelled"/.test(served.stderr())) {
      if (Date.now() > end) {
        assert.fail(`the call was not cancelled within 10 s; serve's stderr:\n${served.stderr()}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } finally {
    await served.close();
  }
});
