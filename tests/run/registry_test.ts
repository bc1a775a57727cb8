import assert from "node:assert/strict";
import {
  InvalidBackendError,
  InvalidToolError,
  localBackend,
  mcpBackend,
  providerBackend,
  type Tool,
} from "../../model/mod.ts";
import { ToolRegistry } from "../../run/mod.ts";

const tool: Tool = { name: "add", namespace: "math", inputSchema: { type: "object" } };

Deno.test("registry add stores a tool under its namespaced ID with its backends", () => {
  const registry = new ToolRegistry();
  const entry = registry.add(tool, [localBackend("add"), mcpBackend("calc")]);
  assert.equal(entry.id, "math:add");
  assert.equal(registry.get("math:add"), entry);
  assert.deepEqual(entry.backends.map((b) => b.kind), ["local", "mcp"]);
  assert.equal(registry.size, 1);
  assert.deepEqual(registry.list().map((e) => e.id), ["math:add"]);
});

Deno.test("registry add keeps a frozen copy so later caller changes have no effect", () => {
  const registry = new ToolRegistry();
  const mine: Tool = structuredClone(tool);
  registry.add(mine, localBackend("add"));
  mine.description = "changed";
  (mine.inputSchema as Record<string, unknown>).required = ["x"];
  const stored = registry.get("math:add")!.tool;
  assert.equal(stored.description, undefined);
  assert.equal(stored.inputSchema.required, undefined);
  assert.ok(Object.isFrozen(stored.inputSchema));
});

Deno.test("registry add of an existing ID replaces the tool and merges backends without duplicates", () => {
  const registry = new ToolRegistry();
  registry.add(tool, localBackend("add"));
  const entry = registry.add(
    { ...tool, description: "v2" },
    [localBackend("add"), providerBackend("p", "add")],
  );
  assert.equal(entry.tool.description, "v2");
  assert.deepEqual(entry.backends.map((b) => b.kind), ["local", "provider"]);
});

Deno.test("registry add rejects an invalid tool or backend", () => {
  const registry = new ToolRegistry();
  assert.throws(
    () => registry.add({ name: "bad name", inputSchema: { type: "object" } }, localBackend("x")),
    InvalidToolError,
  );
  assert.throws(() => registry.add(tool, { kind: "mcp" } as never), InvalidBackendError);
  assert.equal(registry.size, 0);
});

Deno.test("registry remove and has reflect registration", () => {
  const registry = new ToolRegistry();
  registry.add(tool, localBackend("add"));
  assert.ok(registry.has("math:add"));
  assert.ok(registry.remove("math:add"));
  assert.ok(!registry.has("math:add"));
  assert.ok(!registry.remove("math:add"));
  assert.equal(registry.get("math:add"), undefined);
});

const PROTO_NAMES = ["__proto__", "constructor", "toString", "hasOwnProperty", "valueOf"];

Deno.test("registry lookups of names like __proto__ or toString are not found until registered, then ordinary", () => {
  const registry = new ToolRegistry();
  for (const name of PROTO_NAMES) {
    assert.equal(registry.get(name), undefined, name);
    assert.equal(registry.has(name), false, name);
    assert.equal(registry.remove(name), false, name);
  }
  for (const name of PROTO_NAMES) {
    registry.add({ name, inputSchema: { type: "object" } }, localBackend(name));
    registry.add({ name, namespace: "constructor", inputSchema: { type: "object" } }, [
      mcpBackend(name),
    ]);
  }
  for (const name of PROTO_NAMES) {
    assert.equal(registry.get(name)?.tool.name, name);
    assert.deepEqual(registry.get(`constructor:${name}`)?.backends, [mcpBackend(name)]);
  }
  assert.equal(registry.size, PROTO_NAMES.length * 2);
  assert.equal(registry.remove("__proto__"), true);
  assert.equal(registry.get("__proto__"), undefined);
});
