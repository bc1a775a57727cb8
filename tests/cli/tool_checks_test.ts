// What is certain to fail is refused before anything runs, located in the
// manifest (exit 2): schemas no validator can evaluate with a bound, and
// module tools that cannot load. validate, run, chain and convert agree.
import assert from "node:assert/strict";
import { cli, flagsFor, readFlags, tempManifest } from "./_cli.ts";

/** A manifest whose tool `t` (served by `cat`) has `schema` as input schema, and a chain over it. */
async function withSchema(schema: string): Promise<{ path: string; dir: string }> {
  const path = await tempManifest(
    [
      "version: 1",
      "providers:",
      "  p: { command: sh, args: ['-c', 'touch ran; cat'] }",
      "tools:",
      "  - name: t",
      "    provider: p",
      "    inputSchema:",
      `      ${schema}`,
      "chains:",
      "  c:",
      "    steps:",
      "      - { tool: t, args: {} }",
    ].join("\n"),
  );
  const dir = path.replace(/\/tools\.yaml$/, "");
  // The provider runs in the manifest's directory only if cwd says so; `ran` marks a run.
  await Deno.writeTextFile(
    path,
    (await Deno.readTextFile(path)).replace("cat'] }", `cat'], cwd: . }`),
  );
  return { path, dir };
}

const HOSTILE: Array<[string, string, RegExp]> = [
  [
    "a self-recursive $ref",
    '{ type: object, $defs: { a: { $ref: "#/$defs/a" } }, properties: { x: { $ref: "#/$defs/a" } } }',
    /tools\.yaml:8:\d+: \/tools\/0\/inputSchema\/\$defs\/a\/\$ref: inputSchema of tool "t": invalid JSON Schema: reference cycle/,
  ],
  [
    "an unbounded pattern",
    "{ type: object, properties: { x: { type: string, pattern: '^(a+)+\\1$' } } }",
    /tools\.yaml:8:\d+: \/tools\/0\/inputSchema\/properties\/x\/pattern: inputSchema of tool "t": invalid JSON Schema: the regular expression .* cannot run in bounded time/,
  ],
];

for (const [what, schema, located] of HOSTILE) {
  Deno.test(`a schema with ${what} is refused by validate, run, chain and convert alike (exit 2, located)`, async () => {
    const { path, dir } = await withSchema(schema);
    const flags = await flagsFor(path);
    const outs = {
      validate: await cli(["validate", path], { flags: readFlags(path) }),
      convert: await cli(["convert", path, "--to", "openai"], { flags: readFlags(path) }),
      run: await cli(["run", path, "t", "--args", '{"x":"aa"}'], { flags }),
      chain: await cli(["chain", path, "c"], { flags: await flagsFor(path, "c") }),
    };
    const first = outs.validate.stderr.split("\n")[0];
    for (const [command, out] of Object.entries(outs)) {
      assert.equal(out.code, 2, `${command}: ${out.stderr}`);
      assert.match(out.stderr, located, command);
      assert.equal(out.stderr.split("\n")[0], first, `${command} reports the same error`);
      assert.equal(out.stdout, "", command);
    }
    assert.equal(await Deno.stat(`${dir}/ran`).then(() => true, () => false), false);
  });
}

Deno.test("validate refuses module tools that are missing, do not parse or lack their export", async () => {
  const path = await tempManifest(
    [
      "version: 1",
      "tools:",
      "  - { name: ok, module: ./ok.ts, inputSchema: { type: object } }",
      "  - { name: gone, module: ./gone.ts, inputSchema: { type: object } }",
      "  - { name: broken, module: ./broken.ts, inputSchema: { type: object } }",
      "  - { name: named, module: ./ok.ts, export: nope, inputSchema: { type: object } }",
      "  - { name: nodefault, module: ./named.ts, inputSchema: { type: object } }",
    ].join("\n"),
    {
      "ok.ts": "export default () => 1;\n",
      "broken.ts": "export default () => {{{ 1;\n",
      "named.ts": "export const run = () => 1;\n",
    },
  );
  // The flags `permissions` prints for running the tools are enough to check them.
  const flags = await flagsFor(path);
  const out = await cli(["validate", path], { flags });
  assert.equal(out.code, 2, out.stderr);
  const lines = out.stderr.split("\n").filter((l) => l.includes("tools.yaml:"));
  assert.equal(lines.length, 4, out.stderr);
  assert.match(
    lines[0],
    /:4:\d+: \/tools\/1\/module: module tool "gone": .*gone\.ts does not exist/,
  );
  assert.match(lines[1], /:5:\d+: \/tools\/2\/module: module tool "broken": .*does not parse/);
  assert.match(lines[2], /:6:\d+: \/tools\/3\/export: module tool "named": .*has no export "nope"/);
  assert.match(
    lines[3],
    /:7:\d+: \/tools\/4\/export: module tool "nodefault": .*has no export "default"/,
  );
  // Without the permissions to load modules, validate says it did not check them.
  const partial = await cli(["validate", path], { flags: readFlags(path) });
  assert.equal(partial.code, 0, partial.stderr);
  assert.match(partial.stderr, /note: module tools not checked \(loading them needs --allow-read=/);
});

Deno.test("the measured ReDoS case (^(a+)+$ on 30 a's and !) is answered at once through the CLI", async () => {
  const { path, dir } = await withSchema(
    "{ type: object, properties: { x: { type: string, pattern: '^(a+)+$' } }, required: [x] }",
  );
  const flags = await flagsFor(path);
  const args = JSON.stringify({ x: "a".repeat(30) + "!" });
  // Before: 47 s of backtracking, with --timeout and Ctrl-C both starved.
  const bad = await cli(["run", path, "t", "--args", args, "--timeout", "5000"], { flags });
  assert.equal(bad.code, 1, bad.stderr);
  assert.match(bad.stderr, /input_validation/);
  assert.match(bad.stderr, /\/x/);
  assert.ok(bad.ms < 10_000, `took ${bad.ms.toFixed(0)} ms`);
  assert.equal(await Deno.stat(`${dir}/ran`).then(() => true, () => false), false);
  const good = await cli(["run", path, "t", "--args", JSON.stringify({ x: "a".repeat(40_000) })], {
    flags,
  });
  assert.equal(good.code, 0, good.stderr);
  assert.equal(JSON.parse(good.stdout).x.length, 40_000);
});
