// Module tools through the CLI, as a user runs them: `deno run` with the flags
// `permissions` prints; the library side is tested in tests/run/module/.
import assert from "node:assert/strict";
import { shellWords } from "./_cli.ts";

const FIXTURES = new URL("../fixtures/module_tools/", import.meta.url);

// ---- Through the CLI, as a user runs it: `deno run` with the flags `permissions` prints.

const ROOT = new URL("../../", import.meta.url).pathname;

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
  ms: number;
}

async function cli(args: string[], flags: string[]): Promise<Outcome> {
  const started = Date.now();
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", ...flags, "cli.ts", ...args],
    cwd: ROOT,
    stdin: "null",
    env: { NO_COLOR: "1" },
  }).output();
  const dec = new TextDecoder();
  return {
    code: out.code,
    stdout: dec.decode(out.stdout),
    stderr: dec.decode(out.stderr),
    ms: Date.now() - started,
  };
}

/** A manifest of module tools over the fixtures, and the flags `permissions` prints for it. */
async function cliManifest(tools: string[]): Promise<{ manifest: string; flags: string[] }> {
  const dir = await Deno.makeTempDir({ prefix: "tf-mod-cli-" });
  for (const file of ["chatty.ts", "colored.ts", "faults.ts", "fs.ts"]) {
    await Deno.copyFile(new URL(file, FIXTURES), `${dir}/${file}`);
  }
  const manifest = `${dir}/tools.yaml`;
  await Deno.writeTextFile(manifest, ["version: 1", "tools:", ...tools].join("\n") + "\n");
  const printed = await cli(["permissions", manifest], [
    `--allow-read=${manifest}`,
  ]);
  assert.equal(printed.code, 0, printed.stderr);
  const line = printed.stdout.split("\n")[0];
  const words = shellWords(line); // `'--allow-env=...,npm_config_*,...'` is quoted
  const flags = words.slice(2, words.indexOf("cli.ts"));
  // Module tools run in a child `deno`: `permissions` lists it (and `kill` for its group).
  assert.ok(flags.includes(`--allow-run=${Deno.execPath()},kill`), flags.join(" "));
  return { manifest, flags };
}

function tool(name: string, file: string, exportName: string, extra = ""): string[] {
  return [
    `  - name: ${name}`,
    `    module: ./${file}`,
    `    export: ${exportName}`,
    "    inputSchema: { type: object }",
    ...(extra === "" ? [] : [`    ${extra}`]),
  ];
}

Deno.test("CLI: a module tool that prints leaves stdout holding only the result JSON", async () => {
  const { manifest, flags } = await cliManifest(tool("chatty", "chatty.ts", "default"));
  const out = await cli(["run", manifest, "chatty", "--args", '{"x":1}'], flags);
  assert.equal(out.code, 0, out.stderr);
  assert.deepEqual(JSON.parse(out.stdout), { args: { x: 1 }, calls: 1 });
  assert.match(out.stderr, /chatty: console\.log/);
  assert.match(out.stderr, /chatty: Deno\.stdout without newline/);
  assert.match(out.stderr, /\{"forged":true\}/);
});

Deno.test("CLI: a module tool's terminal colours are stripped off a terminal, even cut across writes", async () => {
  const { manifest, flags } = await cliManifest(tool("colored", "colored.ts", "default"));
  const out = await cli(["run", manifest, "colored", "--args", "{}"], flags);
  assert.equal(out.code, 0, out.stderr);
  assert.equal(out.stderr.includes("\x1b"), false, JSON.stringify(out.stderr));
  assert.match(out.stderr, /^red alert\nprogress green done\nlink text\n/m);
  const events = await cli(["run", manifest, "colored", "--args", "{}", "--events"], flags);
  assert.equal(events.code, 0, events.stderr);
  const logs = events.stderr.trim().split("\n").map((l) => JSON.parse(l))
    .filter((e) => e.kind === "log").map((e) => e.data.text);
  assert.deepEqual(logs, ["red alert", "progress green done", "link text"]);
});

Deno.test("CLI: no module tool process outlives the CLI", async () => {
  const { manifest, flags } = await cliManifest(tool("pid", "chatty.ts", "pid"));
  const out = await cli(["run", manifest, "pid"], flags);
  assert.equal(out.code, 0, out.stderr);
  const { pid } = JSON.parse(out.stdout) as { pid: number };
  let alive = true;
  for (let i = 0; i < 20 && alive; i++) {
    alive = await Deno.stat(`/proc/${pid}`).then(() => true, () => false);
    if (alive) await new Promise((r) => setTimeout(r, 100));
  }
  assert.equal(alive, false, `module tool process ${pid} outlived the CLI`);
});

