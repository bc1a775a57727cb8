// Nothing an upstream started outlives it: a stdio server that ignores SIGTERM
// and the grandchild it forked are gone after upstream.close() and after
// `serve` stops on SIGTERM (HTTP and stdio); close() fails the requests still
// waiting for a connection instead of opening a new one; a stop while an
// upstream still starts does not wait for its deadline.
import assert from "node:assert/strict";
import { mcpUpstream, ServeError } from "../../serve/mod.ts";
import { childPids, fakeServer, waitGone } from "../run/_mcp_servers.ts";
import { caEnv, CLI, ROOT, startHttp } from "./_helpers.ts";
import {
  call,
  forkedServers,
  type Pids,
  readPidFile,
  SERVE_UPSTREAM,
  text,
} from "./_upstream_helpers.ts";

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

/** A manifest whose only server is the fake one (ignoring SIGTERM and forking); it writes its pids. */
async function forkingManifest(
  dir: string,
  pidfile: string,
  modes = "ignore-term,fork",
): Promise<string> {
  const server = fakeServer(modes, {}, [`pidfile=${pidfile}`]);
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

// `serve` starts each stdio server once: the runner lists its tools over the upstream's connection.
Deno.test("serve --http: after SIGTERM no server process is left (SIGTERM-proof, forked)", async () => {
  const dir = await Deno.makeTempDir({ prefix: "tf-serve-up-" });
  try {
    const served = await startHttp([], {
      manifest: await forkingManifest(dir, `${dir}/pids.json`),
    });
    const started = (await forkedServers(served.pid, 1)).map((d) => d.pid);
    await served.close(); // SIGTERM, then waits for serve to exit
    assert.deepEqual(await waitGone(started, 1000), [], served.stderr());
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("serve --stdio: after SIGTERM no server process is left (SIGTERM-proof, forked)", async () => {
  const dir = await Deno.makeTempDir({ prefix: "tf-serve-up-" });
  try {
    const pidfile = `${dir}/pids.json`;
    const manifest = await forkingManifest(dir, pidfile);
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", CLI, "serve", manifest, "--stdio"],
      cwd: ROOT,
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
      env: caEnv(),
      clearEnv: true,
    }).spawn();
    const stderr = new Response(child.stderr).text();
    const started = (await forkedServers(child.pid, 1)).map((d) => d.pid);
    // Serving (not still starting, which a stop ends with another status):
    // it answers an initialize.
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(
      JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: {
          protocolVersion: "2025-06-18",
          capabilities: {},
          clientInfo: { name: "t", version: "1" },
        },
      }) + "\n",
    ));
    const reader = child.stdout.getReader();
    await reader.read();
    void reader.cancel().catch(() => {});
    writer.releaseLock();
    child.kill("SIGTERM");
    const status = await child.status;
    await child.stdin.close().catch(() => {});
    assert.deepEqual(await waitGone(started, 1000), [], await stderr);
    assert.equal(status.code, 0, "serve exits by itself on SIGTERM");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("one connection: a cancelled waiting request leaves the queue; close() fails the waiting ones", async () => {
  // A tag of this test's own on the server's command line: other test files running in
  // parallel in this process start the same fixture.
  const tag = `--tag=${crypto.randomUUID()}`;
  const stdio = SERVE_UPSTREAM as { args: string[] };
  const config = { ...SERVE_UPSTREAM, args: [...stdio.args, tag] } as typeof SERVE_UPSTREAM;
  const upstream = mcpUpstream("up", config, { maxConnections: 1 });
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
  assert.deepEqual(await childPids(tag), [], "nothing reopened");
});

Deno.test("serve --stdio: SIGTERM while a server still starts stops it at once and exits 130", async () => {
  const dir = await Deno.makeTempDir({ prefix: "tf-serve-up-" });
  const pidfile = `${dir}/pids.json`;
  // `mute` never answers initialize: without the stop, serve would wait for its deadline.
  const manifest = await forkingManifest(dir, pidfile, "mute,ignore-term");
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
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const { pid } = await readPidFile(pidfile);
    child.kill("SIGTERM");
    const deadline = new Promise<"still running">((resolve) => {
      timer = setTimeout(() => resolve("still running"), 20_000);
    });
    const ended = await Promise.race([child.status.then(() => "exited" as const), deadline]);
    assert.equal(ended, "exited", "serve ends before the server's 30 s deadline");
    assert.equal((await child.status).code, 130);
    assert.match(await stderr, /serve was stopped \(SIGINT or SIGTERM\) while its servers started/);
    assert.deepEqual(await waitGone([pid], 1000), []);
  } finally {
    clearTimeout(timer);
    try {
      child.kill("SIGKILL");
    } catch { /* exited */ }
    await child.status;
    await child.stdin.close().catch(() => {});
    await stderr.catch(() => "");
    await Deno.remove(dir, { recursive: true });
  }
});
