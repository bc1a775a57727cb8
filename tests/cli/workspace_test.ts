// The workspace: one manifest opened once for every command and the library.
import assert from "node:assert/strict";
import { parseManifest, Redactor, Workspace } from "../../workspace/mod.ts";

const YAML = [
  "version: 1",
  "inputs:",
  "  token: { description: The API token }",
  "servers:",
  "  web:",
  "    url: http://127.0.0.1:9/mcp",
  "    headers: { Authorization: 'Bearer ${input:token}', X-Key: '${env:WS_KEY}' }",
  "tools:",
  "  - { name: add, builtin: calculate }",
  "  - { name: echo, server: web, timeoutMs: 1234 }",
  "chains:",
  "  twice:",
  "    steps: [{ tool: add, args: { operation: add, a: 1, b: 1 } }]",
].join("\n");

Deno.test("a workspace expands a server's variables once, and never expands a value it read", async () => {
  const manifest = await parseManifest(YAML, { path: "tools.yaml" });
  const reads: string[] = [];
  const env = (name: string) => {
    reads.push(name);
    if (name === "TOOLFOUNDATION_INPUT_TOKEN") return "tok-${env:OTHER_SECRET}";
    if (name === "WS_KEY") return "key-1234567";
    if (name === "OTHER_SECRET") return "must-not-be-read";
    return undefined;
  };
  const redactor = new Redactor();
  const workspace = Workspace.of(manifest, { env, redactor });
  const first = workspace.server("web");
  const second = workspace.server("web");
  assert.equal(first, second);
  assert.deepEqual(first.headers, {
    Authorization: "Bearer tok-${env:OTHER_SECRET}",
    "X-Key": "key-1234567",
  });
  assert.deepEqual(reads.sort(), ["TOOLFOUNDATION_INPUT_TOKEN", "WS_KEY"]);
  assert.equal(redactor.redact("key-1234567 tok-${env:OTHER_SECRET}"), "*** ***");
});

Deno.test("a workspace names what exists when asked for what does not", async () => {
  const workspace = Workspace.of(await parseManifest(YAML, { path: "tools.yaml" }));
  assert.throws(
    () => workspace.checkTool("nope"),
    /unknown tool "nope"; tools: add, echo; servers: web \(their tools are server:name/,
  );
  workspace.checkTool("web:anything"); // a server's tool: known only once the server lists it
  assert.throws(
    () => workspace.chain("thrice"),
    /no chain named "thrice" in tools.yaml; chains: twice/,
  );
  assert.equal(workspace.chain("twice").steps.length, 1);
  assert.throws(() => workspace.server("api"), /no server named "api" in tools.yaml; servers: web/);
  const empty = Workspace.of(await parseManifest("version: 1\n", { path: "empty.yaml" }));
  assert.throws(() => empty.checkTool("x"), /unknown tool "x"; tools: none$/);
  assert.throws(() => empty.chain("x"), /chains: none defined/);
});

Deno.test("a workspace's deadline of a tool: the command line's, else the step's, else the manifest's", async () => {
  const workspace = Workspace.of(await parseManifest(YAML, { path: "tools.yaml" }));
  assert.equal(workspace.deadlineOf("echo"), 1234);
  assert.equal(workspace.deadlineOf("echo", undefined, 50), 50);
  assert.equal(workspace.deadlineOf("echo", 7, 50), 7);
  assert.equal(workspace.deadlineOf("add"), undefined);
});

Deno.test("a workspace without servers exposes the manifest's tools without contacting anything", async () => {
  const manifest = await parseManifest(
    YAML.split("servers:")[0] + "tools:\n  - { name: add, builtin: calculate }\n",
    {
      path: "tools.yaml",
    },
  );
  const { tools, servers } = await Workspace.of(manifest).exposedTools();
  assert.deepEqual(tools.map((t) => t.id), ["add"]);
  assert.deepEqual(servers, []);
});
