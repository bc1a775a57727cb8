// mcpUpstream over the runner's connections: process groups (nothing outlives
// close(), even a server that ignores SIGTERM or forks), the message cap, the
// server's stderr in errors, the connect deadline, both protocol eras, and
// per-request routing of progress and server-to-client requests.
import assert from "node:assert/strict";
import { mcpUpstream, ServeError, type UpstreamRequest } from "../../serve/mod.ts";
import type { McpServerConfig } from "../../run/mod.ts";
import { childPids, fakeServer, modernStdio, waitGone } from "../run/_mcp_servers.ts";
import { caEnv, CLI, ROOT, startHttp } from "./_helpers.ts";

type Pids = { pid: number; grandchild?: number };

function text(result: Record<string, unknown>): string {
  return String((result.content as { text?: string }[])[0].text);
}

async function call(
  upstream: ReturnType<typeof mcpUpstream>,
  name: string,
  args: Record<string, unknown> = {},
): Promise<Record<string, unknown>> {
  return await upstream.request("tools/call", { name, arguments: args }, {});
}

async function readPidFile(file: string): Promise<Pids> {
  for (let i = 0; i < 400; i++) {
    const written = await Deno.readTextFile(file).catch(() => "");
    if (written !== "") return JSON.parse(written);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error("the server never wrote its pid file");
}

Deno.test("upstream.close() stops a stdio upstream that ignores SIGTERM and the grandchild it forked", async () => {
  const upstream = mcpUpstream("fake", fakeServer("ignore-term,fork"));
  const pids = JSON.parse(text(await call(upstream, "pids"))) as Pids;
  assert.ok(pids.grandchild !== undefined);
  assert.deepEqual(await waitGone([pids.pid, pids.grandchild], 0), [
    pids.pid,
    pids.grandchild,
  ], "both run before close()");
  await upstream.close();
  assert.deepEqual(
    await waitGone([pids.pid, pids.grandchild], 1000),
    [],
    "nothing outlives close()",
  );
});

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
  Deno.test(`a 2026-07-28 upstream is reached with protocol ${protocol}, one process, elicitation forwarded`, async () => {
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
      const lines = (await Deno.readTextFile(log)).trim().split("\n");
      assert.equal(lines.filter((l) => l.startsWith("start ")).length, 1, "one process");
      assert.equal(lines[1], "server/discover");
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

const SERVE_UPSTREAM: McpServerConfig = {
  transport: "stdio",
  command: Deno.execPath(),
  args: ["run", "--quiet", "-A", "tests/fixtures/serve/upstream.ts"],
  cwd: ROOT,
  env: caEnv(),
  protocol: "legacy",
};

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

/** A manifest whose only server is the fake one, ignoring SIGTERM and forking; it writes its pids. */
async function forkingManifest(dir: string, pidfile: string): Promise<string> {
  const server = fakeServer("ignore-term,fork", {}, [`pidfile=${pidfile}`]);
  const file = `${dir}/manifest.yaml`;
  await Deno.writeTextFile(
    file,
    [
      "version: 1",
      "servers:",
      "  fake:",
      `    command: ${JSON.stringify(server.command)}`,
      `    args: ${JSON.stringify(server.args)}`,
      "tools: []",
      "",
    ].join("\n"),
  );
  return file;
}

Deno.test("serve --http: after SIGTERM no upstream process is left (SIGTERM-proof, forked)", async () => {
  const dir = await Deno.makeTempDir({ prefix: "tf-serve-up-" });
  try {
    const pidfile = `${dir}/pids.json`;
    const served = await startHttp([], { manifest: await forkingManifest(dir, pidfile) });
    const { pid, grandchild } = await readPidFile(pidfile);
    assert.deepEqual(await waitGone([pid, grandchild!], 0), [pid, grandchild], "running");
    await served.close(); // SIGTERM, then waits for serve to exit
    assert.deepEqual(await waitGone([pid, grandchild!], 1000), [], served.stderr());
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("serve --stdio: after SIGTERM no upstream process is left (SIGTERM-proof, forked)", async () => {
  const dir = await Deno.makeTempDir({ prefix: "tf-serve-up-" });
  try {
    const pidfile = `${dir}/pids.json`;
    const manifest = await forkingManifest(dir, pidfile);
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", CLI, "serve", manifest, "--stdio"],
      cwd: ROOT,
      stdin: "piped",
      stdout: "null",
      stderr: "piped",
      env: caEnv(),
      clearEnv: true,
    }).spawn();
    const stderr = new Response(child.stderr).text();
    const { pid, grandchild } = await readPidFile(pidfile);
    assert.deepEqual(await waitGone([pid, grandchild!], 0), [pid, grandchild], "running");
    child.kill("SIGTERM");
    const status = await child.status;
    await child.stdin.close().catch(() => {});
    assert.deepEqual(await waitGone([pid, grandchild!], 1000), [], await stderr);
    assert.equal(status.signal, null, "serve exits by itself on SIGTERM");
  } finally {
    await Deno.remove(dir, { recursive: true });
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

Deno.test("one connection: a cancelled waiting request leaves the queue; close() fails the waiting ones", async () => {
  const upstream = mcpUpstream("up", SERVE_UPSTREAM, { maxConnections: 1 });
  let slowSettled = false;
  const slow = upstream.request("tools/call", { name: "slow", arguments: { ms: 30_000 } }, {})
    .finally(() => (slowSettled = true));
  slow.catch(() => {});
  const cancel = new AbortController();
  const cancelled = upstream.request("tools/call", { name: "echo", arguments: { text: "c" } }, {
    signal: cancel.signal,
  }).catch((e) => e);
  setTimeout(() => cancel.abort(new Error("given up")), 300);
  assert.equal((await cancelled).message, "given up");
  assert.equal(slowSettled, false, "the slow call still holds the only connection");
  const waiting = upstream.request("tools/call", { name: "echo", arguments: { text: "w" } }, {})
    .catch((e) => e);
  await new Promise((resolve) => setTimeout(resolve, 100));
  await upstream.close();
  const error = await waiting;
  assert.ok(error instanceof ServeError, String(error));
  assert.match(error.message, /upstream server "up" was closed/);
  await assert.rejects(slow);
  assert.deepEqual(await childPids("tests/fixtures/serve/upstream.ts"), [], "nothing reopened");
});
