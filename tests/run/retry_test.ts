// Retries where they are safe: calls to idempotent tools are retried on
// transport failures and HTTP 429/502/503/504 with backoff, within the call's
// deadline, each retry an event; never a non-idempotent tool, never a tool error.
import assert from "node:assert/strict";
import { ExecutionError, type RetryEvent, Runner } from "../../run/mod.ts";
import { flakyServer } from "./_flaky_mcp.ts";

async function runnerFor(url: string, events: RetryEvent[], baseDelayMs = 20) {
  const runner = new Runner({
    mcpServers: { flaky: { transport: "http", url } },
    retry: { baseDelayMs },
    onRetry: (e) => events.push(e),
  });
  await runner.importMcpTools("flaky");
  return runner;
}

Deno.test("an idempotent tool is retried on 429, 503 and a reset connection, each retry an event", async () => {
  const server = flakyServer({ safe: ["429", "503", "reset"] });
  const events: RetryEvent[] = [];
  const runner = await runnerFor(server.url, events);
  try {
    const result = await runner.run("flaky:safe", {}, { timeoutMs: 20_000 });
    assert.equal(result.structured, "fine");
    assert.equal(server.calls.safe, 4);
    assert.deepEqual(events.map((e) => [e.attempt, e.reason.split(":")[0], e.status]), [
      [2, "HTTP 429", 429],
      [3, "HTTP 503", 503],
      [4, "transport", undefined],
    ]);
    assert.ok(events.every((e) => e.kind === "retry" && e.toolId === "flaky:safe"));
  } finally {
    await runner.close();
    server.close();
  }
});

Deno.test("a non-idempotent tool is not retried; a tool error is never retried", async () => {
  const server = flakyServer({ unsafe: ["503"], safe: ["tool-error"], repeat: ["502", "ok"] });
  const events: RetryEvent[] = [];
  const runner = await runnerFor(server.url, events);
  try {
    const unsafe = await runner.run("flaky:unsafe", {}).catch((e) => e);
    assert.equal(unsafe.code, "execution");
    assert.match(unsafe.message, /unavailable/);
    assert.equal(server.calls.unsafe, 1);
    const toolError = await runner.run("flaky:safe", {}).catch((e) => e);
    assert.equal(toolError.code, "tool_error");
    assert.equal(server.calls.safe, 1);
    assert.equal(events.length, 0);
    // idempotentHint alone is enough.
    assert.equal((await runner.run("flaky:repeat", {})).structured, "fine");
    assert.equal(server.calls.repeat, 2);
    assert.equal(events.length, 1);
  } finally {
    await runner.close();
    server.close();
  }
});

Deno.test("retries stop within the call's deadline and after maxAttempts; the last error is kept", async () => {
  const server = flakyServer({ safe: Array(50).fill("503"), repeat: Array(50).fill("503") });
  const events: RetryEvent[] = [];
  // The deadline alone stops the first call: 50 attempts allowed, waits drawn
  // from [0, 40 ms · 2^n) (full jitter, so their sum varies from run to run).
  const deadlineOnly = new Runner({
    mcpServers: { flaky: { transport: "http", url: server.url } },
    retry: { baseDelayMs: 40, maxAttempts: 50 },
    onRetry: (e) => events.push(e),
  });
  await deadlineOnly.importMcpTools("flaky");
  const runner = await runnerFor(server.url, events, 400);
  try {
    const started = performance.now();
    const error = await deadlineOnly.run("flaky:safe", {}, { timeoutMs: 600 }).catch((e) => e);
    const elapsed = performance.now() - started;
    assert.match(error.message, /unavailable/);
    assert.ok(server.calls.safe >= 2 && server.calls.safe < 50, `${server.calls.safe} calls`);
    // It gives up before the deadline rather than sleeping past it (slack for a loaded machine).
    assert.ok(elapsed < 600 + 400, `${elapsed} ms`);
    const capped = await runner.run("flaky:repeat", {}, { timeoutMs: 60_000 }).catch((e) => e);
    assert.match(capped.message, /unavailable/);
    assert.equal(server.calls.repeat, 4); // maxAttempts 4
  } finally {
    await deadlineOnly.close();
    await runner.close();
    server.close();
  }
});

Deno.test("Retry-After carried by a failure sets the least wait", async () => {
  const events: RetryEvent[] = [];
  const runner = new Runner({ retry: { baseDelayMs: 1 }, onRetry: (e) => events.push(e) });
  let calls = 0;
  runner.addLocalTool(
    { name: "idem", inputSchema: { type: "object" }, annotations: { idempotentHint: true } },
    () => {
      if (++calls === 1) {
        throw new ExecutionError("HTTP 429", { details: { status: 429, retryAfter: "1" } });
      }
      return "done";
    },
  );
  const started = performance.now();
  assert.equal((await runner.run("idem", {})).structured, "done");
  assert.ok(performance.now() - started >= 990);
  assert.equal(events[0].delayMs, 1000);
  // A Retry-After beyond the deadline gives up at once.
  calls = 0;
  const error = await runner.run("idem", {}, { timeoutMs: 300 }).catch((e) => e);
  assert.equal(error.code, "execution");
  await runner.close();
});

Deno.test("an MCP server's Retry-After over Streamable HTTP sets the wait before the retry", async () => {
  const server = flakyServer({ safe: ["429-wait"] });
  const events: RetryEvent[] = [];
  const runner = await runnerFor(server.url, events);
  try {
    const result = await runner.run("flaky:safe", {}, { timeoutMs: 20_000 });
    assert.equal(result.structured, "fine");
    assert.equal(events.length, 1);
    assert.equal(events[0].status, 429);
    assert.ok(events[0].delayMs >= 1000, `waited ${events[0].delayMs} ms, Retry-After says 1 s`);
  } finally {
    await runner.close();
    server.close();
  }
});
