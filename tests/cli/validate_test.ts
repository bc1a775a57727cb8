// `validate` (and `chain`, before it runs anything) catch what is certain to
// fail: chain step arguments against the step's input schema, `previous`
// that a step can never accept, and grants reaching outside the manifest's
// directory without saying so. A failed chain reports its failed step, the
// results before it and the steps not run.
import assert from "node:assert/strict";
import { cli, flagsFor, readFlags, tempManifest } from "./_cli.ts";

const TOOLS = [
  "version: 1",
  "tools:",
  "  - { name: calc, builtin: calculate }",
  "  - { name: upper, builtin: text.transform }",
  "  - name: strict",
  "    builtin: json.format",
  "    inputSchema: { type: object, properties: { value: {} }, required: [value], additionalProperties: false }",
  "  - name: wants-text",
  "    builtin: json.format",
  "    inputSchema: { type: object, properties: { value: {}, previous: { type: string } } }",
];

Deno.test("validate locates chain step arguments the step's input schema rejects, exit 2", async () => {
  const manifest = await tempManifest(
    [
      ...TOOLS,
      "chains:",
      "  bad:",
      "    steps:",
      "      - tool: calc",
      "        args: { operation: pow, a: 2 }",
    ].join("\n"),
  );
  const out = await cli(["validate", manifest], { flags: readFlags(manifest) });
  assert.equal(out.code, 2, out.stderr);
  assert.match(
    out.stderr,
    /tools\.yaml:15:15: \/chains\/bad\/steps\/0\/args: tool "calc" would reject these arguments: \/: must have required property 'b'/,
  );
  assert.match(
    out.stderr,
    /tools\.yaml:15:28: \/chains\/bad\/steps\/0\/args\/operation: tool "calc" would reject these arguments: \/operation: must be equal to one of the allowed values/,
  );
});

Deno.test("validate flags usePrevious steps that can never accept previous, and only those", async () => {
  const manifest = await tempManifest(
    [
      ...TOOLS,
      "chains:",
      "  closed:",
      "    steps:",
      "      - { tool: calc, args: { operation: add, a: 1, b: 2 } }",
      "      - { tool: strict, usePrevious: true, args: { value: 1 } }",
      "  wrong-type:",
      "    steps:",
      "      - { tool: calc, args: { operation: add, a: 1, b: 2 } }",
      "      - { tool: wants-text, usePrevious: true, args: { value: 1 } }",
      "  fine:",
      "    steps:",
      "      - { tool: calc, args: { operation: add, a: 1, b: 2 } }",
      "      - { tool: calc, usePrevious: true, args: { operation: add, a: 1, b: 2 } }",
      "      - { tool: upper, usePrevious: true, args: { operation: upper } }",
      "  args-wrong:",
      "    steps:",
      "      - { tool: calc, args: { operation: add, a: 1, b: 2 } }",
      "      - { tool: calc, usePrevious: true, args: { operation: add, a: x, b: 2 } }",
    ].join("\n"),
  );
  const out = await cli(["validate", manifest], { flags: readFlags(manifest) });
  assert.equal(out.code, 2, out.stderr);
  const lines = out.stderr.split("\n").filter((l) => l.includes("/chains/"));
  assert.equal(lines.length, 3, out.stderr);
  assert.match(
    lines[0],
    /\/chains\/closed\/steps\/1\/usePrevious: tool "strict" can never accept `previous`: its input schema has `additionalProperties: false`/,
  );
  assert.match(
    lines[1],
    /\/chains\/wrong-type\/steps\/1\/usePrevious: .*`previous` must be string, but the previous step \(calc\) returns object/,
  );
  assert.match(lines[2], /\/chains\/args-wrong\/steps\/1\/args\/a: .*must be number/);
  const examples = await cli(["validate", "examples/tools.yaml"], {
    flags: ["--allow-read=examples"],
  });
  assert.equal(examples.code, 0, examples.stderr);
});

