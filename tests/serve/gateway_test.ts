import assert from "node:assert/strict";
import { mcpBackend, type Tool } from "../../model/mod.ts";
import { Runner } from "../../run/mod.ts";
import { type AccessLogEntry, Gateway, type GatewayOptions, mcpUpstream } from "../../serve/mod.ts";
import { SERVE_UPSTREAM as UPSTREAM } from "./_upstream_helpers.ts";

async function upstreamGateway(options: GatewayOptions = {}) {
  const upstream = mcpUpstream("up", UPSTREAM, { maxConnections: 2 });
  const { tools } = await upstream.request("tools/list", {}, {}) as { tools: Tool[] };
  const runner = new Runner();
  for (const tool of tools) runner.registry.add({ ...tool, namespace: "up" }, mcpBackend("up"));
  const log: AccessLogEntry[] = [];
  const gateway = await Gateway.create(runner, {
    upstreams: [upstream],
    onAccess: (e) => log.push(e),
    ...options,
  });
  return { gateway, log };
}

Deno.test("gateway forwards an upstream result transparently: every content type and structuredContent", async () => {
  const { gateway } = await upstreamGateway();
  try {
    const mixed = await gateway.callTool("test_multiple_content_types", {}, { caller: "t" });
    assert.deepEqual(mixed.content.map((c) => c.type), ["text", "image", "resource"]);
    const audio = await gateway.callTool("test_audio_content", {}, { caller: "t" });
    assert.deepEqual(audio.content[0], {
      type: "audio",
      data: "UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=",
      mimeType: "audio/wav",
    });
    const echo = await gateway.callTool("echo", { text: "x" }, { caller: "t" });
    assert.deepEqual(echo.structuredContent, { echoed: "x" });
    const failing = await gateway.callTool("test_error_handling", {}, { caller: "t" });
    assert.equal(failing.isError, true);
    assert.match(String(failing.content[0].text), /intentionally returns an error/);
  } finally {
    await gateway.close();
  }
});

Deno.test("gateway passes progress, logging and sampling of an upstream call through to the caller", async () => {
  const { gateway } = await upstreamGateway();
  try {
    const progress: number[] = [];
    await gateway.callTool("test_tool_with_progress", {}, {
      caller: "t",
      onProgress: (p) => progress.push(p.progress),
    });
    assert.deepEqual(progress, [0, 50, 100]);
    const logs: unknown[] = [];
    await gateway.callTool("test_tool_with_logging", {}, {
      caller: "t",
      onNotification: (n) => void logs.push(n.params?.data),
    });
    assert.deepEqual(logs, [
      "Tool execution started",
      "Tool processing data",
      "Tool execution completed",
    ]);
    const sampled = await gateway.callTool("test_sampling", { prompt: "2+2?" }, {
      caller: "t",
      onRequest: (r) => {
        assert.equal(r.method, "sampling/createMessage");
        return Promise.resolve({
          role: "assistant",
          model: "m",
          content: { type: "text", text: "4" },
        });
      },
    });
    assert.equal(sampled.content[0].text, "LLM response: 4");
  } finally {
    await gateway.close();
  }
});

Deno.test("gateway checks an upstream result against the output schema and caps its size", async () => {
  const { gateway, log } = await upstreamGateway({ toolMaxOutputBytes: { "up:huge": 1000 } });
  try {
    const bad = await gateway.callTool("bad_output", {}, { caller: "t" });
    assert.equal(bad.isError, true);
    assert.match(String(bad.content[0].text), /does not match its output schema: \/n/);
    const huge = await gateway.callTool("huge", { n: 5000 }, { caller: "t" });
    assert.equal(huge.isError, true);
    assert.match(String(huge.content[0].text), /the limit is 1000/);
    assert.deepEqual(log.map((e) => e.outcome), ["invalid_output", "error"]);
  } finally {
    await gateway.close();
  }
});

