// Chains that pass data: a step's argument takes a value from the chain's
// input (`--args`, checked against the chain's inputSchema) or from any
// earlier step's structured result, by JSON Pointer; `validate` finds
// references to later or missing steps and types that cannot fit.
import assert from "node:assert/strict";
import { cli, readFlags, tempManifest } from "./_cli.ts";

const TOOLS = [
  "version: 1",
  "tools:",
  "  - { name: calculate, namespace: math, builtin: calculate }",
  "  - { name: transform, namespace: text, builtin: text.transform }",
  "  - { name: template, namespace: text, builtin: text.template }",
];

Deno.test("step 3 takes a value from step 1's structured result and the chain input", async () => {
  const path = await tempManifest([
    ...TOOLS,
    "chains:",
    "  flow:",
    "    inputSchema: { type: object, properties: { b: { type: number } }, required: [b] }",
    "    steps:",
    "      - { id: area, tool: math:calculate, args: { operation: multiply, a: 6, b: 7 } }",
    "      - { tool: text:transform, args: { text: unrelated, operation: upper } }",
    "      - tool: math:calculate",
    "        args: { operation: add, a: { $from: steps/area/result }, b: { $from: input/b } }",
    "      - tool: math:calculate",
    "        args: { operation: subtract, a: { $from: steps/2/result }, b: { $from: steps/0/result } }",
  ].join("\n"));
  const flags = readFlags(path);
  const validate = await cli(["validate", path], { flags });
  assert.equal(validate.code, 0, validate.stderr);
  const out = await cli(["chain", path, "flow", "--args", '{"b":100}'], { flags });
  assert.equal(out.code, 0, out.stderr);
  const result = JSON.parse(out.stdout);
  assert.deepEqual(result.steps[2].structured, { result: 142 });
  assert.deepEqual(result.result, { result: 100 });
  // The input is checked against the chain's inputSchema before anything runs.
  const bad = await cli(["chain", path, "flow", "--args", '{"b":"x"}'], { flags });
  assert.equal(bad.code, 2, bad.stderr);
  assert.match(bad.stderr, /input of chain "flow" does not match its inputSchema: \/b: /);
  assert.equal(bad.stdout, "");
});

Deno.test("validate rejects a reference to a later step, a missing one, and a type that cannot fit", async () => {
  const path = await tempManifest([
    ...TOOLS,
    "chains:",
    "  wrong:",
    "    steps:",
    "      - tool: math:calculate",
    "        args: { operation: add, a: { $from: steps/1/result }, b: 1 }",
    "      - { tool: math:calculate, args: { operation: add, a: 1, b: 2 } }",
    "      - tool: text:template",
    "        args: { template: { $from: steps/1/result } }",
    "      - tool: math:calculate",
    "        args: { operation: add, a: { $from: steps/nope }, b: { $from: input/x } }",
  ].join("\n"));
  const out = await cli(["validate", path], { flags: readFlags(path) });
  assert.equal(out.code, 2, out.stderr);
  const lines = out.stderr.split("\n");
  assert.ok(
    lines.some((l) =>
      /steps\/0\/args\/a\/\$from: "steps\/1\/result": step 1 \(index 1\) does not run before this one \(index 0\)/
        .test(l)
    ),
    out.stderr,
  );
  assert.match(
    out.stderr,
    /steps\/2\/args\/template\/\$from: "steps\/1\/result" is number .* wants string/,
  );
  assert.match(out.stderr, /steps\/3\/args\/a\/\$from: "steps\/nope": there is no step "nope"/);
  assert.match(out.stderr, /"input\/x": the chain declares no inputSchema/);
  assert.match(out.stderr, /tools\.yaml:10:45: \/chains\/wrong\/steps\/0\/args\/a\/\$from/); // located
  // chain refuses it too, before anything runs.
  const chain = await cli(["chain", path, "wrong"], { flags: readFlags(path) });
  assert.equal(chain.code, 2);
});

Deno.test("a reference to a value that is not there fails that step with chain_reference; later steps do not run", async () => {
  const path = await tempManifest([
    ...TOOLS,
    "chains:",
    "  missing:",
    "    steps:",
    "      - { tool: math:calculate, args: { operation: add, a: 1, b: 2 } }",
    "      - tool: math:calculate",
    "        args: { operation: add, a: { $from: steps/0/nothing }, b: 1 }",
    "      - { tool: math:calculate, args: { operation: add, a: 1, b: 2 } }",
  ].join("\n"));
  const out = await cli(["chain", path, "missing"], { flags: readFlags(path) });
  assert.equal(out.code, 1, out.stderr);
  const result = JSON.parse(out.stdout);
  assert.equal(result.failed.index, 1);
  assert.equal(result.failed.error.code, "chain_reference");
  assert.match(result.failed.error.message, /nothing at \/nothing of that step's result/);
  assert.deepEqual(result.notRun, [{ index: 2, toolId: "math:calculate" }]);
});
