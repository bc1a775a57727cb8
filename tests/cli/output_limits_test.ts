// Per-tool limits through the CLI, under exactly the flags `permissions`
// prints: a module tool's `memoryMb` and `maxOutputBytes`, a provider's and a
// server's `maxOutputBytes`; the fields are refused where they do not apply.
import assert from "node:assert/strict";
import { cli, flagsFor, readFlags, tempManifest } from "./_cli.ts";

const FAULTS = new URL("../fixtures/module_tools/faults.ts", import.meta.url);
const FAKE = new URL("../fixtures/run/mcp_fake_server.ts", import.meta.url).pathname;

async function withFaults(lines: string[]): Promise<string> {
  return await tempManifest(["version: 1", ...lines].join("\n") + "\n", {
    "faults.ts": await Deno.readTextFile(FAULTS),
  });
}

Deno.test("memoryMb and maxOutputBytes on a tool that is not a module tool are manifest errors", async () => {
  const path = await tempManifest(
    [
      "version: 1",
      "tools:",
      "  - { name: a, builtin: calculate, memoryMb: 64 }",
      "  - { name: b, builtin: calculate, maxOutputBytes: 10 }",
      "  - { name: c, module: ./c.ts, inputSchema: { type: object }, memoryMb: 8 }",
      "  - { name: d, module: ./c.ts, inputSchema: { type: object }, maxOutputBytes: 0 }",
    ].join("\n"),
    { "c.ts": "export default () => 1;\n" },
  );
  const out = await cli(["validate", path], { flags: readFlags(path) });
  assert.equal(out.code, 2, out.stderr);
  assert.match(out.stderr, /:3:\d+: \/tools\/0\/memoryMb: is only allowed with `module`/);
  assert.match(out.stderr, /:4:\d+: \/tools\/1\/maxOutputBytes: is only allowed with `module`/);
  assert.match(out.stderr, /:5:\d+: \/tools\/2\/memoryMb: .*16/);
  assert.match(out.stderr, /:6:\d+: \/tools\/3\/maxOutputBytes: .*1/);
});

Deno.test("a module tool's memoryMb bounds its heap; exhausting it fails that tool alone", async () => {
  const path = await withFaults([
    "tools:",
    "  - { name: hog, module: ./faults.ts, export: fillsHeap, inputSchema: { type: object }, memoryMb: 48 }",
  ]);
  const out = await cli(["run", path, "hog", "--args", "{}", "--timeout", "120000"], {
    flags: await flagsFor(path),
  });
  assert.equal(out.code, 1, out.stderr.slice(-2000));
  assert.equal(out.stdout, "");
  assert.match(out.stderr, /tool "hog" failed: ran out of memory \(its heap limit is 48 MB/);
});

Deno.test("a module tool's maxOutputBytes caps its result: output_too_large, exit 1", async () => {
  const path = await withFaults([
    "tools:",
    "  - { name: big, module: ./faults.ts, export: big, inputSchema: { type: object }, maxOutputBytes: 1000 }",
  ]);
  const flags = await flagsFor(path);
  const over = await cli(["run", path, "big", "--args", '{"bytes":5000}'], { flags });
  assert.equal(over.code, 1, over.stderr);
  assert.equal(over.stdout, "");
  assert.match(over.stderr, /\[output_too_large\].*larger than 1000 bytes/);
  const under = await cli(["run", path, "big", "--args", '{"bytes":100}'], { flags });
  assert.equal(under.code, 0, under.stderr);
});

Deno.test("a command provider's maxOutputBytes caps its stdout: output_too_large, exit 1", async () => {
  const path = await tempManifest(
    [
      "version: 1",
      "providers:",
      "  p: { command: sh, args: ['-c', 'yes | head -c 100000'], maxOutputBytes: 1000 }",
      "tools:",
      "  - { name: t, provider: p, inputSchema: { type: object } }",
    ].join("\n"),
  );
  const out = await cli(["run", path, "t", "--args", "{}"], { flags: await flagsFor(path) });
  assert.equal(out.code, 1, out.stderr);
  assert.match(out.stderr, /\[output_too_large\].*larger than 1000 bytes/);
});

Deno.test("an MCP server's maxOutputBytes caps its messages: output_too_large, exit 1", async () => {
  const path = await tempManifest(
    [
      "version: 1",
      "servers:",
      `  fake: { command: deno, args: [run, -A, --no-config, ${FAKE}, normal], maxOutputBytes: 2000 }`,
      "tools:",
      "  - { name: big, server: fake, inputSchema: { type: object } }",
    ].join("\n"),
  );
  const flags = await flagsFor(path);
  const over = await cli(["run", path, "big", "--args", '{"bytes":10000}'], { flags });
  assert.equal(over.code, 1, over.stderr);
  assert.match(over.stderr, /\[output_too_large\] tool "big": .*larger than 2000 bytes/);
  const under = await cli(["run", path, "big", "--args", '{"bytes":100}'], { flags });
  assert.equal(under.code, 0, under.stderr);
});

Deno.test("with --events a module tool's output becomes log events on stderr, never stdout", async () => {
  const path = await tempManifest(
    [
      "version: 1",
      "tools:",
      "  - { name: chatty, module: ./chatty.ts, inputSchema: { type: object } }",
    ].join("\n"),
    {
      "chatty.ts": [
        "export default () => {",
        '  console.log("line one");',
        '  console.error("line two");',
        '  Deno.stdout.writeSync(new TextEncoder().encode("no newline"));',
        "  return { ok: true };",
        "};",
      ].join("\n"),
    },
  );
  const flags = await flagsFor(path);
  const out = await cli(["run", path, "chatty", "--args", "{}", "--events"], { flags });
  assert.equal(out.code, 0, out.stderr);
  assert.deepEqual(JSON.parse(out.stdout), { ok: true });
  const lines = out.stderr.trim().split("\n").map((l) => JSON.parse(l));
  const logs = lines.filter((l) => l.kind === "log");
  const texts = logs.map((l) => l.data.text);
  for (const text of ["line one", "line two", "no newline"]) {
    assert.ok(texts.includes(text), `${text} in ${JSON.stringify(texts)}`);
  }
  assert.ok(logs.every((l) => l.toolId === "chatty"));
  const plain = await cli(["run", path, "chatty", "--args", "{}"], { flags });
  assert.equal(plain.code, 0, plain.stderr);
  assert.deepEqual(JSON.parse(plain.stdout), { ok: true });
  assert.match(plain.stderr, /line one\n/);
});
