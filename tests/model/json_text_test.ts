import assert from "node:assert/strict";
import { findUnencodable } from "../../model/json_text.ts";

Deno.test("findUnencodable reports the first problem in document order", () => {
  const value = { a: 1n, b: [2n] };
  assert.deepEqual(findUnencodable(value), { problem: "bigint", path: ["a"] });
  assert.deepEqual(findUnencodable([0, { x: 3n }, 4n]), { problem: "bigint", path: [1, "x"] });
});

Deno.test("findUnencodable finds a cycle but not a value shared by two branches", () => {
  const shared = { n: 1 };
  assert.equal(findUnencodable({ a: shared, b: shared }), undefined);
  const loop: Record<string, unknown> = {};
  loop.self = { back: loop };
  assert.deepEqual(findUnencodable({ loop }), { problem: "cycle", path: ["loop", "self", "back"] });
});

Deno.test("findUnencodable leaves toJSON values alone and survives holes and deep nesting", () => {
  assert.equal(findUnencodable({ when: new Date(0), n: { toJSON: () => 1n } }), undefined);
  // deno-lint-ignore no-sparse-arrays
  assert.deepEqual(findUnencodable([1, , 2n]), { problem: "bigint", path: [2] });
  let deep: unknown = 5n;
  for (let i = 0; i < 100_000; i++) deep = [deep];
  assert.equal(findUnencodable(deep)?.path.length, 100_000);
});
