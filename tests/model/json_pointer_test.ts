import assert from "node:assert/strict";
import {
  escapePointerToken,
  pointerFromTokens,
  pointerTokens,
  unescapePointerToken,
} from "../../model/json_pointer.ts";
import { isNonArrayObject, isPlainObject } from "../../model/plain_object.ts";

Deno.test("escapePointerToken escapes ~ before / so '~1' stays a literal token", () => {
  assert.equal(escapePointerToken("a/b"), "a~1b");
  assert.equal(escapePointerToken("a~b"), "a~0b");
  assert.equal(escapePointerToken("~1"), "~01");
  assert.equal(escapePointerToken("plain"), "plain");
});

Deno.test("unescapePointerToken undoes ~1 before ~0 (RFC 6901 order)", () => {
  assert.equal(unescapePointerToken("~01"), "~1");
  assert.equal(unescapePointerToken("a~1b~0c"), "a/b~c");
});

Deno.test("pointerFromTokens and pointerTokens round-trip awkward keys, the root included", () => {
  const tokens = ["", "a/b", "~", "~1", "0", "é"];
  const pointer = pointerFromTokens(tokens);
  assert.equal(pointer, "//a~1b/~0/~01/0/é");
  assert.deepEqual(pointerTokens(pointer), tokens);
  assert.equal(pointerFromTokens([]), "");
  assert.deepEqual(pointerTokens(""), []);
});

Deno.test("isNonArrayObject accepts any non-array object, isPlainObject only JSON-like ones", () => {
  for (const value of [{}, Object.create(null), { a: 1 }]) {
    assert.equal(isNonArrayObject(value), true);
    assert.equal(isPlainObject(value), true);
  }
  for (const value of [new Date(0), new Map(), new (class Point {})()]) {
    assert.equal(isNonArrayObject(value), true);
    assert.equal(isPlainObject(value), false);
  }
  for (const value of [null, [], "x", 1, true, undefined]) {
    assert.equal(isNonArrayObject(value), false);
    assert.equal(isPlainObject(value), false);
  }
});
