// A real client no one here wrote: @modelcontextprotocol/inspector-cli 1.0.3
// lists and calls tools through serve over stdio and HTTP. It reads
// ../package.json relative to its working directory, so it runs from its own
// build/ folder.

import assert from "node:assert/strict";
import { caEnv, CLI, MANIFEST, startHttp } from "./_helpers.ts";

const PACKAGE = "npm:@modelcontextprotocol/inspector-cli@1.0.3";

async function buildDir(): Promise<string> {
  await new Deno.Command(Deno.execPath(), {
    args: ["cache", "--no-config", "--no-lock", PACKAGE],
    cwd: Deno.makeTempDirSync(),
    stdout: "null",
    stderr: "null",
  }).output();
  const info = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json"],
    stdout: "piped",
  })
    .output();
  const { npmCache } = JSON.parse(new TextDecoder().decode(info.stdout));
  return `${npmCache}/registry.npmjs.org/@modelcontextprotocol/inspector-cli/1.0.3/build`;
}

async function inspector(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const dir = await buildDir();
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    // As an npm: specifier, so that the package is in this process's npm resolution (a
    // path into the npm cache is not, in a fresh DENO_DIR); cwd is its build/ folder.
    args: ["run", "-A", "--no-config", "--no-lock", `${PACKAGE}/build/index.js`, ...args],
    cwd: dir,
    env: caEnv(),
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decode = (b: Uint8Array) => new TextDecoder().decode(b);
  return { code, out: decode(stdout), err: decode(stderr) };
}

const SERVE_STDIO = [Deno.execPath(), "run", "-A", CLI, "serve", MANIFEST, "--stdio"];

Deno.test("inspector-cli lists and calls tools through serve --stdio", async () => {
  const list = await inspector([...SERVE_STDIO, "--method", "tools/list"]);
  assert.equal(list.code, 0, list.err);
  const names = JSON.parse(list.out).tools.map((t: { name: string }) => t.name);
  assert.ok(names.includes("add") && names.includes("echo") && names.includes("add-twice"), names);
  const call = await inspector([
    ...SERVE_STDIO,
    "--method",
    "tools/call",
    "--tool-name",
    "add",
    "--tool-arg",
    "operation=add",
    "a=2",
    "b=40",
  ]);
  assert.equal(call.code, 0, call.err);
  assert.deepEqual(JSON.parse(call.out).structuredContent, { result: 42 });
});

Deno.test("inspector-cli lists and calls an upstream tool through serve --http", async () => {
  const served = await startHttp();
  try {
    const list = await inspector([served.url, "--method", "tools/list"]);
    assert.equal(list.code, 0, list.err);
    const tools = JSON.parse(list.out).tools as {
      name: string;
      inputSchema: Record<string, unknown>;
    }[];
    const schema = tools.find((t) => t.name === "json_schema_2020_12_tool")!.inputSchema;
    assert.equal(schema.$schema, "https://json-schema.org/draft/2020-12/schema");
    const call = await inspector([
      served.url,
      "--method",
      "tools/call",
      "--tool-name",
      "echo",
      "--tool-arg",
      "text=through the gateway",
    ]);
    assert.equal(call.code, 0, call.err);
    assert.deepEqual(JSON.parse(call.out).structuredContent, { echoed: "through the gateway" });
  } finally {
    await served.close();
  }
});
