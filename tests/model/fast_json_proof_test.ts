// The fast path's JSON proof: a closed schema's generated check, accepting
// a value, proves it JSON within the depth limit by itself (nothing left to
// walk; see fast_cover_test.ts for open schemas), so a valid value skips the
// JSON walk. Values that are not JSON, or too deep, are still answered
// exactly as without the fast path (same failures, same errors).
import assert from "node:assert/strict";
import { DefaultValidator, InstanceDepthError } from "../../model/mod.ts";

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
