// Flags a person can write, through the CLI as a subprocess: `permissions`
// names every part of the manifest behind each flag; a module tool needs read
// access to its file only; of the variables children inherit only PATH is
// required (the others are passed when granted and skipped when not, Deno's
// `PREFIX_*` wildcard accepted); a missing `kill` is said once, with what it
// is for and the exact flag.
import assert from "node:assert/strict";
import { cli, flagsFor, readFlags, shellWords, tempManifest } from "./_cli.ts";

const DENO = Deno.execPath();

/** The `permissions` reason lines (stderr), by their flag. */
function reasonLines(stderr: string): Map<string, string> {
  const lines = new Map<string, string>();
  for (const line of stderr.split("\n")) {
    const m = /^ {2}(--allow-[a-z]+(?:=\S*)?): (.*)$/.exec(line);
    if (m !== null) lines.set(m[1], m[2]);
  }
  return lines;
}

Deno.test("permissions names every server and tool behind a flag, not only the first one met", async () => {
  const path = await tempManifest(
    [
      "version: 1",
      "servers:",
      "  a: { command: npx, args: [-y, pkg-a] }",
      "  b: { command: npx, args: [-y, pkg-b] }",
      "  c: { command: npx, args: [-y, pkg-c] }",
      "  d: { command: node, args: [srv.js], env: { TOKEN: '${env:MY_TOKEN}' } }",
      "tools:",
      "  - { name: ta, server: a }",
      "  - { name: tb, server: b }",
      "  - { name: tc, server: c }",
      "  - { name: td, server: d }",
      "  - { name: m, module: ./m.ts, inputSchema: { type: object } }",
    ].join("\n"),
    { "m.ts": "export default () => 1;\n" },
  );
  const out = await cli(["permissions", path], { flags: readFlags(path) });
  assert.equal(out.code, 0, out.stderr);
  const lines = reasonLines(out.stderr);
  assert.equal(lines.get("--allow-run=npx"), 'servers "a", "b", "c"', out.stderr);
  assert.equal(lines.get("--allow-run=node"), 'server "d"', out.stderr);
  assert.equal(
    lines.get("--allow-run=kill"),
    'module tool "m" and servers "a", "b", "c", "d" ' +
      "(kill stops their process groups, what they started included)",
  );
  assert.equal(lines.get("--allow-env=MY_TOKEN"), 'server "d" references ${env:MY_TOKEN}');
  const optional = [...lines].find(([flag]) => flag.includes("HOME"));
  assert.ok(optional !== undefined, out.stderr);
  assert.match(optional[0], /npm_config_\*/);
  assert.equal(
    optional[1],
    'optional, module tool "m" and servers "a", "b", "c", "d" inherit it when granted ' +
      "(default child environment)",
  );
  assert.match(lines.get("--allow-env=PATH") ?? "", /servers "a", "b", "c", "d" inherit it/);
});

Deno.test("a module tool's read grant is its file, not its folder; exactly the printed flags run it, a sibling import included", async () => {
  const dir = await Deno.makeTempDir({ prefix: "tf-perm-module-" });
  await Deno.mkdir(`${dir}/mods`);
  await Deno.writeTextFile(`${dir}/mods/helper.ts`, "export const twice = (n: number) => n * 2;\n");
  await Deno.writeTextFile(
    `${dir}/mods/m.ts`,
    'import { twice } from "./helper.ts";\nexport default () => twice(21);\n',
  );
  const path = `${dir}/tools.yaml`;
  await Deno.writeTextFile(
    path,
    "version: 1\ntools:\n  - { name: m, module: ./mods/m.ts, inputSchema: { type: object } }\n",
  );
  const flags = await flagsFor(path, "m");
  const read = flags.find((f) => f.startsWith("--allow-read="))!.slice(13).split(",");
  assert.deepEqual(read.sort(), [`${dir}/mods/m.ts`, path].sort());
  const out = await cli(["run", path, "m", "--args", "{}"], { flags: ["--no-prompt", ...flags] });
  assert.equal(out.code, 0, out.stderr);
  assert.equal(JSON.parse(out.stdout), 42);
  // Without the optional variables too: the child deno loads the module and its import itself.
  const least = flags.filter((f) => !f.startsWith("--allow-env"));
  const bare = await cli(["run", path, "m", "--args", "{}"], { flags: ["--no-prompt", ...least] });
  assert.equal(bare.code, 0, bare.stderr);
  assert.equal(JSON.parse(bare.stdout), 42);
  // And the file is needed: without it, nothing runs (exit 3), the file named.
  const noFile = least.map((f) => f.startsWith("--allow-read=") ? `--allow-read=${path}` : f);
  const refused = await cli(["run", path, "m", "--args", "{}"], { flags: noFile });
  assert.equal(refused.code, 3, refused.stderr);
  assert.match(refused.stderr, new RegExp(`--allow-read=${dir}/mods/m\\.ts  \\(module tool "m"`));
});

