import assert from "node:assert/strict";
import { providerBackend, type Tool } from "../../../model/mod.ts";
import {
  ExecutionError,
  httpProvider,
  type HttpProviderOptions,
  OutputTooLargeError,
  Runner,
} from "../../../run/mod.ts";
import { makeTestCerts } from "../_tls.ts";

const tool: Tool = { name: "t", inputSchema: { type: "object" } };

const MB = 1024 * 1024;

/** A body of `size` bytes made on demand, counting what was pulled into `sent`. */
function lazyBody(size: number, sent: { bytes: number }): ReadableStream<Uint8Array> {
  const chunk = new Uint8Array(64 * 1024).fill(0x78); // "x"
  return new ReadableStream({
    pull(controller) {
      const n = Math.min(chunk.length, size - sent.bytes);
      if (n <= 0) return controller.close();
      sent.bytes += n;
      controller.enqueue(chunk.subarray(0, n));
    },
  }, { highWaterMark: 0 });
}

async function withServer(
  fn: (base: string, hung: { count: number }, sent: { bytes: number }) => Promise<void>,
): Promise<void> {
  const hung = { count: 0 };
  const sent = { bytes: 0 };
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
      case "/leak":
        // The secret straddles the 300-character excerpt of an error body.
        return new Response("e".repeat(290) + "S3CRET-TOKEN-VALUE" + "e".repeat(100), {
          status: 401,
        });
      case "/garbage":
        return new Response("<html>hello</html>", { status: 200 });
      case "/empty":
        return new Response(null, { status: 204 });
      case "/huge":
        return new Response(lazyBody(200 * MB, sent), { status: 200 });
      case "/huge-error":
        return new Response(lazyBody(200 * MB, sent), { status: 500 });
      case "/declared":
        return new Response("[" + "1,".repeat(2000) + "1]", {
          headers: { "content-length": String(4003) },
        });
      case "/stall":
        return new Response(
          new ReadableStream({
            start(controller) {
              controller.enqueue(new TextEncoder().encode('{"partial": ['));
              req.signal.addEventListener("abort", () => controller.close());
            },
          }),
        );
      case "/hang":
        hung.count++;
        await new Promise((resolve) => req.signal.addEventListener("abort", resolve));
        return new Response("too late");
      default:
        return new Response("no such route", { status: 404 });
    }
  });
  try {
    await fn(`http://127.0.0.1:${server.addr.port}`, hung, sent);
  } finally {
    await server.shutdown();
  }
}