Deno.test("CLI: Deno.exit or an uncaught error in a module tool is its failure at once, exit 1", async () => {
  const { manifest, flags } = await cliManifest([
    ...tool("exits", "faults.ts", "exits"),
    ...tool("later", "faults.ts", "throwsLater"),
  ]);
  const exits = await cli(["run", manifest, "exits", "--timeout", "60000"], flags);
  assert.equal(exits.code, 1, exits.stderr);
  assert.equal(exits.stdout, "");
  assert.match(exits.stderr, /tool "exits" failed: the module called Deno\.exit\(3\)/);
  assert.ok(exits.ms < 30_000, `took ${exits.ms} ms`);
  const later = await cli(["run", manifest, "later", "--timeout", "60000"], flags);
  assert.equal(later.code, 1, later.stderr);
  assert.match(later.stderr, /tool "later" failed: uncaught error: Error: thrown from a timer/);
  assert.ok(later.ms < 30_000, `took ${later.ms} ms`);
});

Deno.test("CLI: a module tool stuck in a loop ends at the deadline, not later", async () => {
  const { manifest, flags } = await cliManifest(tool("spin", "faults.ts", "spins"));
  const out = await cli(["run", manifest, "spin", "--timeout", "1500"], flags);
  assert.equal(out.code, 1, out.stderr);
  assert.match(out.stderr, /\[timeout\]/);
  assert.ok(out.ms < 15_000, `took ${out.ms} ms`);
});

Deno.test("CLI: a module tool that fills its heap fails alone (exit 1), the CLI does not abort", async () => {
  const { manifest, flags } = await cliManifest(tool("hog", "faults.ts", "fillsHeap"));
  const out = await cli(["run", manifest, "hog", "--timeout", "120000"], flags);
  assert.equal(out.code, 1, out.stderr.slice(-2000));
  assert.equal(out.stdout, "");
  assert.match(out.stderr, /tool "hog" failed: ran out of memory \(its heap limit is 512 MB/);
});

Deno.test("CLI: a tool's own NotCapable is exit 1; a sandbox denial names the grant, not a flag", async () => {
  const { manifest, flags } = await cliManifest([
    ...tool("fake", "faults.ts", "fakeNotCapable"),
    ...tool("named", "faults.ts", "fakePermissionDenied"),
    ...tool("reader", "fs.ts", "read", "permissions: { read: [./fs.ts] }"),
  ]);
  for (const name of ["fake", "named"]) {
    const out = await cli(["run", manifest, name], flags);
    assert.equal(out.code, 1, out.stderr);
    assert.doesNotMatch(out.stderr, /missing permission|permission_denied/);
  }
  const secret = manifest.replace(/tools\.yaml$/, "faults.ts");
  const denied = await cli(
    ["run", manifest, "reader", "--args", JSON.stringify({ path: secret })],
    flags,
  );
  // The tool's own grant refused it: the tool's failure (exit 1), not the CLI's permission (3).
  assert.equal(denied.code, 1, denied.stderr);
  assert.match(denied.stderr, /add "\.\/faults\.ts" to permissions\.read of tool "reader"/);
  assert.doesNotMatch(denied.stderr, /--allow-read/);
});

Deno.test("CLI: a symbolic link out of a read grant is refused, naming the link; nothing is read", async () => {
  const { manifest, flags } = await cliManifest(
    tool("reader", "fs.ts", "read", "permissions: { read: [./data] }"),
  );
  const dir = manifest.replace(/\/tools\.yaml$/, "");
  await Deno.mkdir(`${dir}/data`);
  await Deno.writeTextFile(`${dir}/secret.txt`, "top secret");
  await Deno.symlink("../secret.txt", `${dir}/data/link.txt`);
  const args = JSON.stringify({ path: `${dir}/data/link.txt` });
  const out = await cli(["run", manifest, "reader", "--args", args], flags);
  assert.equal(out.code, 1, out.stderr);
  assert.equal(out.stdout, "");
  assert.match(out.stderr, /data\/link\.txt -> .*\/secret\.txt \(outside permissions\.read/);
  assert.doesNotMatch(out.stderr, /top secret/);
});
