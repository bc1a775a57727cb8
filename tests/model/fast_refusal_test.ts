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

Deno.test("a refused object whose named or other members are not JSON: the answers and failures without the fast path", async () => {
  const fast = await new DefaultValidator({ maxDepth: 4 }).compile(OPEN);
  const slow = await new DefaultValidator({ maxDepth: 4, fastPath: false }).compile(OPEN);
  const deep = { a: { b: { c: { d: 1 } } } };
  const inherited = Object.assign(Object.create({ extra: 1 }), { n: 0 });
  class Box {
    n = 0;
  }
  const hidden = { n: 0 };
  Object.defineProperty(hidden, "secret", { value: NaN, enumerable: false });
  const values: unknown[] = [
    { n: 0, tags: [], extra: 1 }, // every member JSON
    { n: 0, tags: [1, [2, { a: 3 }]] }, // a named container holding containers
    { n: 0, extra: undefined }, // a named own member that is not JSON
    { n: 0, extra: 10n },
    { n: 0, extra: Symbol("s") },
    { n: 0, tags: [1, undefined] }, // not JSON inside a named container
    { n: 0, tags: [deep] }, // too deep inside a named container
    { n: "x", extra: deep },
    hidden, // a member no keyword names, not enumerable
    inherited, // not a plain object
    new Box(),
    { n: 0, constructor: 1, toString: "x" }, // own members named like Object.prototype's
  ];
  for (const value of values) {
    assert.deepEqual(outcome(fast.check, value), outcome(slow.check, value), Deno.inspect(value));
  }
  const counted = { n: 0 };
  Object.defineProperty(counted, "extra", {
    get() {
      throw new RangeError("read once too often");
    },
    enumerable: true,
  });
  assert.throws(() => fast.check(counted), /read once too often/);
  assert.throws(() => slow.check(counted), /read once too often/);
});

Deno.test("a proxy whose traps throw: a refusal throws what the walk throws, its get trap first", async () => {
  const fast = await new DefaultValidator().compile(OPEN);
  const slow = await new DefaultValidator({ fastPath: false }).compile(OPEN);
  fast.check({ n: 0 }); // the refusal function made
  const value = new Proxy({ n: 0 }, {
    get(target, name) {
      // The check refuses at `n` and reads no further; the walk reads `extra`.
      if (name === "n") return 0;
      if (name === "extra") throw new TypeError("the get trap");
      return Reflect.get(target, name);
    },
    getPrototypeOf() {
      throw new TypeError("the getPrototypeOf trap");
    },
  });
  // The walk reads the named members before it tests the prototype (the
  // located check without the fast path tests the prototype first).
  assert.equal(outcome(fast.check, value), "threw TypeError: the get trap");
  assert.equal(outcome(slow.check, value), "threw TypeError: the getPrototypeOf trap");
});

/** A closed schema: a member it does not name is refused, and walked. */
const CLOSED = {
  type: "object",
  properties: {
    n: { type: "integer" },
    tags: { type: "array" },
    toString: { type: "string" },
    note: {},
  },
  required: ["n"],
  additionalProperties: false,
};

Deno.test("stray members beside named ones: the walk skips only the named members it proved JSON", async () => {
  const fast = await new DefaultValidator({ maxDepth: 4 }).compile(CLOSED);
  const slow = await new DefaultValidator({ maxDepth: 4, fastPath: false }).compile(CLOSED);
  const deep = { a: { b: { c: { d: 1 } } } };
  const proto = { n: 1 };
  Object.defineProperty(proto, "__proto__", { value: NaN, enumerable: true });
  const hidden = { n: 1, tags: [] };
  Object.defineProperty(hidden, "secret", { value: undefined, enumerable: false });
  const values: unknown[] = [
    { n: 1, extra: 1 }, // one stray member, JSON: its failure
    { n: 1, tags: [], extra: 1, other: "x" }, // two, in their order
    { other: "x", n: 1, extra: 1 },
    { n: 1, extra: NaN }, // a stray member that is not JSON
    { n: 1, tags: [], extra: 1, other: undefined }, // the second stray member not JSON
    { other: () => 1, n: 1, extra: 1 },
    { n: 1, note: "a", extra: deep }, // a stray member too deep
    { n: 1, extra: 1, other: [deep] },
    { n: 1, constructor: undefined }, // strays named like Object.prototype's
    { n: 1, valueOf: NaN, hasOwnProperty: 1 },
    proto,
    { n: 1, toString: "s", constructor: 1n }, // a named one of those, and a stray one
    hidden, // a stray member not enumerable, not JSON
    { n: 1, note: undefined, extra: 1 }, // a named own member read as undefined, and a stray
    { extra: 1, note: undefined, n: 1 },
    { n: 1, tags: [1, [2]], note: { a: [null] }, toString: "s", x: true, y: null, z: [1] },
  ];
  for (const value of values) {
    assert.deepEqual(outcome(fast.check, value), outcome(slow.check, value), Deno.inspect(value));
  }
  assert.throws(() => fast.check({ n: 1, note: "a", extra: deep }), InstanceDepthError);
  const nan = fast.check({ n: 1, extra: 1, other: NaN });
  assert.deepEqual(nan.valid === false && nan.failures.map((f) => f.instanceLocation), ["/other"]);
  const late = { n: 1, extra: 1 };
  Object.defineProperty(late, "other", {
    get() {
      throw new RangeError("a stray member's getter");
    },
    enumerable: true,
  });
  assert.throws(() => fast.check(late), /a stray member's getter/);
  assert.throws(() => slow.check(late), /a stray member's getter/);
});

Deno.test("more named members than the walk reads by name: the others are walked", async () => {
  const properties: Record<string, unknown> = {};
  for (let i = 0; i < 40; i++) properties[`p${i}`] = { type: "string" };
  const schema = { type: "object", properties, additionalProperties: false };
  const fast = await new DefaultValidator().compile(schema);
  const slow = await new DefaultValidator({ fastPath: false }).compile(schema);
  const values: unknown[] = [
    { p0: "a", p39: NaN, extra: 1 }, // a named member past those read by name, not JSON
    { p0: "a", p39: "b", extra: 1 },
    { p31: "a", p32: undefined, extra: 1 },
  ];
  for (const value of values) {
    assert.deepEqual(outcome(fast.check, value), outcome(slow.check, value), Deno.inspect(value));
  }
});
