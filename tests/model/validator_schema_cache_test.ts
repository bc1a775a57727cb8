import assert from "node:assert/strict";
import { DefaultValidator } from "../../model/mod.ts";
import { frozenJson } from "../../model/_frozen_json.ts";

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null) {
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
    Object.freeze(value);
  }
  return value;
}

/** How often `JSON.stringify` is given `target` while `run` runs. */
async function stringifiedDuring(target: unknown, run: () => Promise<unknown>): Promise<number> {
  const original = JSON.stringify;
  let count = 0;
  JSON.stringify = ((value: unknown, ...rest: unknown[]) => {
    if (value === target) count++;
    return (original as (...a: unknown[]) => string)(value, ...rest);
  }) as typeof JSON.stringify;
  try {
    await run();
  } finally {
    JSON.stringify = original;
  }
  return count;
}

const schema = () => ({
  type: "object",
  properties: { text: { type: "string", maxLength: 3 } },
  required: ["text"],
});

Deno.test("a deep-frozen schema seen before is not serialised again to check that it did not change", async () => {
  const v = new DefaultValidator();
  const frozen = deepFreeze(schema());
  const first = await v.compile(frozen);
  const count = await stringifiedDuring(frozen, async () => {
    for (let i = 0; i < 5; i++) assert.equal(await v.compile(frozen), first);
  });
  assert.equal(count, 0);
  // A schema object that is not frozen is still checked on every use.
  const open = schema();
  await v.compile(open);
  assert.equal(await stringifiedDuring(open, () => v.compile(open)), 1);
});

Deno.test("a frozen schema whose nested object is not frozen is recompiled after that object changes", async () => {
  const v = new DefaultValidator();
  const nested = { type: "string", maxLength: 3 };
  const s = Object.freeze({ type: "object", properties: Object.freeze({ text: nested }) });
  assert.equal((await v.compile(s)).check({ text: "abcd" }).valid, false);
  nested.maxLength = 10;
  assert.equal((await v.compile(s)).check({ text: "abcd" }).valid, true);
});

Deno.test("a frozen schema with a getter is recompiled when the getter answers differently", async () => {
  const v = new DefaultValidator();
  let max = 3;
  const text = Object.freeze({
    type: "string",
    get maxLength() {
      return max;
    },
  });
  const s = Object.freeze({ type: "object", properties: Object.freeze({ text }) });
  assert.equal((await v.compile(s)).check({ text: "abcd" }).valid, false);
  max = 10;
  assert.equal((await v.compile(s)).check({ text: "abcd" }).valid, true);
});

Deno.test("a schema mutated after compiling is recompiled; an equal refrozen copy shares the check", async () => {
  const v = new DefaultValidator();
  const s = schema();
  assert.equal((await v.compile(s)).check({ text: "abcd" }).valid, false);
  s.properties.text.maxLength = 10;
  assert.equal((await v.compile(s)).check({ text: "abcd" }).valid, true);
  const frozen = deepFreeze(schema());
  frozen.properties.text.maxLength; // read only
  assert.equal((await v.compile(frozen)).check({ text: "abcd" }).valid, false);
});

Deno.test("frozenJson is true only for deep-frozen plain data", () => {
  assert.equal(frozenJson(deepFreeze(schema())), true);
  assert.equal(frozenJson(deepFreeze({ a: [1, "x", null, true, { b: [] }] })), true);
  assert.equal(frozenJson(deepFreeze(Object.assign(Object.create(null), { a: 1 }))), true);
  assert.equal(frozenJson("text"), true);
  assert.equal(frozenJson(schema()), false, "not frozen");
  assert.equal(frozenJson(Object.freeze({ a: { b: 1 } })), false, "nested not frozen");
  assert.equal(
    frozenJson(Object.freeze({ a: Object.freeze([{}]) })),
    false,
    "array item not frozen",
  );
  assert.equal(frozenJson(deepFreeze({ f: () => 1 })), false, "a function");
  assert.equal(frozenJson(deepFreeze({ toJSON: "x" })), false, "an own toJSON");
  assert.equal(frozenJson(Object.freeze(new (class X {})())), false, "a class instance");
  assert.equal(frozenJson(Object.freeze(new Date(0))), false, "a date");
  assert.equal(
    frozenJson(Object.freeze({
      get a() {
        return 1;
      },
    })),
    false,
    "a getter",
  );
  const cycle: Record<string, unknown> = {};
  cycle.self = cycle;
  Object.freeze(cycle);
  assert.equal(frozenJson(cycle), false, "a cycle");
  let deep: unknown = 1;
  for (let i = 0; i < 600; i++) deep = Object.freeze([deep]);
  assert.equal(frozenJson(deep), false, "nested deeper than the limit");
  assert.equal(frozenJson(deep, 1000), true);
  const shared = Object.freeze({ x: 1 });
  assert.equal(
    frozenJson(Object.freeze({ a: shared, b: shared })),
    true,
    "a shared object is no cycle",
  );
});
