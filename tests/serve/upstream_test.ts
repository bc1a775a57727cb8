// mcpUpstream over the runner's connections: the message cap, the server's
// stderr in errors, the connect deadline, HTTP Retry-After, both protocol
// eras, and per-request routing of progress and server-to-client requests.
import assert from "node:assert/strict";
import { mcpUpstream, ServeError, type UpstreamRequest } from "../../serve/mod.ts";
import { fakeServer, modernStdio, waitGone } from "../run/_mcp_servers.ts";
import { call, type Pids, readPidFile, SERVE_UPSTREAM, text } from "./_upstream_helpers.ts";

Deno.test("a message over the upstream's maxOutputBytes is reported and the upstream keeps serving", async () => {
  const upstream = mcpUpstream("fake", fakeServer("normal", { maxOutputBytes: 100_000 }));
  try {
    const { pid } = JSON.parse(text(await call(upstream, "pids"))) as Pids;
    const error = await call(upstream, "big", { bytes: 300_000 }).catch((e) => e);
    assert.ok(error instanceof ServeError, String(error));
    assert.equal(error.code, "upstream_unavailable");
    assert.match(
      error.message,
      /upstream server "fake" failed: output is larger than 100000 bytes/,
    );
    assert.equal((error.cause as { code?: string }).code, "output_too_large");
    assert.equal(text(await call(upstream, "big", { bytes: 1000 })), "x".repeat(1000));
    assert.equal((JSON.parse(text(await call(upstream, "pids"))) as Pids).pid, pid, "same server");
  } finally {
    await upstream.close();
  }
});

Deno.test("an upstream that fails to start is reported with its exit code and stderr", async () => {
  const upstream = mcpUpstream("fake", fakeServer("exit-var"));
  try {
    const error = await call(upstream, "echo").catch((e) => e);
    assert.ok(error instanceof ServeError, String(error));
    assert.equal(error.code, "upstream_unavailable");
    assert.match(error.message, /exited with code 3/);
    assert.match(error.message, /TF_FAKE_API_TOKEN is not set/);
  } finally {
    await upstream.close();
  }
});

Deno.test("an upstream that never answers is given up at the connect deadline and stopped", async () => {
  const file = await Deno.makeTempFile({ prefix: "tf-upstream-", suffix: ".json" });
  const upstream = mcpUpstream("fake", fakeServer("mute", {}, [`pidfile=${file}`]), {
    connectTimeoutMs: 500,
  });
  try {
    const error = await call(upstream, "echo").catch((e) => e);
    assert.ok(error instanceof ServeError, String(error));
    assert.match(error.message, /upstream server "fake" did not connect within 500 ms/);
    const { pid } = await readPidFile(file);
    assert.deepEqual(await waitGone([pid], 3000), []);
  } finally {
    await upstream.close();
    await Deno.remove(file);
  }
});

for (const protocol of ["2026-07-28", "auto"] as const) {
  Deno.test(`a 2026-07-28 upstream is reached with protocol ${protocol}, one process, elicitation and progress forwarded`, async () => {
    const log = await Deno.makeTempFile({ prefix: "tf-upstream-era-" });
    const upstream = mcpUpstream("modern", modernStdio([`log=${log}`], { protocol }));
    try {
      const era = await call(upstream, "era");
      assert.equal(text(era), "era 2026-07-28");
      assert.equal(era._meta, undefined, "the upstream's serverInfo envelope is not passed on");
      const asked: UpstreamRequest[] = [];
      const answered = await upstream.request("tools/call", { name: "ask", arguments: {} }, {
        onRequest: (request) => {
          asked.push(request);
          return Promise.resolve({ action: "accept", content: { name: "me" } });
        },
      });
      assert.equal(text(answered), "accept: me");
      assert.deepEqual(asked.map((r) => [r.method, r.params?.message]), [
        ["elicitation/create", "Who is there?"],
      ]);
      const seen: number[] = [];
      const progressed = await upstream.request("tools/call", { name: "progress", arguments: {} }, {
        onProgress: (p) => void seen.push(p.progress),
      });
      assert.equal(text(progressed), "done");
      assert.deepEqual(seen, Array.from({ length: 60 }, (_, i) => i + 1));
      const lines = (await Deno.readTextFile(log)).trim().split("\n");
      assert.equal(lines.filter((l) => l.startsWith("start ")).length, 1, "one process");
      assert.equal(lines[1], "server/discover");
      if (protocol === "auto") {
        // A second connection (the first is busy) uses the era found: no probe.
        const busy = new AbortController();
        const sleeping = upstream.request("tools/call", { name: "sleep", arguments: {} }, {
          signal: busy.signal,
        }).catch(() => undefined);
        await new Promise((resolve) => setTimeout(resolve, 100));
        assert.equal(text(await call(upstream, "era")), "era 2026-07-28");
        busy.abort();
        await sleeping;
        const more = (await Deno.readTextFile(log)).trim().split("\n");
        assert.equal(more.filter((l) => l.startsWith("start ")).length, 2, "a second process");
        assert.deepEqual(more.slice(2).map((l) => l.startsWith("start ") ? "start" : l), [
          "start",
          "tools/call",
        ]);
      }
    } finally {
      await upstream.close();
      await Deno.remove(log);
    }
  });
}

