// Protocol eras: a 2026-07-28 server (written with @modelcontextprotocol/server
// 2.x) is used in that era over stdio and Streamable HTTP without an extra
// process; `legacy` and a pinned revision are honoured; a server that exits on
// the probe is restarted once in the 2025 era; the verdict survives a restart.
import assert from "node:assert/strict";
import { mcpBackend } from "../../../model/mod.ts";
import {
  type ElicitationRequest,
  ExecutionError,
  type McpServerConfig,
  Runner,
  type RunnerOptions,
} from "../../../run/mod.ts";
import { fakeServer, modernStdio, startModernHttp } from "../_mcp_servers.ts";

const ANY = { type: "object" as const };

function runnerFor(config: McpServerConfig, options: RunnerOptions = {}): Runner {
  const runner = new Runner({ mcpServers: { s: config }, timeoutMs: 60_000, ...options });
  for (const name of ["era", "echo", "progress", "sleep", "ask"]) {
    runner.registry.add({ name, namespace: "s", inputSchema: ANY }, mcpBackend("s"));
  }
  return runner;
}

async function era(runner: Runner): Promise<unknown> {
  return (await runner.run("s:era", {})).structured;
}

/** The lines the fixture logged: "start <pid>" and each process's opening method. */
async function logged(file: string): Promise<string[]> {
  return (await Deno.readTextFile(file)).trim().split("\n");
}

function pidsIn(lines: string[]): number[] {
  return lines.filter((l) => l.startsWith("start ")).map((l) => Number(l.slice(6)));
}

async function withLog(fn: (log: string) => Promise<void>): Promise<void> {
  const log = await Deno.makeTempFile({ prefix: "tf-era-" });
  try {
    await fn(log);
  } finally {
    await Deno.remove(log);
  }
}

Deno.test("a 2026-07-28 stdio server is used in that era, probed on the same process", async () => {
  await withLog(async (log) => {
    const runner = runnerFor(modernStdio([`log=${log}`]));
    try {
      assert.equal(await era(runner), "era 2026-07-28");
      assert.equal((await runner.run("s:echo", { message: "hi" })).structured, "Echo: hi");
      assert.deepEqual((await logged(log)).filter((l) => !l.startsWith("start ")), [
        "server/discover",
      ]);
      assert.equal(pidsIn(await logged(log)).length, 1, "no extra process for the probe");
    } finally {
      await runner.close();
    }
  });
});

Deno.test("protocol legacy speaks 2025 to a 2026-07-28 server, without a probe", async () => {
  await withLog(async (log) => {
    const runner = runnerFor(modernStdio([`log=${log}`], { protocol: "legacy" }));
    try {
      assert.equal(await era(runner), "era 2025");
      assert.deepEqual((await logged(log)).filter((l) => !l.startsWith("start ")), ["initialize"]);
    } finally {
      await runner.close();
    }
  });
});

Deno.test("a pinned 2026-07-28 fails on a 2025-era server; auto falls back to 2025", async () => {
  const pinned = runnerFor(fakeServer("normal", { protocol: "2026-07-28" }));
  const auto = runnerFor(fakeServer("normal"));
  try {
    const error = await pinned.run("s:echo", { message: "x" }).catch((e) => e);
    assert.ok(error instanceof ExecutionError, String(error));
    assert.match(error.message, /2026-07-28/);
    assert.equal((await auto.run("s:echo", { message: "x" })).structured, "Echo: x");
  } finally {
    await pinned.close();
    await auto.close();
  }
});

Deno.test("a modern-only server works with auto and fails with legacy", async () => {
  const auto = runnerFor(modernStdio(["modern-only"]));
  const legacy = runnerFor(modernStdio(["modern-only"], { protocol: "legacy" }));
  try {
    assert.equal(await era(auto), "era 2026-07-28");
    const error = await legacy.run("s:era", {}).catch((e) => e);
    assert.ok(error instanceof ExecutionError, String(error));
  } finally {
    await auto.close();
    await legacy.close();
  }
});

Deno.test("a server that exits on server/discover is started once more and spoken to in 2025", async () => {
  await withLog(async (log) => {
    const runner = runnerFor(modernStdio(["exit-on-discover", `log=${log}`]));
    try {
      assert.equal(await era(runner), "era 2025");
      const lines = await logged(log);
      assert.deepEqual(lines.filter((l) => !l.startsWith("start ")), [
        "server/discover",
        "initialize",
      ]);
      // Killed: the restart remembers the verdict and does not probe again.
      const [, second] = pidsIn(lines);
      Deno.kill(second, "SIGKILL");
      await waitUntil(async () => (await era(runner).catch(() => undefined)) === "era 2025");
      const after = await logged(log);
      assert.equal(pidsIn(after).length, 3);
      assert.equal(after.at(-1), "initialize");
    } finally {
      await runner.close();
    }
  });
});