Deno.test("chain refuses to start a chain whose step is certain to fail: nothing runs", async () => {
  const dir = await Deno.makeTempDir();
  const manifest = await tempManifest(
    [
      "version: 1",
      "providers:",
      `  touch: { command: sh, args: ['-c', 'touch ${dir}/ran; cat'] }`,
      "tools:",
      "  - { name: mark, provider: touch, inputSchema: { type: object } }",
      "  - { name: calc, builtin: calculate }",
      "chains:",
      "  doomed:",
      "    steps:",
      "      - { tool: mark, args: {} }",
      "      - { tool: calc, args: { operation: add } }",
    ].join("\n"),
  );
  const out = await cli(["chain", manifest, "doomed"], {
    flags: await flagsFor(manifest, "doomed"),
  });
  assert.equal(out.code, 2, out.stderr);
  assert.match(out.stderr, /\/chains\/doomed\/steps\/1\/args: tool "calc" would reject/);
  assert.match(out.stderr, /nothing was run/);
  assert.equal(await Deno.stat(`${dir}/ran`).then(() => true, () => false), false);
});

Deno.test("a grant outside the manifest's directory must be an absolute path; ../ is a manifest error", async () => {
  const bad = await tempManifest(
    [
      "version: 1",
      "tools:",
      "  - name: m",
      "    module: ./m.ts",
      "    inputSchema: { type: object }",
      "    permissions: { read: [./data, ../secrets, data/../../x], write: [./out/../../y] }",
    ].join("\n"),
    { "m.ts": "export default () => 1;\n" },
  );
  const out = await cli(["validate", bad], { flags: readFlags(bad) });
  assert.equal(out.code, 2, out.stderr);
  const lines = out.stderr.split("\n").filter((l) =>
    l.includes("outside the manifest's directory")
  );
  assert.deepEqual(lines.map((l) => l.replace(/^.*tools\.yaml:/, "")), [
    `6:35: /tools/0/permissions/read/1: "../secrets" is outside the manifest's directory; to grant it on purpose, write it as an absolute path`,
    `6:47: /tools/0/permissions/read/2: "data/../../x" is outside the manifest's directory; to grant it on purpose, write it as an absolute path`,
    `6:70: /tools/0/permissions/write/0: "./out/../../y" is outside the manifest's directory; to grant it on purpose, write it as an absolute path`,
  ]);
  const explicit = await tempManifest(
    [
      "version: 1",
      "tools:",
      "  - name: m",
      "    module: ./m.ts",
      "    inputSchema: { type: object }",
      "    permissions: { read: [/etc/hostname, ./data/../data, .], write: [out] }",
    ].join("\n"),
    { "m.ts": "export default () => 1;\n" },
  );
  const ok = await cli(["list", explicit], { flags: readFlags(explicit) });
  assert.equal(ok.code, 0, ok.stderr);
});

Deno.test("a failed chain reports the failed step, the results before it and the steps not run", async () => {
  const manifest = await tempManifest(
    [
      "version: 1",
      "tools:",
      "  - { name: calc, builtin: calculate }",
      "chains:",
      "  broken:",
      "    steps:",
      "      - { tool: calc, args: { operation: add, a: 1, b: 1 } }",
      "      - { tool: calc, args: { operation: divide, a: 1, b: 0 } }",
      "      - { tool: calc, args: { operation: add, a: 2, b: 2 } }",
      "      - { tool: calc, usePrevious: true, args: { operation: add, a: 3, b: 3 } }",
    ].join("\n"),
  );
  for (const events of [false, true]) {
    const out = await cli(["chain", manifest, "broken", ...(events ? ["--events"] : [])], {
      flags: await flagsFor(manifest, "broken"),
    });
    assert.equal(out.code, 1, out.stderr);
    const result = JSON.parse(out.stdout);
    assert.equal(result.ok, false);
    assert.deepEqual(result.steps[0], { index: 0, toolId: "calc", structured: { result: 2 } });
    assert.equal(result.failed.index, 1);
    assert.equal(result.failed.toolId, "calc");
    assert.equal(result.failed.error.code, "execution");
    assert.match(result.failed.error.message, /division by zero/);
    assert.deepEqual(result.notRun, [{ index: 2, toolId: "calc" }, { index: 3, toolId: "calc" }]);
    if (events) {
      const last = JSON.parse(out.stderr.trim().split("\n").at(-1)!);
      assert.equal(last.kind, "error");
      assert.deepEqual(last.data.notRun, result.notRun);
    }
  }
});
