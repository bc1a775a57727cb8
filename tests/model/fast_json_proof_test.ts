// The fast path's JSON proof: a schema whose generated check, accepting a
// value, proves it JSON within a known nesting lets a valid value skip the
// JSON walk. Values that are not JSON, or too deep, are still answered
// exactly as without the fast path (same failures, same errors).
import assert from "node:assert/strict";
import { DefaultValidator, InstanceDepthError } from "../../model/mod.ts";
import { jsonLevels } from "../../model/_fast/_json_proof.ts";

const CLOSED = {
  type: "object",
  properties: {
    n: { type: "number" },
    i: { type: "integer" },
    s: { enum: ["a", "b"] },
    o: {
      type: "object",
      properties: { x: { type: ["string", "null"] } },
      additionalProperties: false,
    },
    l: { type: "array", items: { anyOf: [{ type: "boolean" }, { const: 1 }] } },
  },
  additionalProperties: false,
};

Deno.test("jsonLevels: which schemas prove their values JSON, and how deep", () => {
  assert.equal(jsonLevels(CLOSED, "2020-12"), 2);
  assert.equal(jsonLevels({ type: "string" }, "2020-12"), 0);
  assert.equal(jsonLevels({ allOf: [{}, { enum: [1, "x", null] }] }, "2020-12"), 0);
  assert.equal(jsonLevels(false, "2020-12"), 0);
  // Open objects, untyped values, composite enums, references: no proof.
  assert.equal(jsonLevels({ type: "object" }, "2020-12"), undefined);
  assert.equal(jsonLevels({ ...CLOSED, additionalProperties: true }, "2020-12"), undefined);
  assert.equal(jsonLevels({ ...CLOSED, properties: { a: {} } }, "2020-12"), undefined);
  assert.equal(jsonLevels({ enum: [{ a: 1 }] }, "2020-12"), undefined);
  assert.equal(jsonLevels({ anyOf: [{ type: "string" }, {}] }, "2020-12"), undefined);
  assert.equal(jsonLevels({ $ref: "#/$defs/a", type: "string" }, "draft-07"), undefined);
  assert.equal(jsonLevels({ type: "array" }, "2020-12"), undefined);
  assert.equal(jsonLevels({ type: "array", items: [{ type: "string" }] }, "draft-07"), undefined);
  assert.equal(
    jsonLevels({ type: "array", items: [{ type: "string" }], additionalItems: false }, "draft-07"),
    1,
  );
});

class Point {
  x = 1;
}

Deno.test("a proving schema answers values that are not JSON as Hyperjump does", async () => {
  const values: unknown[] = [
    { n: 1, i: 2, s: "a", o: { x: null }, l: [true, 1] },
    { n: NaN },
    { n: Infinity },
    { i: -Infinity },
    { o: new Point() },
    { o: Object.create({ x: "inherited" }) },
    { o: { x: undefined } },
    { l: [true, undefined] },
    // deno-lint-ignore no-sparse-arrays
    { l: [true, , 1] },
    { l: [() => 1] },
    new Map(),
    Object.create(null),
    new Point(),
    { n: 1n },
    { s: Symbol("s") },
    { o: new Date(0) },
    { extra: NaN },
    { n: "1" },
  ];
  for (const maxDepth of [1, 2, 64]) {
    const fast = await new DefaultValidator({ maxDepth }).compile(CLOSED);
    const slow = await new DefaultValidator({ maxDepth, fastPath: false }).compile(CLOSED);
    for (const [index, value] of values.entries()) {
      const answer = (compiled: typeof fast) => {
        try {
          const result = compiled.check(value);
          return { valid: result.valid, failures: result.valid ? [] : result.failures };
        } catch (error) {
          return { error: (error as Error).constructor.name, message: (error as Error).message };
        }
      };
      assert.deepEqual(answer(fast), answer(slow), `maxDepth ${maxDepth}, value ${index}`);
    }
  }
  // The valid value is valid, and too deep for a limit of 1.
  const shallow = await new DefaultValidator({ maxDepth: 1 }).compile(CLOSED);
  assert.throws(() => shallow.check({ o: {} }), InstanceDepthError);
  assert.equal((await new DefaultValidator().compile(CLOSED)).check(values[0]).valid, true);
});