function runnerFor(url: string, providerToolId = "t", extra: Partial<HttpProviderOptions> = {}) {
  const runner = new Runner({
    providers: [httpProvider({ id: "api", url, headers: { authorization: "Bearer x" }, ...extra })],
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

Deno.test("http provider fails a 200 MB response at the output cap without reading it all", async () => {
  await withServer(async (base, _hung, sent) => {
    const runner = runnerFor(`${base}/huge`); // default cap: 10 MiB
    const before = Deno.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => peak = Math.max(peak, Deno.memoryUsage().rss), 10);
    try {
      const error = await runner.run("t", {}, { timeoutMs: 60_000 }).catch((e) => e);
      assert.ok(error instanceof OutputTooLargeError, String(error));
      assert.equal(error.code, "output_too_large");
      assert.equal(error.limitBytes, 10 * MB);
      peak = Math.max(peak, Deno.memoryUsage().rss);
      assert.ok(peak - before < 100 * MB, `rss grew by ${(peak - before) / MB} MiB`);
      assert.ok(sent.bytes < 100 * MB, `the server produced ${sent.bytes / MB} MiB`);
    } finally {
      clearInterval(sampler);
      await runner.close();
    }
  });
});

Deno.test("http provider applies a configured cap, also to a declared Content-Length", async () => {
  await withServer(async (base) => {
    const small = runnerFor(`${base}/declared`, "t", { maxOutputBytes: 1000 });
    const error = await small.run("t", {}).catch((e) => e);
    assert.ok(error instanceof OutputTooLargeError);
    assert.match(error.message, /larger than 1000 bytes/);
    await small.close();
    const enough = runnerFor(`${base}/declared`, "t", { maxOutputBytes: 5000 });
    assert.equal(((await enough.run("t", {})).structured as number[]).length, 2001);
    await enough.close();
  });
});

Deno.test("http provider reads only an excerpt of a huge error body", async () => {
  await withServer(async (base, _hung, sent) => {
    const runner = runnerFor(`${base}/huge-error`);
    const error = await runner.run("t", {}, { timeoutMs: 60_000 }).catch((e) => e);
    assert.ok(error instanceof ExecutionError);
    assert.equal(error.details.status, 500);
    assert.match(error.message, /HTTP 500/);
    assert.ok(error.message.length < 600);
    assert.ok(sent.bytes < 50 * MB, `the server produced ${sent.bytes / MB} MiB`);
    await runner.close();
  });
});

Deno.test("http provider aborts a request in flight when the runner is closed", async () => {
  await withServer(async (base, hung) => {
    const runner = runnerFor(`${base}/hang`);
    const pending = runner.run("t", {}, { timeoutMs: 60_000 }).catch((e) => e);
    while (hung.count === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    await runner.close();
    const error = await pending;
    assert.equal(error.code, "execution");
    assert.match(error.message, /the runner was closed/);
  });
});

Deno.test("http provider reports arguments JSON cannot hold as a clear error", async () => {
  let fetched = 0;
  const provider = httpProvider({
    id: "api",
    url: "http://127.0.0.1:9/x",
    fetch: () => Promise.resolve(new Response(String(++fetched))),
  });
  const ctx = { toolId: "t", signal: new AbortController().signal, progress: () => {} };
  const error = await Promise.resolve(provider.call({ toolId: "t", args: { n: 1n }, tool }, ctx))
    .catch((e) => e);
  assert.ok(error instanceof ExecutionError);
  assert.match(error.message, /the arguments cannot be written as JSON: \$\.n is a BigInt/);
  assert.equal(fetched, 0, "nothing was sent");
});

Deno.test("http provider says when the server's certificate is not trusted", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const certs = await makeTestCerts(dir);
    if (certs === undefined) return; // no openssl: nothing to check here
    const server = Deno.serve(
      { hostname: "127.0.0.1", port: 0, onListen: () => {}, cert: certs.cert, key: certs.key },
      () => Response.json({ ok: true }),
    );
    try {
      const runner = runnerFor(`https://127.0.0.1:${server.addr.port}/x`);
      const error = await runner.run("t", {}).catch((e) => e);
      assert.equal(error.code, "execution");
      assert.match(error.message, /cannot reach https:\/\/127\.0\.0\.1:\d+\/x: .*UnknownIssuer/);
      assert.match(
        error.message,
        /certificate is not trusted here: start this process with DENO_CERT/,
      );
      await runner.close();
    } finally {
      await server.shutdown();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("http provider stops reading a body that stalls halfway when the deadline passes", async () => {
  await withServer(async (base) => {
    const provider = httpProvider({ id: "api", url: `${base}/stall` });
    const ctx = { toolId: "t", signal: AbortSignal.timeout(300), progress: () => {} };
    const outcome = await Promise.race([
      Promise.resolve(provider.call({ toolId: "t", args: {}, tool }, ctx)).then(
        () => "resolved",
        (e) => e,
      ),
      new Promise((resolve) => setTimeout(() => resolve("still reading after 10 s"), 10_000)),
    ]);
    assert.ok(outcome instanceof DOMException, String(outcome));
    assert.equal(outcome.name, "TimeoutError");
  });
});

Deno.test("http provider redacts a body before cutting its excerpt, so no piece of a secret shows", async () => {
  await withServer(async (base) => {
    const plain = runnerFor(`${base}/leak`);
    const cut = await plain.run("t", {}).catch((e) => e);
    assert.match(cut.message, /S3CRET-TO/, "without redact the excerpt cuts the secret");
    assert.doesNotMatch(cut.message, /S3CRET-TOKEN-VALUE/);
    await plain.close();
    const redact = (text: string) => text.replaceAll("S3CRET-TOKEN-VALUE", "***");
    const runner = runnerFor(`${base}/leak`, "t", { redact });
    const error = await runner.run("t", {}).catch((e) => e);
    assert.ok(error instanceof ExecutionError);
    assert.doesNotMatch(error.message, /S3CRET|TOKEN|VALUE/);
    assert.match(error.message, /\*\*\*/);
    assert.doesNotMatch(String(error.details.bodyExcerpt), /S3CRET/);
    await runner.close();
  });
});
