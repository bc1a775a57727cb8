import assert from "node:assert/strict";
import { bufferedLines } from "../../cli/commands/_serve_access_log.ts";
import { caEnv, CLI, httpClient, MANIFEST, ROOT, startHttp } from "./_helpers.ts";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The access-log lines in serve's stderr, each parsed (a cut line fails here). */
function accessLines(stderr: string): { tool: string; outcome: string }[] {
  return stderr.split("\n").filter((line) => line.includes('"event":"tool_call"')).map((line) => {
    assert.match(line, /^\{.*\}$/, `a whole line: ${line}`);
    return JSON.parse(line);
  });
}

Deno.test("the access-log buffer writes nothing at once, then every waiting line in one write after its delay", async () => {
  const writes: string[] = [];
  const log = bufferedLines((text) => writes.push(text), { delayMs: 30 });
  try {
    log.write("a\n");
    log.write("b\n");
    assert.deepEqual(writes, []);
    await sleep(100);
    assert.deepEqual(writes, ["a\nb\n"]);
    log.write("c\n");
    log.flush();
    assert.deepEqual(writes, ["a\nb\n", "c\n"]);
    log.flush();
    assert.equal(writes.length, 2, "an empty flush writes nothing");
  } finally {
    log.close();
  }
});

Deno.test("the access-log buffer writes at once when many characters wait, and at close", () => {
  const writes: string[] = [];
  const log = bufferedLines((text) => writes.push(text), { delayMs: 60_000, maxPending: 10 });
  log.write("12345\n");
  assert.deepEqual(writes, []);
  log.write("67890\n");
  assert.deepEqual(writes, ["12345\n67890\n"]);
  log.write("last\n");
  log.close();
  assert.deepEqual(writes, ["12345\n67890\n", "last\n"]);
});

Deno.test("the access-log buffer flushes when the process ends through Deno.exit", async () => {
  const code = `
    import { bufferedLines } from ${
    JSON.stringify(new URL("../../cli/commands/_serve_access_log.ts", import.meta.url).href)
  };
    const log = bufferedLines((text) => Deno.stdout.writeSync(new TextEncoder().encode(text)), { delayMs: 60_000 });
    log.write("kept\\n");
    Deno.exit(0);
  `;
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["eval", code],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(
    new TextDecoder().decode(out.stdout),
    "kept\n",
    new TextDecoder().decode(out.stderr),
  );
});

Deno.test("serve --http stopped by SIGTERM right after many calls has logged every call, each on a whole line", async () => {
  const served = await startHttp();
  const calls = 60;
  try {
    const client = await httpClient(served.url);
    await Promise.all(
      Array.from(
        { length: calls },
        (_, i) => client.callTool({ name: "add", arguments: { operation: "add", a: i, b: 1 } }),
      ),
    );
    await client.close();
  } finally {
    await served.close(); // SIGTERM at once, then the whole of stderr
  }
  const lines = accessLines(served.stderr());
  assert.equal(lines.length, calls, served.stderr());
  assert.ok(lines.every((l) => l.tool === "add" && l.outcome === "ok"));
});

Deno.test("serve --stdio ending with its stdin has logged every call", async () => {
  const calls = 30;
  const messages = [
    {
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: {
        protocolVersion: "2025-06-18",
        capabilities: {},
        clientInfo: { name: "t", version: "1" },
      },
    },
    { jsonrpc: "2.0", method: "notifications/initialized" },
    ...Array.from({ length: calls }, (_, i) => ({
      jsonrpc: "2.0",
      id: i + 1,
      method: "tools/call",
      params: { name: "add", arguments: { operation: "add", a: i, b: 2 } },
    })),
  ];
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", CLI, "serve", MANIFEST, "--stdio"],
    cwd: ROOT,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
    env: caEnv(),
    clearEnv: true,
  }).spawn();
  const stderrText = new Response(child.stderr).text();
  const writer = child.stdin.getWriter();
  await writer.write(
    new TextEncoder().encode(messages.map((m) => JSON.stringify(m)).join("\n") + "\n"),
  );
  // Every answer first, then the end of stdin.
  const decoder = new TextDecoder();
  let stdout = "";
  const reader = child.stdout.getReader();
  while ((stdout.match(/"id":/g) ?? []).length < calls + 1) {
    const { done, value } = await reader.read();
    if (done) break;
    stdout += decoder.decode(value, { stream: true });
  }
  await writer.close();
  await reader.cancel();
  await child.status;
  const stderr = await stderrText;
  const lines = accessLines(stderr);
  assert.equal(lines.length, calls, stderr);
});
