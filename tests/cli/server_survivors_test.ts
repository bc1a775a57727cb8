// No process of a stdio MCP server outlives the CLI, even a server that ignores
// SIGTERM, stays up after its stdin closes and has a grandchild that ignores
// SIGTERM too: after a deadline, Ctrl-C (SIGINT), SIGTERM, an error and a
// normal end of `run`, and after `serve --stdio` ends by the end of its stdin
// or by SIGTERM, the server and its grandchild are gone right after the CLI
// exits. The CLI does not wait seconds for such a server either.
import assert from "node:assert/strict";
import { flagsFor, ROOT, tempManifest } from "./_cli.ts";

const STUBBORN = new URL("../fixtures/run/mcp_stubborn_server.ts", import.meta.url).pathname;
const STUBBORN_COMMAND = new URL("../fixtures/run/stubborn_command.sh", import.meta.url).pathname;
/** How long after the CLI's exit a process of the server may still be seen alive. */
const GONE_WITHIN_MS = 1000;

const TOOLS = [
  "tools:",
  "  - { name: echo, server: stubborn, inputSchema: { type: object } }",
  "  - { name: hang, server: stubborn, inputSchema: { type: object } }",
  "  - name: strict",
  "    server: stubborn",
  "    inputSchema: { type: object }",
  "    outputSchema: { type: object, required: [never], properties: { never: { type: string } } }",
];

interface Setup {
  manifest: string;
  /** Each server process appends its pid and its grandchild's; both have it in their command line. */
  pidfile: string;
  flags: string[];
}

/** A manifest with the stubborn server; `tools`: with tools declared on it (else the server's own). */
async function setup(tools = true): Promise<Setup> {
  const dir = await Deno.makeTempDir({ prefix: "tf-survivors-" });
  const pidfile = `${dir}/pids.jsonl`;
  const manifest = await tempManifest(
    [
      "version: 1",
      "servers:",
      `  stubborn: { command: deno, args: [run, -A, --no-config, ${STUBBORN}, ${pidfile}] }`,
      ...(tools ? TOOLS : []),
    ].join("\n"),
  );
  return { manifest, pidfile, flags: await flagsFor(manifest) };
}

/** The pids the server processes wrote so far. */
async function recorded(pidfile: string): Promise<number[]> {
  let text = "";
  try {
    text = await Deno.readTextFile(pidfile);
  } catch { /* none yet */ }
  return text.split("\n").filter((line) => line.trim() !== "").flatMap((line) => {
    const { pid, grandchild } = JSON.parse(line);
    return [pid, grandchild];
  });
}

/** Waits until a server process wrote its pids. */
async function started(pidfile: string, timeoutMs = 20_000): Promise<void> {
  const until = performance.now() + timeoutMs;
  while ((await recorded(pidfile)).length === 0) {
    if (performance.now() > until) {
      throw new Error(`no server wrote ${pidfile} within ${timeoutMs} ms`);
    }
    await new Promise((r) => setTimeout(r, 25));
  }
}

/**
 * The processes, not zombies, that are a recorded pid or have `pidfile` in
 * their command line (`ps`: /proc needs --allow-all under `deno test`).
 */
async function living(pidfile: string): Promise<string[]> {
  const pids = new Set(await recorded(pidfile));
  const out = await new Deno.Command("ps", {
    args: ["-eo", "pid=,stat=,args="],
    stdout: "piped",
    stderr: "null",
  }).output();
  return new TextDecoder().decode(out.stdout).split("\n").map((line) => line.trim()).filter(
    (line) => {
      const [pid, stat] = line.split(/\s+/);
      if (pid === undefined || stat === undefined || stat.startsWith("Z")) return false;
      return pids.has(Number(pid)) || line.includes(pidfile);
    },
  );
}

/** Asserts no server process is alive GONE_WITHIN_MS after the CLI exited; kills survivors. */
async function assertGone(pidfile: string, what: string): Promise<void> {
  const until = performance.now() + GONE_WITHIN_MS;
  let survivors = await living(pidfile);
  while (survivors.length > 0 && performance.now() < until) {
    await new Promise((r) => setTimeout(r, 20));
    survivors = await living(pidfile);
  }
  for (const line of survivors) {
    try {
      Deno.kill(Number(line.split(/\s+/)[0]), "SIGKILL");
    } catch { /* gone */ }
  }
  assert.deepEqual(survivors, [], `${what}: alive ${GONE_WITHIN_MS} ms after the CLI exited`);
}

