// The legacy HTTP+SSE transport (`transport: "sse"`): calls, headers and an
// auth provider on the stream and on every POST, progress delivered before the
// result, the message cap, and a server that goes away mid-call.
import assert from "node:assert/strict";
import { mcpBackend } from "../../../model/mod.ts";
import {
  ExecutionError,
  type McpSseServerConfig,
  OutputTooLargeError,
  Runner,
} from "../../../run/mod.ts";
import { startSseServer } from "../../fixtures/run/mcp_sse_server.ts";
import type { AuthProvider, OAuthClientProvider } from "@modelcontextprotocol/client";
import type { McpAuthProvider } from "../../../run/mod.ts";

// Both provider kinds of the SDK fit the config's authProvider (checked by deno check).
export type SdkProvidersFit = [AuthProvider, OAuthClientProvider] extends McpAuthProvider[] ? true
  : never;
const fits: SdkProvidersFit = true;

function sseRunner(config: McpSseServerConfig): Runner {
  const runner = new Runner({ mcpServers: { sse: config }, timeoutMs: 20_000 });
  for (const name of ["echo", "headers", "progress", "big", "hang"]) {
    runner.registry.add(
      { name, namespace: "sse", inputSchema: { type: "object" } },
      mcpBackend("sse"),
    );
  }
  return runner;
}

Deno.test("the SDK's AuthProvider and OAuthClientProvider are accepted as authProvider", () => {
  assert.equal(fits, true);
});

Deno.test("an SSE server: import, calls, headers and the auth provider's token on GET and POST", async () => {
  const server = startSseServer();
  let asked = 0;
  const runner = sseRunner({
    transport: "sse",
    url: server.url,
    headers: { "X-Test": "yes" },
    authProvider: { token: () => Promise.resolve(`t${++asked}`) },
  });
  try {
    const { imported } = await runner.importMcpTools("sse", { namespace: "listed" });
    assert.equal(imported.length, 5);
    assert.equal((await runner.run("sse:echo", { message: "hi" })).structured, "Echo: hi");
    const headers = server.seen;
    assert.ok(asked > 0, "the auth provider was asked for a token");
    assert.equal(headers[0].method, "GET");
    assert.ok(headers.some((h) => h.method === "POST"));
    for (const h of headers) {
      assert.equal(h.xTest, "yes", `${h.method} carried the header`);
      assert.match(h.authorization ?? "", /^Bearer t\d+$/, `${h.method} carried the token`);
    }
  } finally {
    await runner.close();
    await server.stop();
  }
});

Deno.test("SSE: progress written with the result in one event chunk all arrives before it", async () => {
  const server = startSseServer();
  const runner = sseRunner({ transport: "sse", url: server.url });
  try {
    const seen: number[] = [];
    let before = -1;
    await runner.run("sse:progress", { count: 60 }, { onProgress: (u) => seen.push(u.progress) })
      .then(() => (before = seen.length));
    assert.equal(before, 60);
    assert.deepEqual(seen, Array.from({ length: 60 }, (_, i) => i + 1));
  } finally {
    await runner.close();
    await server.stop();
  }
});

Deno.test("SSE: a message over maxOutputBytes is output_too_large", async () => {
  const server = startSseServer();
  const runner = sseRunner({ transport: "sse", url: server.url, maxOutputBytes: 4096 });
  try {
    assert.equal((await runner.run("sse:echo", { message: "a" })).structured, "Echo: a");
    const error = await runner.run("sse:big", { bytes: 100_000 }).catch((e) => e);
    assert.ok(error instanceof OutputTooLargeError, String(error));
  } finally {
    await runner.close();
    await server.stop();
  }
});

Deno.test("SSE: a server whose stream ends mid-call is an execution error, not a hang", async () => {
  const server = startSseServer();
  const runner = sseRunner({ transport: "sse", url: server.url });
  try {
    await runner.run("sse:echo", { message: "a" });
    const pending = runner.run("sse:hang", {}).catch((e) => e);
    await new Promise((resolve) => setTimeout(resolve, 100));
    server.dropStreams();
    const error = await pending;
    assert.ok(error instanceof ExecutionError, String(error));
    assert.match(error.message, /MCP server "sse"/);
  } finally {
    await runner.close();
    await server.stop();
  }
});