Deno.test("a restarted 2026-07-28 server is not probed again", async () => {
  await withLog(async (log) => {
    const runner = runnerFor(modernStdio([`log=${log}`]));
    try {
      assert.equal(await era(runner), "era 2026-07-28");
      Deno.kill(pidsIn(await logged(log))[0], "SIGKILL");
      await waitUntil(async () => (await era(runner).catch(() => undefined)) === "era 2026-07-28");
      const methods = (await logged(log)).filter((l) => !l.startsWith("start "));
      assert.equal(methods[0], "server/discover");
      assert.ok(methods.length === 2 && methods[1] !== "server/discover", methods.join());
    } finally {
      await runner.close();
    }
  });
});

Deno.test("progress in the 2026-07-28 era: all 60 notifications, in order, before the result", async () => {
  const runner = runnerFor(modernStdio());
  try {
    const seen: number[] = [];
    let before = -1;
    await runner.run("s:progress", {}, { onProgress: (u) => seen.push(u.progress) })
      .then(() => (before = seen.length));
    assert.equal(before, 60);
    assert.deepEqual(seen, Array.from({ length: 60 }, (_, i) => i + 1));
  } finally {
    await runner.close();
  }
});

Deno.test("over Streamable HTTP: auto uses 2026-07-28, legacy uses 2025, progress arrives", async () => {
  const server = await startModernHttp();
  const modern = runnerFor({ transport: "http", url: server.url });
  const legacy = runnerFor({ transport: "http", url: server.url, protocol: "legacy" });
  try {
    assert.equal(await era(modern), "era 2026-07-28");
    assert.equal(await era(legacy), "era 2025");
    assert.equal((await modern.run("s:echo", { message: "h" })).structured, "Echo: h");
    const seen: number[] = [];
    await modern.run("s:progress", {}, { onProgress: (u) => seen.push(u.progress) });
    assert.deepEqual(seen, Array.from({ length: 60 }, (_, i) => i + 1));
  } finally {
    await modern.close();
    await legacy.close();
    await server.stop();
  }
});

for (const transport of ["stdio", "http"] as const) {
  Deno.test(`2026-07-28 over ${transport}: aborting and a deadline end the call, the connection stays`, async () => {
    const server = transport === "http" ? await startModernHttp() : undefined;
    const asked: ElicitationRequest[] = [];
    const runner = runnerFor(
      server === undefined ? modernStdio() : { transport: "http", url: server.url },
      {
        onElicitation: (
          request,
        ) => (asked.push(request), { action: "accept", content: { name: "me" } }),
      },
    );
    try {
      assert.equal(await era(runner), "era 2026-07-28");
      const abort = new AbortController();
      const pending = runner.run("s:sleep", {}, { signal: abort.signal }).catch((e) => e);
      setTimeout(() => abort.abort(new Error("stop")), 200);
      const aborted = await pending;
      assert.equal(aborted.code, "cancelled", String(aborted));
      const late = await runner.run("s:sleep", {}, { timeoutMs: 300 }).catch((e) => e);
      assert.equal(late.code, "timeout", String(late));
      assert.equal(late.phase, "call");
      assert.equal((await runner.run("s:echo", { message: "still" })).structured, "Echo: still");
      // An elicitation comes as an input_required result and is answered by onElicitation.
      assert.equal((await runner.run("s:ask", {})).structured, "accept: me");
      assert.equal(asked.length, 1);
      assert.equal(asked[0].message, "Who is there?");
    } finally {
      await runner.close();
      await server?.stop();
    }
  });
}

Deno.test("an unknown protocol setting is an execution error naming the choices", async () => {
  const runner = runnerFor(modernStdio([], { protocol: "2025-11-25" as never }));
  try {
    const error = await runner.run("s:era", {}).catch((e) => e);
    assert.ok(error instanceof ExecutionError);
    assert.match(error.message, /unknown protocol "2025-11-25".*"auto", "legacy" or "2026-07-28"/);
  } finally {
    await runner.close();
  }
});

async function waitUntil(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error("condition never held");
}