Deno.test("gateway: a deadline ends an upstream call with isError and the pool keeps serving", async () => {
  const { gateway, log } = await upstreamGateway({ toolTimeouts: { "up:slow": 200 } });
  try {
    const slow = await gateway.callTool("slow", { ms: 30_000 }, { caller: "t" });
    assert.equal(slow.isError, true);
    assert.match(String(slow.content[0].text), /timed out after 200 ms/);
    assert.equal(log[0].outcome, "timeout");
    const next = await gateway.callTool("test_simple_text", {}, { caller: "t" });
    assert.equal(next.isError, undefined);
  } finally {
    await gateway.close();
  }
});

Deno.test("gateway: cancelling the caller's signal cancels the upstream call", async () => {
  const { gateway, log } = await upstreamGateway();
  try {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const result = await gateway.callTool("slow", { ms: 30_000 }, {
      caller: "t",
      signal: controller.signal,
    });
    assert.equal(result.isError, true);
    assert.equal(log[0].outcome, "cancelled");
  } finally {
    await gateway.close();
  }
});

Deno.test("gateway: an upstream that crashes mid-call gives the caller an error and is reconnected", async () => {
  const { gateway, log } = await upstreamGateway();
  try {
    const crashed = await gateway.callTool("crash", {}, { caller: "t" });
    assert.equal(crashed.isError, true);
    assert.match(String(crashed.content[0].text), /upstream server "up" failed/);
    const again = await gateway.callTool("echo", { text: "still here" }, { caller: "t" });
    assert.deepEqual(again.structuredContent, { echoed: "still here" });
    assert.deepEqual(log.map((e) => e.outcome), ["error", "ok"]);
  } finally {
    await gateway.close();
  }
});

Deno.test("gateway forwards resources, templates, prompts and completions to the upstream", async () => {
  const { gateway } = await upstreamGateway();
  try {
    assert.deepEqual(gateway.capabilities, {
      resources: { subscribe: true },
      prompts: {},
      completions: {},
    });
    const ctx = { caller: "t" };
    const { resources } = await gateway.forward("resources/list", {}, ctx) as {
      resources: { uri: string }[];
    };
    assert.ok(resources.some((r) => r.uri === "test://static-text"));
    const read = await gateway.forward("resources/read", { uri: "test://template/7/data" }, ctx);
    assert.match(JSON.stringify(read), /Data for ID: 7/);
    const prompt = await gateway.forward("prompts/get", {
      name: "test_prompt_with_arguments",
      arguments: { arg1: "a", arg2: "b" },
    }, ctx);
    assert.match(JSON.stringify(prompt), /arg1='a', arg2='b'/);
    const done = await gateway.forward("completion/complete", {
      ref: { type: "ref/prompt", name: "test_prompt_with_arguments" },
      argument: { name: "arg1", value: "x" },
    }, ctx);
    assert.deepEqual(done, { completion: { values: [], total: 0, hasMore: false } });
    // The upstream's JSON-RPC error passes through with its code and message.
    await assert.rejects(
      () => gateway.forward("resources/read", { uri: "test://missing" }, ctx),
      (e: Error & { code?: unknown }) => {
        assert.equal(typeof e.code, "number");
        assert.match(e.message, /test:\/\/missing/);
        return true;
      },
    );
  } finally {
    await gateway.close();
  }
});

Deno.test("gateway: a name clash is an error at start naming both tools; a prefix resolves it", async () => {
  const runner = new Runner();
  runner.addLocalTool({ name: "echo", inputSchema: { type: "object" } }, () => "local");
  runner.registry.add(
    { name: "echo", namespace: "up", inputSchema: { type: "object" } },
    mcpBackend("up"),
  );
  await assert.rejects(() => Gateway.create(runner), (error: Error & { code?: string }) => {
    assert.equal(error.code, "name_clash");
    assert.match(error.message, /tool "echo" and tool "up:echo" would both be served as "echo"/);
    return true;
  });
  const gateway = await Gateway.create(runner, { prefixes: { up: "up_" } });
  assert.deepEqual(gateway.listTools().map((t) => t.name), ["echo", "up_echo"]);
  await gateway.close();
});
