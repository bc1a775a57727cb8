import assert from "node:assert/strict";
import { InvalidToolError, isValidVersion, validateTool } from "../../model/mod.ts";

function issuesOf(tool: unknown): { path: string; message: string }[] {
  try {
    validateTool(tool);
  } catch (error) {
    assert.ok(error instanceof InvalidToolError);
    assert.equal(error.code, "invalid_tool");
    return [...error.issues];
  }
  return [];
}

const ok = { name: "read_file", inputSchema: { type: "object" } };

Deno.test("validateTool accepts a minimal tool and one with every field", () => {
  assert.deepEqual(issuesOf(ok), []);
  assert.deepEqual(
    issuesOf({
      ...ok,
      name: "a.B-c_9",
      namespace: "fs",
      version: "v1.2.3-rc.1+build.7",
      tags: ["files", "io"],
      title: "Read",
      description: "Reads",
      outputSchema: { type: "object" },
      annotations: { title: "R", readOnlyHint: true },
      icons: [{ src: "data:image/png;base64,AA==", sizes: ["any"], theme: "light" }],
      execution: { taskSupport: "forbidden" },
      _meta: {},
    }),
    [],
  );
});

Deno.test("validateTool rejects an empty name and a missing inputSchema together", () => {
  assert.deepEqual(issuesOf({ name: "" }).map((i) => i.path), ["/name", "/inputSchema"]);
});

Deno.test("validateTool names each offending character once, in order", () => {
  const [issue] = issuesOf({ ...ok, name: "a b!c d!" });
  assert.equal(issue.path, "/name");
  assert.match(issue.message, /contains " ", "!"; only letters/);
});

Deno.test("validateTool rejects names longer than 128 characters but accepts 128", () => {
  assert.deepEqual(issuesOf({ ...ok, name: "a".repeat(128) }), []);
  const [issue] = issuesOf({ ...ok, name: "a".repeat(129) });
  assert.match(issue.message, /129 characters long; the limit is 128/);
});

Deno.test("validateTool checks namespace by the name rules, which the Go original never did", () => {
  assert.deepEqual(issuesOf({ ...ok, namespace: "a:b" }).map((i) => i.path), ["/namespace"]);
  assert.deepEqual(issuesOf({ ...ok, namespace: "" }).map((i) => i.path), ["/namespace"]);
});

Deno.test("validateTool requires a semantic version when a version is present", () => {
  for (const v of ["1.2.3", "v1.2.3", "1.0.0-alpha.1", "1.0.0+20130313144700", "0.0.0-x-y.1+b"]) {
    assert.ok(isValidVersion(v), v);
    assert.deepEqual(issuesOf({ ...ok, version: v }), [], v);
  }
  for (const v of ["1.2", "v1", "01.2.3", "1.2.3-", "1.2.3-01", "V1.2.3", "latest"]) {
    assert.ok(!isValidVersion(v), v);
    assert.deepEqual(issuesOf({ ...ok, version: v }).map((i) => i.path), ["/version"], v);
  }
});

Deno.test("validateTool requires tags to be normalized already", () => {
  const issues = issuesOf({ ...ok, tags: ["ok", "Not Normal", "ok", 5] });
  assert.deepEqual(issues.map((i) => i.path), ["/tags/1", "/tags/2", "/tags/3"]);
  assert.match(issues[0].message, /normalizeTags gives "not-normal"/);
  assert.deepEqual(
    issuesOf({ ...ok, tags: Array.from({ length: 21 }, (_, i) => `t${i}`) }).map((i) => i.path),
    ["/tags"],
  );
});

Deno.test("validateTool requires object schemas at the root of input and output", () => {
  assert.deepEqual(
    issuesOf({ name: "x", inputSchema: { type: "string" }, outputSchema: [] }).map((i) => i.path),
    ["/inputSchema/type", "/outputSchema"],
  );
  assert.deepEqual(issuesOf({ name: "x", inputSchema: {} }).map((i) => i.path), [
    "/inputSchema/type",
  ]);
});

Deno.test("validateTool checks the shape of annotations, icons and execution", () => {
  const issues = issuesOf({
    ...ok,
    annotations: { readOnlyHint: "yes", title: 1 },
    icons: [{ src: "" }, { src: "x", sizes: "48x48", theme: "blue" }, 3],
    execution: { taskSupport: "always" },
    _meta: [],
    title: 5,
  });
  assert.deepEqual(issues.map((i) => i.path), [
    "/title",
    "/annotations/title",
    "/annotations/readOnlyHint",
    "/icons/0/src",
    "/icons/1/sizes",
    "/icons/1/theme",
    "/icons/2",
    "/execution/taskSupport",
    "/_meta",
  ]);
});

Deno.test("validateTool rejects a value that is not an object", () => {
  assert.deepEqual(issuesOf(null).map((i) => i.path), [""]);
  assert.deepEqual(issuesOf([ok]).map((i) => i.path), [""]);
});

Deno.test("InvalidToolError's message lists every issue with its pointer", () => {
  assert.throws(
    () => validateTool({ name: "", inputSchema: { type: "array" } }),
    /invalid tool: \/name: name must not be empty; \/inputSchema\/type: must be "object"/,
  );
});