interface Cli {
  child: Deno.ChildProcess;
  stdin: WritableStreamDefaultWriter<Uint8Array>;
  /** Lines of stdout as they come. */
  lines: AsyncIterator<string>;
  stdout: string[];
  stderr: Promise<string>;
}

function start(flags: string[], args: string[]): Cli {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", ...flags, "cli.ts", ...args],
    cwd: ROOT,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).spawn();
  const stdout: string[] = [];
  const lines = (async function* () {
    let buffered = "";
    for await (const chunk of child.stdout.pipeThrough(new TextDecoderStream())) {
      buffered += chunk;
      let newline: number;
      while ((newline = buffered.indexOf("\n")) >= 0) {
        const line = buffered.slice(0, newline);
        buffered = buffered.slice(newline + 1);
        stdout.push(line);
        yield line;
      }
    }
    if (buffered !== "") stdout.push(buffered);
  })();
  return {
    child,
    stdin: child.stdin.getWriter(),
    lines,
    stdout,
    stderr: new Response(child.stderr).text(),
  };
}

/** Waits for the CLI's exit, at most `ms` (then kills it and fails). */
async function exitOf(cli: Cli, ms: number): Promise<{ code: number; stderr: string }> {
  // Drain stdout so the CLI never blocks on it.
  const draining = (async () => {
    while (!(await cli.lines.next()).done) { /* collected in cli.stdout */ }
  })();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const status = await Promise.race([
    cli.child.status,
    new Promise<undefined>((r) => (timer = setTimeout(() => r(undefined), ms))),
  ]);
  clearTimeout(timer);
  if (status === undefined) {
    cli.child.kill("SIGKILL");
    await cli.child.status;
    await draining;
    await cli.stdin.close().catch(() => {});
    assert.fail(`the CLI did not exit within ${ms} ms: ${await cli.stderr}`);
  }
  await draining;
  await cli.stdin.close().catch(() => {});
  return { code: status.code, stderr: await cli.stderr };
}

/**
 * Starts the server once and kills it: Deno then has it transpiled, so a short
 * deadline is more likely reached during the call than while Deno starts it.
 */
async function warmUp(): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "tf-survivors-" });
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--no-config", STUBBORN, `${dir}/pids.jsonl`],
    stdin: "piped",
    stdout: "null",
    stderr: "null",
    detached: true,
  }).spawn();
  try {
    await started(`${dir}/pids.jsonl`);
  } finally {
    Deno.kill(-child.pid, "SIGKILL");
    await child.status;
  }
}

Deno.test("run: a stubborn stdio server and its grandchild are gone right after --timeout", async () => {
  await warmUp();
  const { manifest, pidfile, flags } = await setup();
  const cli = start(flags, ["run", manifest, "hang", "--args", "{}", "--timeout", "1000"]);
  await cli.stdin.close();
  const out = await exitOf(cli, 10_000);
  assert.equal(out.code, 1, out.stderr);
  assert.match(out.stderr, /\[timeout\] tool "hang" timed out after 1000 ms/);
  await assertGone(pidfile, "run --timeout 1000");
});

/** `run hang` stopped by `signal` once the server is up and the call is sent. */
async function runStoppedBy(signal: Deno.Signal): Promise<void> {
  const { manifest, pidfile, flags } = await setup();
  const cli = start(flags, ["run", manifest, "hang", "--args", "{}", "--timeout", "60000"]);
  await cli.stdin.close();
  await started(pidfile);
  // Let the call reach the server (initialize and tools/call are quick).
  await new Promise((r) => setTimeout(r, 500));
  const sentAt = performance.now();
  cli.child.kill(signal);
  const out = await exitOf(cli, 5000);
  const tookMs = performance.now() - sentAt;
  assert.notEqual(out.code, 0, out.stderr);
  await assertGone(pidfile, `run stopped by ${signal}`);
  assert.ok(tookMs < 2500, `the CLI took ${Math.round(tookMs)} ms to exit after ${signal}`);
}

Deno.test("run: Ctrl-C (SIGINT) mid-call leaves no process of a stubborn stdio server", async () => {
  await runStoppedBy("SIGINT");
});

Deno.test("run: SIGTERM to the CLI mid-call leaves no process of a stubborn stdio server", async () => {
  await runStoppedBy("SIGTERM");
});

