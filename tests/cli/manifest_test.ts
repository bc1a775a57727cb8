import assert from "node:assert/strict";
import { ManifestError, parseManifest } from "../../workspace/mod.ts";

async function issues(text: string) {
  try {
    await parseManifest(text, { path: "m.yaml" });
  } catch (error) {
    assert.ok(error instanceof ManifestError);
    assert.equal(error.code, "invalid_manifest");
    return error.issues.map((i) => `${i.line}:${i.column} ${i.path} ${i.message}`);
  }
  assert.fail("expected a ManifestError");
}

Deno.test("parseManifest resolves built-in tools with their schemas and IDs", async () => {
  const m = await parseManifest(
    "version: 1\ntools:\n  - name: calc\n    namespace: math\n    builtin: calculate\n",
    { path: "dir/m.yaml" },
  );
  assert.equal(m.dir, "dir");
  assert.deepEqual(m.tools.map((t) => t.id), ["math:calc"]);
  assert.equal(m.tools[0].tool.name, "calc");
  assert.deepEqual(m.tools[0].tool.inputSchema.required, ["operation", "a", "b"]);
  assert.equal("builtin" in m.tools[0].tool, false);
});

Deno.test("a YAML syntax error is reported with its line and column", async () => {
  const [issue] = await issues("version: 1\ntools:\n  - name: [unclosed\n");
  assert.match(issue, /^4:1 {2}YAML syntax error|^\d+:\d+ {2}YAML syntax error/);
});

Deno.test("schema errors are all reported with positions and JSON Pointers", async () => {
  const out = await issues(
    [
      "version: 2", //                        1
      "colour: red", //                       2
      "tools:", //                            3
      "  - name: bad name", //                4
      "    builtin: calculate", //            5
      "    timeoutMs: -1", //                 6
    ].join("\n"),
  );
  assert.deepEqual(out, [
    "1:10 /version must be equal to constant 1",
    "2:1 /colour must NOT have additional property 'colour'",
    '4:11 /tools/0/name must match pattern "^[A-Za-z0-9_.-]{1,128}$"',
    "6:16 /tools/0/timeoutMs must be >= 1",
  ]);
});

Deno.test("meaning errors: duplicates, unknown servers, built-ins and chain tools", async () => {
  const out = await issues(
    [
      "version: 1",
      "servers:",
      "  web: { url: 'http://127.0.0.1:1/mcp' }",
      "tools:",
      "  - { name: a, builtin: calculate }",
      "  - { name: a, builtin: calculate }",
      "  - { name: b, server: nowhere }",
      "  - { name: c, builtin: nope }",
      "  - { name: d, builtin: calculate, server: web }",
      "  - { name: e, inputSchema: { type: object } }",
      "chains:",
      "  x:",
      "    steps:",
      "      - { tool: a, usePrevious: true }",
      "      - { tool: missing }",
    ].join("\n"),
  );
  assert.deepEqual(out, [
    '6:13 /tools/1/name duplicate tool ID "a" (first defined at /tools/0)',
    '7:24 /tools/2/server unknown server "nowhere"; servers: web',
    '8:25 /tools/3/builtin unknown built-in "nope"; built-ins: calculate, json.format, json.get, text.template, text.transform, wait',
    "9:5 /tools/4 names 2 backends (builtin, server); give exactly one",
    "10:5 /tools/5 names no backend; give exactly one of builtin, module, server or provider",
    "14:33 /chains/x/steps/0/usePrevious the first step has no previous result",
    '15:17 /chains/x/steps/1/tool unknown tool "missing"; tools: a, b, c, d, e',
  ]);
});

Deno.test("tool definitions are checked by the model's rules", async () => {
  const out = await issues(
    "version: 1\ntools:\n  - name: t\n    builtin: calculate\n    version: one\n    tags: [Not Normal]\n",
  );
  assert.equal(out.length, 2);
  assert.match(out[0], /^5:14 \/tools\/0\/version must be a semantic version/);
  assert.match(out[1], /^6:12 \/tools\/0\/tags\/0 is not normalized/);
});

