// The MCP client under faults, against tests/fixtures/run/mcp_fake_server.ts:
// environment policy, framing (split and merged chunks, garbage), deadlines
// per phase, process groups, start failures, the output cap, schema errors,
// progress delivered before the result, non-text content kept.
import assert from "node:assert/strict";
import { mcpBackend } from "../../../model/mod.ts";
import {
  ExecutionError,
  OutputTooLargeError,
  type ProgressUpdate,
  Runner,
  RunTimeoutError,
  type StreamEvent,
} from "../../../run/mod.ts";
import { fakeServer, waitGone } from "../_mcp_servers.ts";

const ANY = { type: "object" as const };

/** A runner with the fake server as `fake` and every fixture tool registered. */
function fakeRunner(
  modes = "normal",
  extra: Parameters<typeof fakeServer>[1] = {},
  options: string[] = [],
  timeoutMs?: number,
): Runner {
  const runner = new Runner({ mcpServers: { fake: fakeServer(modes, extra, options) }, timeoutMs });
  for (const name of ["echo", "progress", "big", "content", "env", "sleep", "split", "pids"]) {
    runner.registry.add({ name, namespace: "fake", inputSchema: ANY }, mcpBackend("fake"));
  }
  return runner;
}

async function pidsOf(runner: Runner): Promise<{ pid: number; grandchild?: number }> {
  return (await runner.run("fake:pids", {})).structured as { pid: number; grandchild?: number };
}

async function tempFile(): Promise<string> {
  return await Deno.makeTempFile({ prefix: "tf-mcp-", suffix: ".json" });
}

