import assert from "node:assert/strict";
import { providerBackend, type Tool } from "../../model/mod.ts";
import { ExecutionError, httpProvider, Runner } from "../../run/mod.ts";

const tool: Tool = { name: "t", inputSchema: { type: "object" } };

async function withServer(
  fn: (base: string, hung: { count: number }) => Promise<void>,
): Promise<void> {
  const hung = { count: 0 };
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    const path = new URL(req.url).pathname;
    const body = await req.text();
    switch (path) {
      case "/ok/sum":
        return Response.json({
          body: JSON.parse(body),
          toolId: req.headers.get("x-tool-id"),
          auth: req.headers.get("authorization"),
          type: req.headers.get("content-type"),
        });
      case "/fail":
        return new Response("upstream exploded: " + "details ".repeat(200), { status: 502 });
      case "/garbage":
        return new Response("<html>hello</html>", { status: 200 });
      case "/empty":
        return new Response(null, { status: 204 });
      case "/hang":
        hung.count++;
        await new Promise((resolve) => req.signal.addEventListener("abort", resolve));
        return new Response("too late");
      default:
        return new Response("no such route", { status: 404 });
    }
  });
  try {
    await fn(`http://127.0.0.1:${server.addr.port}`, hung);
  } finally {
    await server.shutdown();
  }
}

function runnerFor(url: string, providerToolId = "t") {
  const runner = new Runner({
    providers: [httpProvider({ id: "api", url, headers: { authorization: "Bearer x" } })],
  });
  runner.registry.add(tool, providerBackend("api", providerToolId));
  return runner;
}

Deno.test("http provider POSTs the JSON args and returns the JSON response", async () => {
  await withServer(async (base) => {
    const runner = runnerFor(`${base}/ok/{toolId}`, "sum");
    const result = await runner.run("t", { a: 1 });
    assert.deepEqual(result.structured, {
      body: { a: 1 },
      toolId: "sum",
      auth: "Bearer x",
      type: "application/json",
    });
    await runner.close();
  });
});

Deno.test("http provider turns a status >= 400 into an execution error with a body excerpt", async () => {
  await withServer(async (base) => {
    for (const [path, status] of [["/fail", 502], ["/missing", 404]] as const) {
      const runner = runnerFor(`${base}${path}`);
      const error = await runner.run("t", {}).catch((e) => e);
      assert.ok(error instanceof ExecutionError);
      assert.equal(error.details.status, status);
      assert.match(error.message, new RegExp(`HTTP ${status}`));
      assert.ok(error.message.length < 600, "only an excerpt of the body");
      await runner.close();
    }
  });
});

Deno.test("http provider rejects a non-JSON body and maps an empty body to null", async () => {
  await withServer(async (base) => {
    const garbage = runnerFor(`${base}/garbage`);
    const error = await garbage.run("t", {}).catch((e) => e);
    assert.equal(error.code, "execution");
    assert.match(error.message, /not JSON: "<html>hello<\/html>"/);
    const empty = runnerFor(`${base}/empty`);
    assert.equal((await empty.run("t", {})).structured, null);
  });
});

Deno.test("http provider aborts a hanging request on timeout", async () => {
  await withServer(async (base, hung) => {
    const runner = runnerFor(`${base}/hang`);
    const started = performance.now();
    const error = await runner.run("t", {}, { timeoutMs: 100 }).catch((e) => e);
    assert.equal(error.code, "timeout");
    assert.ok(performance.now() - started < 1000);
    assert.equal(hung.count, 1);
    await runner.close();
  });
});

Deno.test("http provider reports an unreachable server as an execution error", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  const runner = runnerFor(`http://127.0.0.1:${port}/x`);
  const error = await runner.run("t", {}).catch((e) => e);
  assert.equal(error.code, "execution");
});
