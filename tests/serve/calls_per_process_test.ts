// `serve --stdio` in front of a stdio server: calls side by side share one
// process of it by default; `--upstream-calls-per-process 1` gives each call
// in flight a process of its own (one client holding at most 3 of the 4); a
// server's `callsPerProcess` in the manifest wins over the flag.

import assert from "node:assert/strict";
import { CLI, ROOT } from "./_helpers.ts";
import { descendants } from "./_upstream_helpers.ts";

const RAW = `${ROOT}tests/fixtures/serve/raw_stdio_upstream.ts`;

/**
 * Runs `serve --stdio` in front of one raw stdio server per name of
 * `servers` (its extra manifest lines after the name), served with the
 * prefix `<name>_`; sends four 1.5 s calls of `echo` to each server at once
 * and returns how many processes of each server run while they do.
 */
async function processesDuringCalls(
  flags: string[],
  servers: Record<string, string[]> = { raw: [] },
): Promise<Record<string, number>> {
  const dir = await Deno.makeTempDir({ prefix: "tf-calls-per-process-" });
  const tags = Object.fromEntries(
    Object.keys(servers).map((name) => [name, `cpp-${crypto.randomUUID()}`]),
  );
  const manifest = `${dir}/tools.yaml`;
  await Deno.writeTextFile(
    manifest,
    [
      "version: 1",
      "servers:",
      ...Object.entries(servers).flatMap(([name, extra]) => [
        `  ${name}:`,
        `    command: ${JSON.stringify(Deno.execPath())}`,
        `    args: [run, --no-config, --quiet, ${JSON.stringify(RAW)}, ${tags[name]}]`,
        "    protocol: legacy",
        ...extra.map((line) => `    ${line}`),
      ]),
      // Served under its own name: the server's `echo`.
      "tools: []",
      "",
    ].join("\n"),
  );
  const prefixes = Object.keys(servers).flatMap((name) => ["--prefix", `${name}=${name}`]);
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", CLI, "serve", manifest, "--stdio", ...prefixes, ...flags],
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
    const ids: number[] = [];
    for (const name of Object.keys(servers)) {
      for (let i = 1; i <= 4; i++) {
        const id = ids.length + 1;
        ids.push(id);
        await send({
          jsonrpc: "2.0",
          id,
          method: "tools/call",
          params: { name: `${name}_echo`, arguments: { text: `${i}`, ms: 1500 } },
        });
      }
    }
    await new Promise((r) => setTimeout(r, 1000));
    const running = await descendants(child.pid);
    const counts = Object.fromEntries(
      Object.entries(tags).map(([name, tag]) => [
        name,
        running.filter((d) => d.args.includes("raw_stdio_upstream.ts") && d.args.includes(tag))
          .length,
      ]),
    );
    for (const id of ids) await until(id);
    return counts;
  } finally {
    await writer.close().catch(() => {});
    await lines.cancel().catch(() => {});
    await child.status;
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("serve --stdio: four calls side by side share one process of a stdio server; --upstream-calls-per-process 1 gives each its own (3 for one client)", async () => {
  assert.deepEqual(await processesDuringCalls([]), { raw: 1 });
  assert.deepEqual(await processesDuringCalls(["--upstream-calls-per-process", "1"]), { raw: 3 });
});

Deno.test("serve --stdio: a server's callsPerProcess in the manifest wins over --upstream-calls-per-process for that server only", async () => {
  // One server keeps a call's state globally (not to be shared), one is shared.
  assert.deepEqual(
    await processesDuringCalls([], { alone: ["callsPerProcess: 1"], shared: [] }),
    { alone: 3, shared: 1 },
  );
  assert.deepEqual(
    await processesDuringCalls(["--upstream-calls-per-process", "1"], {
      alone: [],
      shared: ["callsPerProcess: 4"],
    }),
    { alone: 3, shared: 1 },
  );
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

Deno.test("serve: a manifest whose server has callsPerProcess 0 is refused before anything starts, naming file, line and path", async () => {
  const dir = await Deno.makeTempDir({ prefix: "tf-calls-per-process-" });
  try {
    await Deno.writeTextFile(
      `${dir}/tools.yaml`,
      "version: 1\nservers:\n  raw:\n    command: srv\n    callsPerProcess: 0\n",
    );
    const { code, stderr } = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", CLI, "serve", `${dir}/tools.yaml`, "--stdio"],
      cwd: ROOT,
      stdin: "null",
      stdout: "null",
      stderr: "piped",
    }).output();
    assert.equal(code, 2);
    assert.match(
      new TextDecoder().decode(stderr),
      /tools\.yaml:5:22: \/servers\/raw\/callsPerProcess: must be >= 1/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
