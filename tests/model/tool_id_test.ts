import assert from "node:assert/strict";
import { InvalidToolIdError, parseToolId, toolId } from "../../model/mod.ts";

Deno.test("toolId joins namespace and name, or gives the name alone", () => {
  assert.equal(toolId({ name: "read", namespace: "fs" }), "fs:read");
  assert.equal(toolId({ name: "read" }), "read");
  assert.equal(toolId({ name: "read", namespace: "" }), "read");
});

Deno.test("parseToolId splits a namespaced ID and a plain one", () => {
  assert.deepEqual(parseToolId("filesystem:read"), { namespace: "filesystem", name: "read" });
  assert.deepEqual(parseToolId("echo"), { namespace: "", name: "echo" });
});

Deno.test("parseToolId round-trips toolId", () => {
  for (const t of [{ name: "a", namespace: "b" }, { name: "x.y-z" }]) {
    const p = parseToolId(toolId(t));
    assert.equal(toolId({ name: p.name, namespace: p.namespace }), toolId(t));
  }
});

Deno.test("parseToolId rejects malformed IDs with InvalidToolIdError", () => {
  const cases: [string, RegExp][] = [
    ["", /empty/],
    ["a:b:c", /only one ':' is allowed, found 2/],
    [":b", /must both be non-empty/],
    ["a:", /must both be non-empty/],
    ["a b", /contains " "/],
    ["ns!:b", /namespace contains "!"/],
    ["a".repeat(129), /limit is 128/],
  ];
  for (const [id, pattern] of cases) {
    assert.throws(() => parseToolId(id), (e) => {
      assert.ok(e instanceof InvalidToolIdError, id);
      assert.equal(e.code, "invalid_tool_id");
      assert.equal(e.id, id);
      assert.match(e.message, pattern);
      return true;
    });
  }
});
