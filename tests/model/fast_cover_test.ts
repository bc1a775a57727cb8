// The fast check proves a value JSON while it checks it, walking only what
// the schema leaves unchecked (model/_fast/_cover.ts): every value that is
// not JSON, too deep, cyclic, or read through a polluted prototype must be
// answered exactly as with the fast path off (same answer, same failures,
// same errors).
import assert from "node:assert/strict";
import { DefaultValidator, InstanceDepthError } from "../../model/mod.ts";
import { planFastPath } from "../../model/_fast/mod.ts";

const OPEN = {
  type: "object",
  properties: {
    op: { type: "string", enum: ["add", "sub"] },
    n: { type: "number" },
    free: {},
    note: { description: "anything" },
    list: { type: "array", items: { type: "integer" } },
    bag: { type: "array" },
    map: { type: "object", additionalProperties: { type: "string" } },
    deep: { type: "object", properties: { x: { type: "object" } } },
    either: { anyOf: [{ type: "string" }, { type: "object" }] },
    constructor: { type: "string" },
  },
  required: ["op", "extra"],
};

const SCHEMAS: Record<string, unknown> = {
  open: OPEN,
  closed: { ...OPEN, additionalProperties: false, required: ["op"] },
  typedAdditional: { type: "object", additionalProperties: { type: "array" } },
  untyped: { properties: { a: { type: "number" } } },
  allOf: { allOf: [{ type: "object", properties: { a: {} } }, { required: ["a"] }] },
  tuple: { type: "array", prefixItems: [{ type: "string" }, {}] },
  patterns: { type: "object", patternProperties: { "^a": { type: "number" } } },
  tree: {
    $defs: {
      node: {
        type: "object",
        properties: { value: {}, children: { type: "array", items: { $ref: "#/$defs/node" } } },
      },
    },
    $ref: "#/$defs/node",
  },
  anything: {},
  multi: { type: ["object", "array", "null"] },
};

class Point {
  x = 1;
}

function values(): unknown[] {
  const cyclic: Record<string, unknown> = { op: "add", extra: 1 };
  cyclic.free = cyclic;
  const cyclicList: unknown[] = [];
  cyclicList.push(cyclicList);
  const symbolKeyed = { op: "add", extra: 1, [Symbol("s")]: NaN };
  const nullProto = Object.assign(Object.create(null), { op: "add", extra: 1, free: [1] });
  // Own members that are not enumerable (the closed schema's stray-member test counts own names).
  const hidden = (value: Record<string, unknown>, key: string, member: unknown) =>
    Object.defineProperty(value, key, { value: member, enumerable: false });
  return [
    { op: "add", extra: 1, n: 2, free: { a: [1, "x", null] }, map: { a: "b" } },
    { op: "add", extra: NaN },
    { op: "add", extra: 1, free: Infinity },
    { op: "add", extra: 1, free: { a: [1, { b: -Infinity }] } },
    { op: "add", extra: 1, note: 1n },
    { op: "add", extra: 1, other: () => 1 },
    { op: "add", extra: 1, other: new Point() },
    { op: "add", extra: 1, other: new Date(0) },
    { op: "add", extra: 1, other: undefined },
    { op: undefined, extra: 1 },
    { op: "add", extra: undefined },
    { op: "add", extra: 1, n: undefined },
    // deno-lint-ignore no-sparse-arrays
    { op: "add", extra: 1, bag: [1, , 2] },
    { op: "add", extra: 1, bag: [1, Symbol("s")] },
    { op: "add", extra: 1, list: [1, 2.5] },
    { op: "add", extra: 1, either: { a: NaN } },
    { op: "add", extra: 1, deep: { x: { y: { z: [[[]]] } } } },
    { op: "add", extra: 1, map: { a: "b", c: NaN } },
    { op: "add", extra: 1, constructor: "c" },
    { op: "add", extra: 1, constructor: 1 },
    cyclic,
    cyclicList,
    symbolKeyed,
    nullProto,
    hidden({ op: "add", extra: 1 }, "other", NaN),
    hidden({ op: "add", extra: 1 }, "other", 1),
    hidden({ op: "add", n: 1 }, "other", 1),
    hidden({ op: "add", n: 1 }, "other", NaN),
    hidden({ op: "add", n: 1, other: 1 }, "hidden", 1),
    hidden({ op: "add", extra: 1, other: 1 }, "hidden", 2),
    hidden({ op: "add", extra: 1, n: undefined }, "hidden", 2),
    // Named members made non-enumerable (what the schema's keywords read by name).
    hidden({ extra: 1 }, "op", "add"),
    hidden({ op: "add" }, "extra", 1),
    hidden({ op: "add", extra: 1 }, "n", "not a number"),
    hidden({ op: "add", extra: 1 }, "n", 2),
    hidden({ n: 2 }, "op", "add"),
    { op: "add", extra: 1, free: hidden({ a: 1 }, "b", 2) },
    Object.create({ op: "add", extra: 1 }),
    new Point(),
    { value: NaN, children: [] },
    { value: 1, children: [{ value: { a: NaN } }] },
    { value: 1, children: [{ children: [{ children: [{ value: [[[[1]]]] }] }] }] },
    { a: 1, b: NaN },
    { a: NaN },
    ["s", NaN],
    ["s", { a: [1] }, Infinity],
    [1, 2],
    null,
    NaN,
    1n,
  ];
}

type Compiled = Awaited<ReturnType<DefaultValidator["compile"]>>;

function answer(compiled: Compiled, value: unknown): unknown {
  try {
    const result = compiled.check(value);
    return { valid: result.valid, failures: result.valid ? [] : result.failures };
  } catch (error) {
    return { error: (error as Error).constructor.name, message: (error as Error).message };
  }
}

