// A refused value's one pass: the walk that proves it JSON within the depth
// limit and the generated failures code, in one generated function made at
// the schema's first refusal. Its answers, failures and errors are those
// without the fast path, whatever part of the value is not JSON, too deep,
// or throws when read.
import assert from "node:assert/strict";
import { type CheckResult, DefaultValidator, InstanceDepthError } from "../../model/mod.ts";
import { planFastPath } from "../../model/_fast/mod.ts";

const D2020 = "https://json-schema.org/draft/2020-12/schema";

/** An open schema: `extra` and other members are walked, not checked. */
const OPEN = {
  type: "object",
  properties: { n: { type: "integer", minimum: 1 }, tags: { type: "array" }, extra: {} },
  required: ["n"],
};

/** The answer as data (failures read), or the name and message of what was thrown. */
function outcome(check: (value: unknown) => CheckResult, value: unknown): unknown {
  try {
    const result = check(value);
    return result.valid ? result : { valid: false, failures: result.failures };
  } catch (error) {
    return `threw ${(error as Error)?.name}: ${(error as Error)?.message}`;
  }
}

Deno.test("a refused value's walk and failures in one function give Hyperjump's answers", async () => {
  const fast = await new DefaultValidator({ maxDepth: 4 }).compile(OPEN);
  const slow = await new DefaultValidator({ maxDepth: 4, fastPath: false }).compile(OPEN);
  const deep = { a: { b: { c: { d: 1 } } } };
  const values: unknown[] = [
    { n: 0 }, // refused, JSON: the failures
    { n: 0, extra: { x: [1, "a", null] } }, // the same, an unchecked part walked
    { n: 0, extra: NaN }, // refused, not JSON where nothing checks
    { n: 0, other: [1, undefined] }, // not JSON in a member no keyword names
    { n: 0, extra: new Date(0) },
    { n: 0, extra: deep }, // refused, too deep where nothing checks
    { n: 0, tags: [[[[1]]]] },
    { n: 2, extra: deep }, // valid but for the depth
    { tags: "x", extra: () => 1 },
    Object.assign(Object.create(null), { n: 0 }),
  ];
  for (const value of values) {
    assert.deepEqual(outcome(fast.check, value), outcome(slow.check, value), JSON.stringify(value));
  }
  assert.throws(() => fast.check({ n: 0, extra: deep }), InstanceDepthError);
  const notJson = fast.check({ n: 0, extra: NaN });
  assert.deepEqual(notJson.valid === false && notJson.failures.length, 1);
});

Deno.test("a member whose getter throws throws out of a refusal as out of the walk", async () => {
  const fast = await new DefaultValidator().compile(OPEN);
  const slow = await new DefaultValidator({ fastPath: false }).compile(OPEN);
  fast.check({ n: 0 }); // the refusal function made
  const value = { n: 0 };
  Object.defineProperty(value, "extra", {
    get() {
      throw new TypeError("a getter that throws");
    },
    enumerable: true,
  });
  assert.throws(() => fast.check(value), /a getter that throws/);
  assert.throws(() => slow.check(value), /a getter that throws/);
});

Deno.test("the refusal function returns null for a value its walk does not prove JSON", () => {
  const plan = planFastPath(OPEN, { dialect: D2020, formatAssertion: false, fansOut: false });
  const refuse = plan.makeRefusal?.();
  assert.ok(refuse !== undefined);
  assert.equal(refuse({ n: 0, extra: undefined }), null);
  assert.deepEqual(refuse({ n: 0 })?.map((f) => f.message), ["must be >= 1"]);
  // References that fan out: no walk, no refusal function.
  const fanning = planFastPath(OPEN, { dialect: D2020, formatAssertion: false, fansOut: true });
  assert.equal(fanning.makeRefusal, undefined);
});
