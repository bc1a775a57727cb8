// `permissions` asks for env access to exactly what child processes inherit
// (run/process/child_env.ts) plus what the manifest references; `inheritEnv` widens
// it explicitly; an HTTP-only manifest runs under exactly its flags. Of the
// inherited names only PATH is required: the others are passed when granted
// and skipped when not, so a shorter line written by hand runs too.
import assert from "node:assert/strict";
import { NETWORK_ENV, SAFE_ENV } from "../../run/process/child_env.ts";
import { ENV_WILDCARD_PREFIXES } from "../../workspace/permissions.ts";
import { startEverythingHttp } from "../run/_mcp_servers.ts";
import { cli, flagsFor, readFlags, tempManifest } from "./_cli.ts";

function envOf(flags: string[]): string[] | "all" | undefined {
  const flag = flags.find((f) => f.startsWith("--allow-env"));
  if (flag === undefined) return undefined;
  return flag === "--allow-env" ? "all" : flag.slice("--allow-env=".length).split(",");
}

/** Whether an --allow-env list covers a name, Deno's `PREFIX_*` wildcard included. */
function covers(list: readonly string[], name: string): boolean {
  return list.some((v) => v === name || (v.endsWith("*") && name.startsWith(v.slice(0, -1))));
}

/** The list covers exactly the expected names: each one, and nothing but them or their wildcards. */
function assertCoversExactly(list: string[] | "all" | undefined, expected: Set<string>): void {
  assert.ok(Array.isArray(list), String(list));
  for (const name of expected) assert.ok(covers(list, name), `${name} in ${list}`);
  for (const value of list) {
    const wildcard = value.endsWith("*") && ENV_WILDCARD_PREFIXES.includes(value.slice(0, -1));
    assert.ok(expected.has(value) || wildcard, `${value} is not asked for`);
  }
}

const PRINT_VARS = `printf '{"mine":"%s","other":"%s","path":"%s"}' "$MY_VAR" "$OTHER_VAR" "$PATH"`;

Deno.test("a command provider's env grant is the default child set plus inheritEnv, nothing more, npm's settings as wildcards", async () => {
  const manifest = await tempManifest(
    [
      "version: 1",
      "providers:",
      `  plain: { command: sh, args: ['-c', ${JSON.stringify(PRINT_VARS)}] }`,
      `  wider: { command: sh, args: ['-c', ${JSON.stringify(PRINT_VARS)}], inheritEnv: [MY_VAR] }`,
      "tools:",
      "  - { name: plain, provider: plain, inputSchema: { type: object } }",
      "  - { name: wider, provider: wider, inputSchema: { type: object } }",
    ].join("\n"),
  );
  const plain = await flagsFor(manifest, "plain");
  const expected = new Set([...SAFE_ENV, ...NETWORK_ENV]);
  assertCoversExactly(envOf(plain), expected);
  // npm reads any npm_config_* name: one wildcard per case instead of eight names each.
  for (const folded of ["npm_config_*", "NPM_CONFIG_*"]) assert.ok(envOf(plain)!.includes(folded));
  assert.ok(!envOf(plain)!.includes("npm_config_cache"), String(envOf(plain)));
  const wider = await flagsFor(manifest, "wider");
  assertCoversExactly(envOf(wider), new Set([...expected, "MY_VAR"]));
  const env = { MY_VAR: "mine", OTHER_VAR: "other" };
  const a = await cli(["run", manifest, "plain", "--args", "{}"], { flags: plain, env });
  assert.equal(a.code, 0, a.stderr);
  assert.equal(JSON.parse(a.stdout).mine, "");
  assert.equal(JSON.parse(a.stdout).other, "");
  assert.notEqual(JSON.parse(a.stdout).path, "");
  const b = await cli(["run", manifest, "wider", "--args", "{}"], { flags: wider, env });
  assert.equal(b.code, 0, b.stderr);
  assert.equal(JSON.parse(b.stdout).mine, "mine");
  assert.equal(JSON.parse(b.stdout).other, "");
});