const PRINT =
  `printf '{"user":"%s","path":"%s","registry":"%s"}' "$USER" "$PATH" "$npm_config_registry"`;

Deno.test("a hand-written line with --allow-env=PATH runs a command provider: inherited names not granted are skipped, granted ones (wildcards too) passed", async () => {
  const path = await tempManifest(
    [
      "version: 1",
      "providers:",
      `  p: { command: sh, args: ['-c', ${JSON.stringify(PRINT)}] }`,
      "tools:",
      "  - { name: t, provider: p, inputSchema: { type: object } }",
    ].join("\n"),
  );
  // USER, not HOME: HOME would move the Deno cache of the CLI itself.
  const env = { USER: "someone", npm_config_registry: "http://registry.test/" };
  const base = [`--allow-read=${path}`, "--allow-run=sh,kill", "--no-prompt"];
  const least = await cli(["run", path, "t", "--args", "{}"], {
    flags: [...base, "--allow-env=PATH"],
    env,
  });
  assert.equal(least.code, 0, least.stderr);
  assert.equal(least.stderr, "", "skipping an optional variable is not announced by default");
  const skipped = JSON.parse(least.stdout);
  assert.deepEqual([skipped.user, skipped.registry], ["", ""]);
  assert.notEqual(skipped.path, "");
  const wider = await cli(["run", path, "t", "--args", "{}"], {
    flags: [...base, "--allow-env=PATH,USER,npm_config_*"],
    env,
  });
  assert.equal(wider.code, 0, wider.stderr);
  const passed = JSON.parse(wider.stdout);
  assert.deepEqual([passed.user, passed.registry], [env.USER, env.npm_config_registry]);
  // PATH is required: the child finds its own programs with it.
  const noPath = await cli(["run", path, "t", "--args", "{}"], {
    flags: [...base, "--allow-env=USER"],
    env,
  });
  assert.equal(noPath.code, 3, noPath.stderr);
  assert.match(
    noPath.stderr,
    /\n {2}--allow-env=PATH {2}\(provider "p" inherits it \(its programs/,
  );
  const least2 = /Or without the optional ones \(skipped when not granted\): (.*)\n/.exec(
    `${noPath.stderr}\n`,
  )?.[1];
  assert.equal(least2, `--allow-read=${path} --allow-run=kill,sh --allow-env=PATH`);
  // The full line is quoted for a shell (the wildcards), and runs as printed.
  const all = /All the flags this needs: (.*)\n/.exec(noPath.stderr)?.[1];
  assert.ok(all !== undefined && all.includes("'--allow-env="), noPath.stderr);
  const full = await cli(["run", path, "t", "--args", "{}"], { flags: shellWords(all), env });
  assert.equal(full.code, 0, full.stderr);
  assert.equal(JSON.parse(full.stdout).registry, env.npm_config_registry);
});

const HAS_NODE = await new Deno.Command("node", { args: ["--version"], stdout: "null" })
  .output().then((o) => o.success, () => false);

const NODE_SERVER = `
const rl = require("readline").createInterface({ input: process.stdin });
const send = (m) => process.stdout.write(JSON.stringify(m) + "\\n");
rl.on("line", (line) => {
  const msg = JSON.parse(line);
  if (msg.id === undefined) return;
  if (msg.method === "initialize") {
    send({ jsonrpc: "2.0", id: msg.id, result: { protocolVersion: msg.params.protocolVersion,
      capabilities: { tools: {} }, serverInfo: { name: "env", version: "1" } } });
  } else if (msg.method === "tools/list") {
    send({ jsonrpc: "2.0", id: msg.id, result: { tools: [{ name: "env", inputSchema: { type: "object" } }] } });
  } else if (msg.method === "tools/call") {
    const text = JSON.stringify({ home: process.env.HOME ?? null, path: process.env.PATH ?? null });
    send({ jsonrpc: "2.0", id: msg.id, result: { content: [{ type: "text", text }] } });
  } else send({ jsonrpc: "2.0", id: msg.id, error: { code: -32601, message: "not found" } });
});
`;

Deno.test({
  name:
    "a node stdio server starts and answers without HOME: PATH, the manifest and kill are all it needs",
  ignore: !HAS_NODE,
  fn: async () => {
    const dir = await Deno.makeTempDir({ prefix: "tf-perm-node-" });
    await Deno.writeTextFile(`${dir}/server.cjs`, NODE_SERVER);
    const path = `${dir}/tools.yaml`;
    await Deno.writeTextFile(
      path,
      [
        "version: 1",
        "servers:",
        `  n: { command: node, args: [${JSON.stringify(`${dir}/server.cjs`)}] }`,
        "tools:",
        "  - { name: env, namespace: n, server: n }",
      ].join("\n"),
    );
    const out = await cli(["run", path, "n:env", "--args", "{}"], {
      flags: [
        "--no-prompt",
        `--allow-read=${path},${path}.lock`,
        "--allow-run=node,kill",
        "--allow-env=PATH",
      ],
    });
    assert.equal(out.code, 0, out.stderr);
    const result = JSON.parse(out.stdout);
    const seen = typeof result === "string" ? JSON.parse(result) : result;
    assert.equal(seen.home, null, "HOME was not granted, so not passed");
    assert.equal(typeof seen.path, "string");
  },
});

Deno.test("without --allow-run=kill nothing runs: one line says what kill is for and the flag to add", async () => {
  const path = await tempManifest(
    [
      "version: 1",
      "servers:",
      `  s1: { command: ${JSON.stringify(DENO)}, args: [run, x.ts] }`,
      `  s2: { command: ${JSON.stringify(DENO)}, args: [run, y.ts] }`,
      "providers:",
      "  p: { command: /bin/sh }",
      "tools:",
      "  - { name: a, server: s1 }",
      "  - { name: b, server: s2 }",
      "  - { name: c, provider: p, inputSchema: { type: object } }",
    ].join("\n"),
  );
  const out = await cli(["run", path, "c", "--args", "{}"], {
    flags: ["--no-prompt", `--allow-read=${path}`, "--allow-run=/bin/sh", "--allow-env=PATH"],
  });
  assert.equal(out.code, 3, out.stderr);
  assert.equal(out.stderr.match(/\n {2}--allow-run=kill/g)?.length, 1, out.stderr);
  assert.match(
    out.stderr,
    /\n {2}--allow-run=kill {2}\(provider "p" \(kill stops its process group/,
  );
  assert.match(out.stderr, /\nkill: the processes the CLI starts lead their own process groups/);
  assert.match(out.stderr, /give --allow-run without a list\.\n/);
  // Given, but not on PATH: Deno cannot resolve it, and the same note says why.
  const empty = await Deno.makeTempDir();
  const notFound = await cli(["run", path, "c", "--args", "{}"], {
    flags: ["--no-prompt", `--allow-read=${path}`, "--allow-run=/bin/sh,kill", "--allow-env=PATH"],
    env: { PATH: empty },
  });
  assert.equal(notFound.code, 3, notFound.stderr);
  assert.match(notFound.stderr, /If --allow-run=kill was given, Deno did not find kill on PATH/);
});

/** Whether this CLI takes the global --verbose (it says what it skipped there). */
const EMPTY = await tempManifest("version: 1\n");
const HAS_VERBOSE =
  (await cli(["validate", EMPTY, "--verbose"], { flags: readFlags(EMPTY) })).code === 0;

Deno.test({
  name: "--verbose says once which inherited variables were skipped for want of a grant",
  ignore: !HAS_VERBOSE,
  fn: async () => {
    const path = await tempManifest(
      [
        "version: 1",
        "providers:",
        `  p: { command: sh, args: ['-c', ${JSON.stringify(PRINT)}] }`,
        "tools:",
        "  - { name: t, provider: p, inputSchema: { type: object } }",
      ].join("\n"),
    );
    const flags = [`--allow-read=${path}`, "--allow-run=sh,kill", "--allow-env=PATH,USER"];
    const out = await cli(["run", path, "t", "--verbose", "--args", "{}"], { flags });
    assert.equal(out.code, 0, out.stderr);
    const notes = out.stderr.split("\n").filter((l) =>
      l.startsWith("note: not granted, so not passed")
    );
    assert.equal(notes.length, 1, out.stderr);
    assert.match(notes[0], /--allow-env=\S*HOME\S*npm_config_\*/);
    assert.doesNotMatch(notes[0], /[=,](PATH|USER)[,\s]/);
    assert.match(notes[0], /provider "p" inherits it when granted/);
  },
});