async function readPids(file: string): Promise<{ pid: number; grandchild?: number }> {
  for (let i = 0; i < 200; i++) {
    const text = await Deno.readTextFile(file).catch(() => "");
    if (text !== "") return JSON.parse(text);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error("the server never wrote its pid file");
}

Deno.test("a stdio server gets the safe set, the network variables, inheritEnv and env, nothing else", async () => {
  Deno.env.set("TF_FAKE_SECRET", "s3cret");
  const noProxy = Deno.env.get("NO_PROXY");
  if (noProxy === undefined) Deno.env.set("NO_PROXY", "127.0.0.1,localhost");
  const plain = fakeRunner("normal", { env: { TF_MODE: "x" } });
  const inherit = fakeRunner("normal", { inheritEnv: ["TF_FAKE_SECRET"] });
  try {
    const names = ((await plain.run("fake:env", {})).structured as { names: string[] }).names;
    assert.ok(names.includes("PATH") && names.includes("HOME"));
    assert.ok(names.includes("NO_PROXY"), "proxy variables are passed");
    assert.ok(names.includes("TF_MODE"), "env values are passed");
    assert.ok(!names.includes("TF_FAKE_SECRET"), "other variables are not");
    for (const name of ["NODE_EXTRA_CA_CERTS", "DENO_DIR", "SSL_CERT_FILE", "DENO_CERT"]) {
      if (Deno.env.get(name) !== undefined) assert.ok(names.includes(name), `${name} is passed`);
    }
    const more = ((await inherit.run("fake:env", {})).structured as { names: string[] }).names;
    assert.ok(more.includes("TF_FAKE_SECRET"), "inheritEnv names are passed");
  } finally {
    await plain.close();
    await inherit.close();
    Deno.env.delete("TF_FAKE_SECRET");
    if (noProxy === undefined) Deno.env.delete("NO_PROXY");
  }
});

Deno.test("progress notifications written in the same chunk as the result all arrive, in order, before it", async () => {
  const runner = fakeRunner();
  try {
    const events: StreamEvent[] = [];
    for await (const event of runner.runStream("fake:progress", { count: 5 })) events.push(event);
    assert.deepEqual(
      events.map((e) => e.kind),
      ["progress", "progress", "progress", "progress", "progress", "done"],
    );
    assert.deepEqual(
      events.slice(0, 5).map((e) => e.data),
      [1, 2, 3, 4, 5].map((i) => ({ progress: i, total: 5, message: `step ${i}` })),
    );
    const seen: ProgressUpdate[] = [];
    let resultSeenWith = -1;
    const result = await runner.run("fake:progress", { count: 3 }, {
      onProgress: (update) => seen.push(update),
    }).then((r) => {
      resultSeenWith = seen.length;
      return r;
    });
    assert.equal(result.structured, "done after 3");
    assert.equal(resultSeenWith, 3, "every progress event came before the result");
  } finally {
    await runner.close();
  }
});

Deno.test("a message split across chunks (inside a UTF-8 character) and garbage lines between messages", async () => {
  const runner = fakeRunner();
  const noisy = fakeRunner("noisy");
  try {
    assert.equal((await runner.run("fake:split", {})).structured, "héllo ✓ wörld");
    assert.equal((await noisy.run("fake:echo", { message: "hi" })).structured, "Echo: hi");
    assert.equal((await noisy.run("fake:split", {})).structured, "héllo ✓ wörld");
  } finally {
    await runner.close();
    await noisy.close();
  }
});

Deno.test("a server that never answers initialize fails within the run's deadline, naming tool and phase, and is stopped", async () => {
  const file = await tempFile();
  const runner = fakeRunner("mute,fork", {}, [`pidfile=${file}`]);
  try {
    const started = performance.now();
    const error = await runner.run("fake:echo", { message: "x" }, { timeoutMs: 700 })
      .catch((e) => e);
    const late = performance.now() - started - 700;
    console.log(`rejected ${late.toFixed(0)} ms after the deadline`);
    assert.ok(error instanceof RunTimeoutError, String(error));
    assert.equal(error.toolId, "fake:echo");
    assert.equal((error as unknown as { phase: string }).phase, "connect");
    assert.match(
      error.message,
      /tool "fake:echo" timed out after 700 ms .*"fake" \(phase: connect\)/,
    );
    assert.ok(late < 1000, `rejected ${late} ms after the deadline`);
    // Nobody waits for the server any more: its whole group is stopped without close().
    const { pid, grandchild } = await readPids(file);
    assert.deepEqual(await waitGone([pid, grandchild!], 5000), []);
  } finally {
    await runner.close();
    await Deno.remove(file);
  }
});

Deno.test("cancelling a run while its server starts stops the server's whole group", async () => {
  const file = await tempFile();
  const runner = fakeRunner("mute,fork", {}, [`pidfile=${file}`]);
  try {
    const controller = new AbortController();
    const pending = runner.run("fake:echo", {}, { signal: controller.signal });
    const { pid, grandchild } = await readPids(file);
    controller.abort("enough");
    assert.equal((await pending.catch((e) => e)).code, "cancelled");
    assert.deepEqual(await waitGone([pid, grandchild!], 5000), []);
  } finally {
    await runner.close();
    await Deno.remove(file);
  }
});

Deno.test("a server that answers initialize with garbage fails within the deadline and the garbage is reported", async () => {
  const runner = fakeRunner("garbage");
  try {
    const started = performance.now();
    // 2 s: time for the server process to start and write its garbage on a loaded machine.
    const error = await runner.run("fake:echo", {}, { timeoutMs: 2000 }).catch((e) => e);
    assert.ok(performance.now() - started < 3500);
    assert.equal(error.code, "timeout");
    assert.match(error.message, /phase: connect/);
    assert.match(error.message, /not JSON-RPC \(first: "Hello! I am not a JSON-RPC server\."\)/);
  } finally {
    await runner.close();
  }
});

Deno.test("the runner's timeoutMs is the deadline when the run gives none, and the call phase is named", async () => {
  const runner = fakeRunner("normal", {}, [], 400);
  try {
    // Connecting (spawning a Deno process) may take longer than 400 ms on a loaded machine.
    await runner.run("fake:echo", { message: "warm" }, { timeoutMs: 30_000 });
    const started = performance.now();
    const error = await runner.run("fake:sleep", {}).catch((e) => e);
    const late = performance.now() - started - 400;
    console.log(`rejected ${late.toFixed(0)} ms after the deadline`);
    assert.ok(late < 1000);
    assert.equal(error.code, "timeout");
    assert.equal(error.phase, "call");
    assert.match(error.message, /tool "fake:sleep" timed out after 400 ms while calling/);
    assert.equal((await runner.run("fake:echo", { message: "after" })).structured, "Echo: after");
  } finally {
    await runner.close();
  }
});

Deno.test("importMcpTools has a deadline over connect and list, and names the phase", async () => {
  const mute = new Runner({ mcpServers: { fake: fakeServer("mute") } });
  // Long enough for the server to start and connect on a loaded machine: the
  // deadline must then strike while listing.
  const slowList = new Runner({ mcpServers: { fake: fakeServer("mute-list") }, timeoutMs: 4000 });
  try {
    const connect = await mute.importMcpTools("fake", { timeoutMs: 400 }).catch((e) => e);
    assert.equal(connect.code, "timeout");
    assert.equal(connect.phase, "connect");
    assert.match(connect.message, /listing tools timed out after 400 ms/);
    const list = await slowList.importMcpTools("fake").catch((e) => e);
    assert.equal(list.code, "timeout");
    assert.equal(list.phase, "list");
  } finally {
    await mute.close();
    await slowList.close();
  }
});

Deno.test("close stops a server that ignores SIGTERM and the grandchild it forked", async () => {
  const runner = fakeRunner("ignore-term,fork");
  const { pid, grandchild } = await pidsOf(runner);
  assert.ok(grandchild !== undefined);
  await runner.close();
  assert.deepEqual(await waitGone([pid, grandchild], 1000), [], "nothing outlives close()");
});

Deno.test("a server that dies while its grandchild holds stdout is a lost connection, not a hang", async () => {
  const runner = fakeRunner("fork");
  try {
    const { pid, grandchild } = await pidsOf(runner);
    const pending = runner.run("fake:sleep", {}, { timeoutMs: 20_000 });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const started = performance.now();
    Deno.kill(pid, "SIGKILL");
    const error = await pending.catch((e) => e);
    assert.ok(error instanceof ExecutionError, String(error));
    assert.match(error.message, /closed the connection during the call/);
    assert.match(error.message, /ended by SIGKILL/);
    assert.ok(performance.now() - started < 5000);
    assert.deepEqual(await waitGone([grandchild!], 3000), []);
    assert.equal((await runner.run("fake:echo", { message: "back" })).structured, "Echo: back");
  } finally {
    await runner.close();
  }
});

Deno.test("a server that cannot verify a TLS certificate says so, with exit code and stderr", async () => {
  const runner = fakeRunner("exit-cert");
  try {
    const error = await runner.run("fake:echo", {}).catch((e) => e);
    assert.ok(error instanceof ExecutionError, String(error));
    assert.equal(error.toolId, "fake:echo");
    assert.match(error.message, /cannot connect to MCP server "fake"/);
    assert.match(error.message, /exited with code 1/);
    assert.match(error.message, /UnknownIssuer/);
    assert.match(
      error.message,
      /a TLS certificate could not be verified \(UnknownIssuer\): the server/,
    );
    assert.match(error.message, /NODE_EXTRA_CA_CERTS/);
    assert.equal(error.details.exitCode, 1);
  } finally {
    await runner.close();
  }
});

Deno.test("a server that lacks a variable names it, and says when it is set here but not passed", async () => {
  const runner = fakeRunner("exit-var");
  try {
    const error = await runner.run("fake:echo", {}).catch((e) => e);
    assert.match(error.message, /exited with code 3/);
    assert.match(
      error.message,
      /the server needs TF_FAKE_API_TOKEN, which is not set: set it in the server's env/,
    );
    Deno.env.set("TF_FAKE_API_TOKEN", "t");
    const again = await runner.run("fake:echo", {}).catch((e) => e);
    assert.match(
      again.message,
      /TF_FAKE_API_TOKEN is set here but not passed to the server .*: add "TF_FAKE_API_TOKEN" to the server's inheritEnv/,
    );
  } finally {
    Deno.env.delete("TF_FAKE_API_TOKEN");
    await runner.close();
  }
});

Deno.test("a program that does not exist is named", async () => {
  const runner = new Runner({
    mcpServers: { gone: { transport: "stdio", command: "/nonexistent/tf-mcp-server" } },
  });
  runner.registry.add({ name: "x", inputSchema: ANY }, mcpBackend("gone"));
  const error = await runner.run("x", {}).catch((e) => e);
  assert.ok(error instanceof ExecutionError);
  assert.match(error.message, /program "\/nonexistent\/tf-mcp-server" not found/);
  await runner.close();
});

Deno.test("a server configured again before and after its first use: the latest configuration runs", async () => {
  // The MCP connection layer loads on the first list or call: a configuration
  // given before then must not be lost, nor one given after.
  const runner = new Runner({
    mcpServers: { gone: { transport: "stdio", command: "/nonexistent/tf-first" } },
  });
  try {
    runner.registry.add({ name: "x", inputSchema: ANY }, mcpBackend("gone"));
    await runner.setMcpServer("gone", { transport: "stdio", command: "/nonexistent/tf-second" });
    const second = await runner.run("x", {}).catch((e) => e);
    assert.ok(second instanceof ExecutionError, String(second));
    assert.match(second.message, /program "\/nonexistent\/tf-second" not found/);
    await runner.setMcpServer("gone", { transport: "stdio", command: "/nonexistent/tf-third" });
    const third = await runner.run("x", {}).catch((e) => e);
    assert.match(third.message, /program "\/nonexistent\/tf-third" not found/);
    // A server never configured has no backend, before and after the layer loaded.
    runner.registry.add({ name: "y", inputSchema: ANY }, mcpBackend("other"));
    assert.equal((await runner.run("y", {}).catch((e) => e)).code, "no_backend");
  } finally {
    await runner.close();
  }
});

Deno.test("a runner closed before its first MCP call still connects on demand", async () => {
  const quiet = new Runner({
    mcpServers: { gone: { transport: "stdio", command: "/nonexistent/tf-mcp-server" } },
  });
  quiet.addLocalTool({ name: "one", inputSchema: ANY }, () => 1);
  assert.equal((await quiet.run("one", {})).structured, 1);
  await quiet.close();
  // Closed before the MCP layer was needed, it still connects on demand.
  quiet.registry.add({ name: "x", inputSchema: ANY }, mcpBackend("gone"));
  const error = await quiet.run("x", {}).catch((e) => e);
  assert.match(error.message, /program "\/nonexistent\/tf-mcp-server" not found/);
  await quiet.close();
});

Deno.test("a result over the server's maxOutputBytes is output_too_large; the connection keeps working", async () => {
  const runner = fakeRunner("normal", { maxOutputBytes: 100_000 });
  try {
    const { pid } = await pidsOf(runner);
    const error = await runner.run("fake:big", { bytes: 300_000 }).catch((e) => e);
    assert.ok(error instanceof OutputTooLargeError, String(error));
    assert.equal(error.code, "output_too_large");
    assert.equal(error.toolId, "fake:big");
    assert.equal(error.limitBytes, 100_000);
    assert.match(error.message, /tool "fake:big": output is larger than 100000 bytes/);
    assert.equal((await runner.run("fake:big", { bytes: 1000 })).structured, "x".repeat(1000));
    assert.equal((await pidsOf(runner)).pid, pid, "the same server answers");
  } finally {
    await runner.close();
  }
});

Deno.test("an initialize result over the cap fails the run at once with output_too_large", async () => {
  const runner = fakeRunner("normal", { maxOutputBytes: 50 });
  try {
    const started = performance.now();
    const error = await runner.run("fake:echo", {}, { timeoutMs: 20_000 }).catch((e) => e);
    assert.equal(error.code, "output_too_large", String(error));
    assert.match(error.message, /tool "fake:echo": output is larger than 50 bytes/);
    assert.ok(performance.now() - started < 5000);
  } finally {
    await runner.close();
  }
});

Deno.test("a result over the default cap (10 MiB) is output_too_large, not a closed connection", async () => {
  const runner = fakeRunner();
  try {
    const error = await runner.run("fake:big", { bytes: 11 * 1024 * 1024 }).catch((e) => e);
    assert.equal(error.code, "output_too_large", String(error));
    assert.equal(error.limitBytes, 10 * 1024 * 1024);
  } finally {
    await runner.close();
  }
});

Deno.test("a tools/list that breaks the MCP schema is an execution error naming the server and the problems", async () => {
  const runner = new Runner({ mcpServers: { bad: fakeServer("bad-list") } });
  try {
    const error = await runner.importMcpTools("bad").catch((e) => e);
    assert.ok(error instanceof ExecutionError, String(error));
    assert.match(
      error.message,
      /MCP server "bad" sent a tools\/list result that breaks the MCP schema/,
    );
    assert.match(error.message, /tools\[0\]: name must be a non-empty string \(got number 42\)/);
    assert.match(
      error.message,
      /tools\[1\] \("no-schema"\): inputSchema must be a JSON Schema object/,
    );
    assert.match(error.message, /tools\[2\] \("array-schema"\): inputSchema.type must be "object"/);
    assert.doesNotMatch(error.message, /invalid_type|ZodError|"path"/);
  } finally {
    await runner.close();
  }
});

Deno.test("images, audio, resource links, embedded resources and structuredContent are kept", async () => {
  const runner = fakeRunner();
  try {
    const result = await runner.run("fake:content", {});
    const blocks = result.structured as { type: string }[];
    assert.deepEqual(blocks.map((b) => b.type), [
      "text",
      "image",
      "audio",
      "resource_link",
      "resource",
    ]);
    assert.deepEqual(blocks[1], { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" });
    const json = JSON.parse(JSON.stringify(result));
    assert.equal(json.structured[4].resource.text, "bee");
    const structured = await runner.run("fake:content", { structured: true });
    assert.deepEqual(structured.structured, { kept: true, n: 1 });
    assert.equal(structured.mcpResult?.content.length, 5);
  } finally {
    await runner.close();
  }
});

Deno.test("a server's stderr is redacted before its tail is cut into the error", async () => {
  const runner = fakeRunner("exit-var", {
    redact: (text) => text.replaceAll("TF_FAKE_API_TOKEN", "***"),
  });
  try {
    const error = await runner.run("fake:echo", {}).catch((e) => e);
    assert.match(error.message, /exited with code 3/);
    assert.doesNotMatch(error.message, /TF_FAKE_API_TOKEN/);
    assert.doesNotMatch(String(error.details.stderrTail), /TF_FAKE_API_TOKEN/);
    assert.match(String(error.details.stderrTail), /environment variable \*\*\* is not set/);
  } finally {
    await runner.close();
  }
});