type Pair = { label: string; ours: Compiled; theirs: Compiled };

/** Each schema compiled with the fast path on and off, for each depth limit. */
async function pairs(maxDepths: number[]): Promise<Pair[]> {
  const out: Pair[] = [];
  for (const maxDepth of maxDepths) {
    const fast = new DefaultValidator({ maxDepth });
    const slow = new DefaultValidator({ maxDepth, fastPath: false });
    for (const [name, schema] of Object.entries(SCHEMAS)) {
      // Checked once so that the fast path is planned (the plan is made on first use).
      const ours = await fast.compile(schema as never);
      answer(ours, null);
      const theirs = await slow.compile(schema as never);
      out.push({ label: `maxDepth ${maxDepth}, schema ${name}`, ours, theirs });
    }
  }
  return out;
}

function compareAll(label: string, compiled: Pair[]): number {
  let compared = 0;
  for (const { label: which, ours, theirs } of compiled) {
    for (const [index, value] of values().entries()) {
      assert.deepEqual(
        answer(ours, value),
        answer(theirs, value),
        `${label}: ${which}, value ${index}`,
      );
      compared++;
    }
  }
  return compared;
}

Deno.test("values that are not JSON, too deep or cyclic are answered as with the fast path off", async () => {
  assert.ok(compareAll("plain", await pairs([1, 2, 3, 4, 64, 256])) > 0);
  // The valid value is valid, and too deep for a limit of 1.
  const shallow = await new DefaultValidator({ maxDepth: 1 }).compile(OPEN as never);
  assert.throws(() => shallow.check({ op: "add", extra: {} }), InstanceDepthError);
  const open = await new DefaultValidator().compile(OPEN as never);
  assert.equal(open.check(values()[0]).valid, true);
  assert.equal(open.check(values()[2]).valid, false);
});

Deno.test("a non-enumerable own property is a member like any other, on either path", async () => {
  const hide = <T extends object>(value: T, key: string, member: unknown): T =>
    Object.defineProperty(value, key, { value: member, enumerable: false });
  for (const fastPath of [true, false]) {
    const compiled = await new DefaultValidator({ fastPath }).compile(OPEN as never);
    const where = (value: unknown) => {
      const result = compiled.check(value);
      return result.valid ? "valid" : result.failures.map((f) => [f.instanceLocation, f.message]);
    };
    // Read and checked by name: a number is valid, a string is not.
    assert.equal(where(hide({ op: "add", extra: 1 }, "n", 2)), "valid", `fastPath ${fastPath}`);
    const wrong = where(hide({ op: "add", extra: 1 }, "n", "two"));
    assert.deepEqual(wrong, [["/n", "must be number, found string"]], `fastPath ${fastPath}`);
    // A required member present only as non-enumerable is present.
    assert.equal(where(hide({ extra: 1 }, "op", "add")), "valid", `fastPath ${fastPath}`);
    // Its value must be JSON too: a hidden toJSON would change what JSON.stringify sends.
    assert.deepEqual(
      where({ op: "add", extra: 1, free: hide({ a: 1 }, "toJSON", () => ({ b: 2 })) }),
      [["/free/toJSON", "must be a JSON value, found function"]],
      `fastPath ${fastPath}`,
    );
  }
});

Deno.test("a polluted Object.prototype changes no answer", async () => {
  const proto = Object.prototype as Record<string, unknown>;
  const pollutions: [string, PropertyDescriptor][] = [
    ["extra", { value: 1, enumerable: true, configurable: true, writable: true }],
    ["op", { value: "add", enumerable: false, configurable: true, writable: true }],
    ["free", { value: NaN, enumerable: true, configurable: true, writable: true }],
    ["zzz", { value: 1, enumerable: true, configurable: true, writable: true }],
  ];
  // Compiled first: Hyperjump's own compiling does not survive a polluted prototype.
  const compiled = await pairs([3, 256]);
  const open = compiled.find((pair) => pair.label === "maxDepth 256, schema open")!.ours;
  for (const [key, descriptor] of pollutions) {
    Object.defineProperty(proto, key, descriptor);
    try {
      assert.ok(compareAll(`Object.prototype.${key}`, compiled) > 0);
      // The value misses the required "extra" (only inherited): invalid.
      if (key === "extra") assert.equal(open.check({ op: "add" }).valid, false);
    } finally {
      delete proto[key];
    }
  }
});

Deno.test("the plan proves JSON within the depth it was made for", () => {
  const options = { dialect: "https://json-schema.org/draft/2020-12/schema" } as const;
  const plan = (maxDepth?: number) =>
    planFastPath(OPEN, { ...options, formatAssertion: false, fansOut: false, maxDepth });
  assert.equal(plan(3).jsonLevels, 3);
  assert.equal(plan().jsonLevels, 256);
  // Beyond the walk's limit the JSON check comes first, as without a proof.
  assert.equal(plan(5000).jsonLevels, undefined);
  const run = plan(2).run!;
  assert.equal(run({ op: "add", extra: 1, free: [1] }), true);
  assert.equal(run({ op: "add", extra: 1, free: [[1]] }), false); // too deep for 2
  assert.equal(run({ op: "add", extra: 1, free: NaN }), false);
});

Deno.test("a valid answer is one shared, frozen object", async () => {
  const compiled = await new DefaultValidator().compile(OPEN as never);
  const first = compiled.check({ op: "add", extra: 1 });
  assert.deepEqual(first, { valid: true });
  assert.ok(Object.isFrozen(first));
  assert.equal(compiled.check({ op: "sub", extra: 2 }), first);
});
