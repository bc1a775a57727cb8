// Every built-in keeps its own contract: for every input its input schema
// accepts, it returns an output its output schema accepts, or fails with a
// plain Error naming the problem (division by zero, a placeholder without a
// value, a pointer to nothing). Checked with fast-check and the real validator.
import assert from "node:assert/strict";
import fc from "fast-check";
import { BUILTINS, type BuiltinTool, getBuiltin } from "../../../run/builtin/builtins.ts";
import { type CompiledSchema, DefaultValidator } from "../../../model/mod.ts";
import type { ToolContext } from "../../../run/mod.ts";

const validator = new DefaultValidator();

async function schemas(b: BuiltinTool): Promise<[CompiledSchema, CompiledSchema]> {
  return [
    await validator.compile(b.tool.inputSchema),
    await validator.compile(b.tool.outputSchema!),
  ];
}

function context(): ToolContext {
  return { toolId: "t", signal: new AbortController().signal, progress: () => {} };
}

/** Domain failures each built-in may report instead of a result. */
const EXPECTED_FAILURES: Record<string, RegExp> = {
  calculate: /by zero|not finite/,
  "text.template": /^no value for /,
  "text.transform": /^$/, // never fails on accepted input
  "json.get": /^nothing at |is not a JSON Pointer/,
  "json.format": /^$/,
  wait: /^$/,
};

const key = fc.constantFrom("a", "b", "text", "__proto__", "constructor", "x.y", "toString");
const json = fc.jsonValue({ maxDepth: 3 });
const templateText = fc.array(
  fc.oneof(
    fc.string({ maxLength: 6 }),
    key.map((k) => `{{${k}}}`),
    fc.constantFrom("{{previous}}", "{{previous.result}}", "{{ a }}"),
  ),
  { maxLength: 5 },
).map((parts) => parts.join(""));

/** Arguments shaped like each built-in's inputs, some of them invalid on purpose. */
const ARGS: Record<string, fc.Arbitrary<Record<string, unknown>>> = {
  calculate: fc.record({
    operation: fc.constantFrom("add", "subtract", "multiply", "divide", "power", "modulo", "nope"),
    a: fc.oneof(fc.double(), fc.integer()),
    b: fc.oneof(fc.double(), fc.integer(), fc.constant(0)),
    previous: json,
  }, { requiredKeys: [] }),
  "text.template": fc.record({
    template: templateText,
    values: fc.dictionary(key, json, { maxKeys: 4 }),
    previous: json,
  }, { requiredKeys: [] }),
  "text.transform": fc.record({
    text: fc.string({ maxLength: 20, unit: "grapheme" }),
    operation: fc.constantFrom("upper", "lower", "trim", "reverse", "length", "words", "x"),
    previous: fc.oneof(json, fc.record({ text: fc.string() }), fc.string()),
  }, { requiredKeys: [] }),
  "json.get": fc.record({
    pointer: fc.oneof(
      fc.constantFrom("", "/", "/a", "/0", "/length", "/a/0", "/__proto__", "/constructor", "x"),
      fc.array(fc.oneof(key, fc.nat(3).map(String)), { maxLength: 3 }).map((t) =>
        t.map((p) => `/${p}`).join("")
      ),
    ),
    value: json,
    previous: json,
  }, { requiredKeys: [] }),
  "json.format": fc.record({
    value: json,
    indent: fc.oneof(fc.integer({ min: -1, max: 9 }), fc.constant(2.5)),
    previous: json,
  }, { requiredKeys: [] }),
  wait: fc.record({
    ms: fc.integer({ min: -1, max: 5 }),
    steps: fc.integer({ min: 0, max: 4 }),
  }, { requiredKeys: [] }),
};

for (const name of Object.keys(BUILTINS)) {
  Deno.test(`built-in ${name}: every accepted input gives an output its schema accepts`, async () => {
    const builtin = getBuiltin(name)!;
    const [input, output] = await schemas(builtin);
    let accepted = 0;
    await fc.assert(
      fc.asyncProperty(ARGS[name], async (args) => {
        if (!input.check(args).valid) return;
        accepted++;
        let result: unknown;
        try {
          result = await builtin.handler(args, context());
        } catch (error) {
          assert.ok(error instanceof Error && error.constructor === Error, String(error));
          assert.match(error.message, EXPECTED_FAILURES[name], JSON.stringify(args));
          return;
        }
        const checked = output.check(result);
        assert.ok(
          checked.valid,
          `${JSON.stringify(args)} -> ${JSON.stringify(result)}: ${JSON.stringify(checked)}`,
        );
      }),
      { numRuns: name === "wait" ? 100 : 400 }, // wait: about 40% of inputs are accepted
    );
    assert.ok(accepted > 10, `only ${accepted} generated inputs were accepted`);
  });
}

Deno.test("json.format and json.get need a value or a previous result (schema, not a broken output)", async () => {
  for (const name of ["json.format", "json.get"]) {
    const [input] = await schemas(getBuiltin(name)!);
    const args = name === "json.get" ? { pointer: "" } : {};
    assert.equal(input.check(args).valid, false, name);
  }
  const [, output] = await schemas(getBuiltin("json.format")!);
  const result = await getBuiltin("json.format")!.handler({ value: { a: [1] } }, context());
  assert.deepEqual(result, { text: '{\n  "a": [\n    1\n  ]\n}' });
  assert.ok(output.check(result).valid);
});

Deno.test("json.get reads array indexes only, never inherited properties", () => {
  const get = getBuiltin("json.get")!.handler;
  assert.deepEqual(get({ pointer: "/1", value: ["a", "b"] }, context()), { value: "b" });
  for (const pointer of ["/length", "/01", "/2", "/constructor", "/__proto__", "/toString"]) {
    assert.throws(() => get({ pointer, value: ["a", "b"] }, context()), /nothing at/, pointer);
  }
});

Deno.test("getBuiltin sees own entries only", () => {
  for (const name of ["__proto__", "constructor", "toString", "valueOf", "hasOwnProperty"]) {
    assert.equal(getBuiltin(name), undefined, name);
    assert.equal(Object.hasOwn(BUILTINS, name), false);
  }
  assert.equal(getBuiltin("wait")?.tool.name, "wait");
});
