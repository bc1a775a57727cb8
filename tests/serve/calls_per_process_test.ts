// `serve --stdio` in front of a stdio server: calls side by side share one
// process of it by default; `--upstream-calls-per-process 1` gives each call
// in flight a process of its own (one client holding at most 3 of the 4).

import assert from "node:assert/strict";
import { CLI, ROOT } from "./_helpers.ts";
import { descendants } from "./_upstream_helpers.ts";

const RAW = `${ROOT}tests/fixtures/serve/raw_stdio_upstream.ts`;

async function processesDuringCalls(flags: string[]): Promise<number> {
  const dir = await Deno.makeTempDir({ prefix: "tf-calls-per-process-" });
  const tag = `cpp-${crypto.randomUUID()}`;
  const manifest = `${dir}/tools.yaml`;
  await Deno.writeTextFile(
    manifest,
    [
      "version: 1",
      "servers:",
      "  raw:",
      `    command: ${JSON.stringify(Deno.execPath())}`,
      `    args: [run, --no-config, --quiet, ${JSON.stringify(RAW)}, ${tag}]`,
      "    protocol: legacy",
      // Served under its own name: the server's `echo`.
      "tools: []",
      "",
    ].join("\n"),
  );
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", CLI, "serve", manifest, "--stdio", ...flags],
    cwd: ROOT,
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const writer = child.stdin.getWriter();
  const send = (message: unknown) =>
    writer.write(new TextEncoder().encode(JSON.stringify(message) + "\n"));
  const lines = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  const answered = new Set<unknown>();
  const until = async (id: unknown) => {
    while (!answered.has(id)) {
      const { value, done } = await lines.read();
      if (done) throw new Error(`serve ended before answering ${id}`);
      buffer += value;
      for (let cut = buffer.indexOf("\n"); cut >= 0; cut = buffer.indexOf("\n")) {
        const message = JSON.parse(buffer.slice(0, cut));
        buffer = buffer.slice(cut + 1);
        if (message.id !== undefined) {
          assert.equal(message.error, undefined, JSON.stringify(message));
          answered.add(message.id);
        }
      }
    }
  };
  try {
    await send({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: {
        protocolVersion: "2025-06-18",
        capabilities: {},
        clientInfo: { name: "t", version: "1" },
      },
    });
    await until(0);
    await send({ jsonrpc: "2.0", method: "notifications/initialized" });
    for (let i = 1; i <= 4; i++) {
      await send({
        jsonrpc: "2.0",
        id: i,
        method: "tools/call",
        params: { name: "echo", arguments: { text: `${i}`, ms: 1500 } },
      });
    }
    await new Promise((r) => setTimeout(r, 1000));
    const running = (await descendants(child.pid)).filter((d) =>
      d.args.includes("raw_stdio_upstream.ts") && d.args.includes(tag)
    ).length;
    for (let i = 1; i <= 4; i++) {
      await until(i);
    }
    return running;
  } finally {
    await writer.close().catch(() => {});
    await lines.cancel().catch(() => {});
    await child.status;
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("serve --stdio: four calls side by side share one process of a stdio server; --upstream-calls-per-process 1 gives each its own (3 for one client)", async () => {
  assert.equal(await processesDuringCalls([]), 1);
  assert.equal(await processesDuringCalls(["--upstream-calls-per-process", "1"]), 3);
});

Deno.test("serve: --upstream-calls-per-process must be a positive whole number", async () => {
  const { code, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", CLI, "serve", "x.yaml", "--stdio", "--upstream-calls-per-process", "0"],
    cwd: ROOT,
    stdout: "null",
    stderr: "piped",
  }).output();
  assert.notEqual(code, 0);
  assert.match(
    new TextDecoder().decode(stderr),
    /--upstream-calls-per-process must be a positive whole number, got "0"/,
  );
});