Deno.test("inheritEnv: all asks for the whole environment; other values are manifest errors", async () => {
  const all = await tempManifest(
    [
      "version: 1",
      "providers:",
      `  p: { command: sh, args: ['-c', ${JSON.stringify(PRINT_VARS)}], inheritEnv: all }`,
      "tools:",
      "  - { name: t, provider: p, inputSchema: { type: object } }",
    ].join("\n"),
  );
  const flags = await flagsFor(all);
  assert.equal(envOf(flags), "all");
  const out = await cli(["run", all, "t", "--args", "{}"], {
    flags,
    env: { MY_VAR: "m", OTHER_VAR: "o" },
  });
  assert.equal(out.code, 0, out.stderr);
  assert.deepEqual([JSON.parse(out.stdout).mine, JSON.parse(out.stdout).other], ["m", "o"]);
  for (const value of ["everything", "[1]", '["NOT-A-NAME"]', "true"]) {
    const bad = await tempManifest(
      `version: 1\nproviders:\n  p: { command: sh, inheritEnv: ${value} }\n`,
    );
    const res = await cli(["validate", bad], { flags: readFlags(bad) });
    assert.equal(res.code, 2, `${value}: ${res.stderr}`);
    assert.match(res.stderr, /tools\.yaml:3:\d+: \/providers\/p\/inheritEnv/);
  }
});

Deno.test("stdio servers: the env grant covers the default child set and inheritEnv", async () => {
  const manifest = await tempManifest(
    [
      "version: 1",
      "servers:",
      "  s: { command: deno, args: [run, x.ts], inheritEnv: [GITHUB_TOKEN] }",
      "tools:",
      "  - { name: echo, server: s }",
    ].join("\n"),
  );
  // Our own stdio transport reads no variable: the grant is what the child inherits.
  assertCoversExactly(
    envOf(await flagsFor(manifest)),
    new Set([...SAFE_ENV, ...NETWORK_ENV, "GITHUB_TOKEN"]),
  );
});

Deno.test("an HTTP-only manifest runs under exactly the flags `permissions` prints", async () => {
  const server = await startEverythingHttp();
  try {
    const manifest = await tempManifest(
      [
        "version: 1",
        "servers:",
        `  web: { url: '${server.url}' }`,
        "tools:",
        "  - { name: echo, namespace: web, server: web }",
      ].join("\n"),
    );
    const flags = await flagsFor(manifest);
    // No variable at all: neither the HTTP transport nor reading the manifest needs one.
    assert.equal(envOf(flags), undefined, flags.join(" "));
    assert.ok(!flags.some((f) => f.startsWith("--allow-run")), flags.join(" "));
    const out = await cli(["run", manifest, "web:echo", "--args", '{"message":"hi"}'], { flags });
    assert.equal(out.code, 0, out.stderr);
    assert.equal(JSON.parse(out.stdout), "Echo: hi");
  } finally {
    await server.stop();
  }
});

Deno.test("module tools: the plan runs the child deno and kill, and reads the write grants (symlink check)", async () => {
  const path = await tempManifest(
    [
      "version: 1",
      "tools:",
      "  - name: m",
      "    module: ./m.ts",
      "    inputSchema: { type: object }",
      "    permissions: { read: [./in], write: [./out] }",
    ].join("\n"),
    { "m.ts": "export default () => 1;\n" },
  );
  const dir = path.replace(/\/tools\.yaml$/, "");
  const flags = await flagsFor(path);
  assert.ok(flags.includes(`--allow-run=${Deno.execPath()},kill`), flags.join(" "));
  assert.ok(!flags.includes("--unstable-worker-options"), flags.join(" "));
  const read = flags.find((f) => f.startsWith("--allow-read="))!.slice(13).split(",");
  for (const p of [`${dir}/in`, `${dir}/out`]) assert.ok(read.includes(p), `${p} in ${read}`);
  const out = await cli(["permissions", path], { flags: readFlags(path) });
  assert.match(
    out.stderr,
    /--allow-read=.*\/out: module tool "m" \(symlink check of its write grant\)/,
  );
});

Deno.test("every part that starts processes adds kill to the run grant; builtins alone do not", async () => {
  const path = await tempManifest(
    [
      "version: 1",
      "servers:",
      "  s: { command: srv }",
      "providers:",
      "  p: { command: prov }",
      "tools:",
      "  - { name: a, server: s, inputSchema: { type: object } }",
      "  - { name: b, provider: p, inputSchema: { type: object } }",
      "  - { name: c, builtin: calculate }",
    ].join("\n"),
  );
  const run = async (target: string) =>
    (await flagsFor(path, target)).find((f) => f.startsWith("--allow-run"));
  assert.equal(await run("a"), "--allow-run=kill,srv");
  assert.equal(await run("b"), "--allow-run=kill,prov");
  assert.equal(await run("c"), undefined);
});