Deno.test("run: after a successful call no process of a stubborn stdio server is left, without a long wait", async () => {
  const { manifest, pidfile, flags } = await setup();
  const cli = start(flags, ["run", manifest, "echo", "--args", '{"a":1}']);
  await cli.stdin.close();
  await started(pidfile);
  const from = performance.now();
  const out = await exitOf(cli, 10_000);
  assert.equal(out.code, 0, out.stderr);
  assert.match(cli.stdout.join("\n"), /echo: \{\\"a\\":1\}/);
  await assertGone(pidfile, "run after success");
  // The pids are written before initialize: the call, closing and exit take well under 2.5 s.
  const tookMs = performance.now() - from;
  assert.ok(tookMs < 2500, `the CLI took ${Math.round(tookMs)} ms to finish and close`);
});

Deno.test("run: after a failed call (output schema) no process of a stubborn stdio server is left", async () => {
  const { manifest, pidfile, flags } = await setup();
  const cli = start(flags, ["run", manifest, "strict", "--args", "{}"]);
  await cli.stdin.close();
  const out = await exitOf(cli, 10_000);
  assert.equal(out.code, 1, out.stderr);
  assert.match(out.stderr, /strict/);
  assert.ok((await recorded(pidfile)).length > 0, "the server never started");
  await assertGone(pidfile, "run after an error");
});

Deno.test("run: SIGTERM to the CLI mid-run leaves no process of a command provider that ignores it", async () => {
  const dir = await Deno.makeTempDir({ prefix: "tf-survivors-" });
  const pidfile = `${dir}/pids.jsonl`;
  const manifest = await tempManifest(
    [
      "version: 1",
      "providers:",
      `  stubborn: { command: sh, args: [${STUBBORN_COMMAND}, ${pidfile}] }`,
      "tools:",
      "  - { name: hang, provider: stubborn, inputSchema: { type: object } }",
    ].join("\n"),
  );
  const cli = start(await flagsFor(manifest), ["run", manifest, "hang", "--args", "{}"]);
  await cli.stdin.close();
  await started(pidfile);
  const sentAt = performance.now();
  cli.child.kill("SIGTERM");
  const out = await exitOf(cli, 5000);
  const tookMs = performance.now() - sentAt;
  assert.notEqual(out.code, 0, out.stderr);
  await assertGone(pidfile, "a command provider's run stopped by SIGTERM");
  assert.ok(tookMs < 2500, `the CLI took ${Math.round(tookMs)} ms to exit after SIGTERM`);
});

/** `serve --stdio` with a hanging call in flight, ended by `end`. */
async function serveEndedBy(
  end: (cli: Cli) => Promise<void>,
  what: string,
  code = 0,
): Promise<void> {
  const { manifest, pidfile, flags } = await setup(false);
  const cli = start(flags, ["serve", manifest, "--stdio"]);
  const encoder = new TextEncoder();
  const send = (message: Record<string, unknown>) =>
    cli.stdin.write(encoder.encode(JSON.stringify({ jsonrpc: "2.0", ...message }) + "\n"));
  await send({
    id: 1,
    method: "initialize",
    params: {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "test", version: "1" },
    },
  });
  // serve answers once its upstreams are connected.
  const first = await cli.lines.next();
  if (first.done) assert.fail(`serve ended before answering: ${await cli.stderr}`);
  assert.equal(JSON.parse(first.value).id, 1, first.value);
  await send({ method: "notifications/initialized" });
  await send({ id: 2, method: "tools/call", params: { name: "hang", arguments: {} } });
  await new Promise((r) => setTimeout(r, 300));
  const from = performance.now();
  await end(cli);
  const out = await exitOf(cli, 10_000);
  const tookMs = performance.now() - from;
  assert.equal(out.code, code, out.stderr);
  assert.ok((await recorded(pidfile)).length > 0, "the server never started");
  await assertGone(pidfile, what);
  assert.ok(tookMs < 2500, `${what}: the CLI took ${Math.round(tookMs)} ms to exit`);
}

Deno.test("serve --stdio: the end of stdin, a call in flight, leaves no process of a stubborn stdio server", async () => {
  await serveEndedBy((cli) => cli.stdin.close(), "serve ended by stdin EOF");
});

Deno.test("serve --stdio: SIGTERM, a call in flight, leaves no process of a stubborn stdio server", async () => {
  await serveEndedBy((cli) => {
    cli.child.kill("SIGTERM");
    return Promise.resolve();
  }, "serve ended by SIGTERM");
});

Deno.test("serve --stdio: a second signal while it closes ends the CLI at once (130), leaving no process", async () => {
  await serveEndedBy(
    async (cli) => {
      cli.child.kill("SIGTERM");
      // The stubborn server holds the close for its grace (about 1.2 s): interrupt it.
      await new Promise((r) => setTimeout(r, 100));
      cli.child.kill("SIGINT");
    },
    "serve ended by SIGTERM, then SIGINT",
    130,
  );
});