Deno.test("protocol legacy speaks 2025 to a 2026-07-28 upstream", async () => {
  const upstream = mcpUpstream("modern", modernStdio([], { protocol: "legacy" }));
  try {
    assert.equal(text(await call(upstream, "era")), "era 2025");
  } finally {
    await upstream.close();
  }
});

Deno.test("two concurrent requests: progress and sampling reach the request that caused them", async () => {
  const upstream = mcpUpstream("up", SERVE_UPSTREAM, { maxConnections: 2 });
  try {
    const seen = [0, 1].map(() => ({ progress: [] as number[], requests: [] as string[] }));
    const context = (i: number, answer: string) => ({
      onProgress: (p: { progress: number }) => void seen[i].progress.push(p.progress),
      onRequest: (r: UpstreamRequest) => {
        seen[i].requests.push(r.method);
        return Promise.resolve({
          role: "assistant",
          model: "m",
          content: { type: "text", text: answer },
        });
      },
    });
    const [progressed, sampled] = await Promise.all([
      upstream.request("tools/call", { name: "test_tool_with_progress", arguments: {} }, {
        ...context(0, "wrong"),
      }),
      upstream.request("tools/call", { name: "test_sampling", arguments: { prompt: "?" } }, {
        ...context(1, "right"),
      }),
    ]);
    assert.equal(progressed.isError, undefined);
    assert.equal(text(sampled), "LLM response: right");
    assert.deepEqual(seen, [
      { progress: [0, 50, 100], requests: [] },
      { progress: [], requests: ["sampling/createMessage"] },
    ]);
    // Two samplings at once: each answer goes back to its own request.
    const both = await Promise.all(
      ["a", "b"].map((answer) =>
        upstream.request("tools/call", { name: "test_sampling", arguments: { prompt: answer } }, {
          onRequest: (r) => {
            const prompt = (r.params?.messages as { content: { text: string } }[])[0].content.text;
            return Promise.resolve({
              role: "assistant",
              model: "m",
              content: { type: "text", text: `${answer}:${prompt}` },
            });
          },
        })
      ),
    );
    assert.deepEqual(both.map(text), ["LLM response: a:a", "LLM response: b:b"]);
  } finally {
    await upstream.close();
  }
});

Deno.test("an HTTP upstream answering 503 with Retry-After is reported with it", async () => {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    () => new Response("busy", { status: 503, headers: { "retry-after": "7" } }),
  );
  const url = `http://127.0.0.1:${server.addr.port}/mcp`;
  const upstream = mcpUpstream("busy", { transport: "http", url, protocol: "legacy" });
  try {
    const error = await call(upstream, "echo").catch((e) => e);
    assert.ok(error instanceof ServeError, String(error));
    assert.equal(error.code, "upstream_unavailable");
    assert.match(
      error.message,
      /upstream server "busy" failed: .*HTTP 503: busy \(Retry-After: 7\)/,
    );
  } finally {
    await upstream.close();
    await server.shutdown();
  }
});