Deno.test("malformed secret references are errors; well-formed ones are kept as written", async () => {
  const out = await issues(
    "version: 1\nproviders:\n  p: { url: 'http://127.0.0.1:1/x', headers: { A: '${TOKEN}' } }\n",
  );
  assert.deepEqual(out.map((o) => o.replace(/^\d+:\d+ /, "")), [
    "/providers/p/headers ${TOKEN} is not a secret reference; write ${env:NAME}",
  ]);
  const m = await parseManifest(
    "version: 1\nproviders:\n  p: { url: 'http://127.0.0.1:1/x', headers: { A: 'Bearer ${env:TOKEN}' } }\n",
    { path: "m.yaml" },
  );
  assert.equal(m.providers.p.headers?.A, "Bearer ${env:TOKEN}");
});

Deno.test("MCP tools may take their schema from the server", async () => {
  const m = await parseManifest(
    "version: 1\nservers:\n  s: { command: deno }\ntools:\n  - { name: echo, namespace: s, server: s }\n",
    { path: "m.yaml" },
  );
  assert.equal(m.tools[0].schemaFromServer, true);
  assert.equal(m.tools[0].id, "s:echo");
});

Deno.test("manifest records have no prototype: inherited names are never entries", async () => {
  const m = await parseManifest(
    "version: 1\nproviders:\n  constructor: { command: sh, inheritEnv: [A_B] }\nchains:\n  __proto__:\n    steps: [{ tool: t }]\ntools:\n  - { name: t, provider: constructor, inputSchema: { type: object } }\n",
    { path: "m.yaml" },
  );
  assert.equal(Object.getPrototypeOf(m.chains), null);
  assert.equal(m.chains.toString, undefined);
  assert.deepEqual(Object.keys(m.chains), ["__proto__"]);
  assert.equal(m.chains["__proto__"].steps[0].tool, "t");
  assert.deepEqual(m.providers["constructor"].inheritEnv, ["A_B"]);
  assert.equal(m.servers.hasOwnProperty, undefined);
  assert.deepEqual(m.locate?.("/chains/__proto__/steps/0/tool"), { line: 6, column: 21 });
});

Deno.test("inheritEnv is a list of variable names or `all`", async () => {
  const out = await issues(
    "version: 1\nproviders:\n  a: { command: sh, inheritEnv: everything }\n  b: { command: sh, inheritEnv: [1-bad] }\n",
  );
  assert.equal(out.length, 2);
  assert.match(out[0], /^3:\d+ \/providers\/a\/inheritEnv /);
  assert.match(out[1], /^4:\d+ \/providers\/b\/inheritEnv/);
  const m = await parseManifest("version: 1\nservers:\n  s: { command: deno, inheritEnv: all }\n", {
    path: "m.yaml",
  });
  assert.equal(m.servers.s.inheritEnv, "all");
});

Deno.test("a server's callsPerProcess: a whole number from 1 to 1024, for a stdio server only; refused values name their place", async () => {
  const out = await issues(
    [
      "version: 1", //                                              1
      "servers:", //                                                2
      "  zero: { command: srv, callsPerProcess: 0 }", //            3
      "  half: { command: srv, callsPerProcess: 1.5 }", //          4
      "  word: { command: srv, callsPerProcess: many }", //         5
      "  huge: { command: srv, callsPerProcess: 5000 }", //         6
      "  web: { url: 'http://127.0.0.1:1/mcp', callsPerProcess: 2 }", // 7
    ].join("\n"),
  );
  // Each refusal says what is wrong and where; the meaning check also how to fix it.
  assert.deepEqual(out, [
    "3:42 /servers/zero/callsPerProcess must be >= 1",
    "4:42 /servers/half/callsPerProcess must be integer, found number",
    "5:42 /servers/word/callsPerProcess must be integer, found string",
    "6:42 /servers/huge/callsPerProcess must be <= 1024",
    "7:58 /servers/web/callsPerProcess callsPerProcess applies to a stdio server (command) only: each call to a server at a url has a connection of its own; remove it",
  ]);
  const m = await parseManifest(
    "version: 1\nservers:\n  one: { command: srv, callsPerProcess: 1 }\n",
    { path: "m.yaml" },
  );
  assert.equal(m.servers.one.callsPerProcess, 1);
});
