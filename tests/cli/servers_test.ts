// The manifest's servers' tools are first-class: list, convert, validate and
// run see them, filtered and renamed as the manifest says; the configuration
// files users have (Claude / Claude Code `.mcp.json`, Cursor, VS Code) work
// as manifests as they are, and `import` turns them into YAML manifests.
import assert from "node:assert/strict";
import { cli, flagsFor, readFlags } from "./_cli.ts";
import { EVERYTHING, FILESYSTEM, MEMORY, startEverythingHttp } from "../run/_mcp_servers.ts";
import { parseManifest } from "../../workspace/manifest.ts";
import { serverConfig } from "../../workspace/runner_setup.ts";
import { startSseServer } from "../fixtures/run/mcp_sse_server.ts";

const DENO = Deno.execPath();
const run = (pkg: string, ...args: string[]) => ["run", "-A", "--no-config", pkg, ...args];

async function tempDir(files: Record<string, string>): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "tf-servers-" });
  for (const [name, text] of Object.entries(files)) {
    const path = `${dir}/${name}`;
    await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
    await Deno.writeTextFile(path, text);
  }
  return dir;
}

function ids(stdout: string): string[] {
  return JSON.parse(stdout).tools.map((t: { id: string }) => t.id);
}

Deno.test("a Claude .mcp.json works as a manifest: list, convert --strict and run its servers' tools", async () => {
  const dir = await tempDir({
    ".mcp.json": JSON.stringify({
      mcpServers: {
        everything: { command: DENO, args: run(EVERYTHING, "stdio") },
        memory: {
          type: "stdio",
          command: DENO,
          args: run(MEMORY),
          env: { MEMORY_FILE_PATH: "${TF_TEST_MEMORY:-/tmp/tf-memory-unused.jsonl}" },
        },
      },
    }),
  });
  const path = `${dir}/.mcp.json`;
  const flags = await flagsFor(path);
  const list = await cli(["list", path], { flags });
  assert.equal(list.code, 0, list.stderr);
  const listed = ids(list.stdout);
  for (const id of ["everything:echo", "everything:get-sum", "memory:create_entities"]) {
    assert.ok(listed.includes(id), `${id} in ${listed}`);
  }
  assert.deepEqual(
    JSON.parse(list.stdout).servers.map((s: { name: string; status: string }) => s.status),
    ["ok", "ok"],
  );
  const convert = await cli(["convert", path, "--to", "openai", "--strict"], { flags });
  assert.equal(convert.code, 0, convert.stderr);
  const names = JSON.parse(convert.stdout).map((t: { function: { name: string } }) =>
    t.function.name
  );
  assert.equal(names.length, listed.length);
  assert.ok(
    names.some((n: string) => /echo/.test(n)) && names.some((n: string) => /read_graph/.test(n)),
  );
  const validate = await cli(["validate", path, "--target", "openai", "--strict"], { flags });
  assert.equal(validate.code, 0, validate.stderr);
  assert.match(validate.stderr, new RegExp(`${listed.length} tool\\(s\\)`));
  const sum = await cli(["run", path, "everything:get-sum", "--args", '{"a":20,"b":22}'], {
    flags: await flagsFor(path, "everything:get-sum"),
  });
  assert.equal(sum.code, 0, sum.stderr);
  assert.match(sum.stdout, /42/);
  // Without the run permission, list names the flag and connects to nothing.
  const noRun = await cli(["list", path], { flags: readFlags(path) });
  assert.equal(noRun.code, 3, noRun.stderr);
  assert.match(noRun.stderr, /--allow-run/);
});

Deno.test("a Cursor file (${env:NAME}, ${workspaceFolder}) runs the filesystem server's tools", async () => {
  const dir = await tempDir({
    "data/hello.txt": "hello from cursor",
    ".cursor/mcp.json": JSON.stringify({
      mcpServers: {
        files: { command: DENO, args: [...run(FILESYSTEM), "${workspaceFolder}/${env:TF_SUB}"] },
      },
    }),
  });
  const path = `${dir}/.cursor/mcp.json`;
  const flags = await flagsFor(path);
  const env = { TF_SUB: "data" };
  const list = await cli(["list", path], { flags, env });
  assert.equal(list.code, 0, list.stderr);
  assert.ok(ids(list.stdout).includes("files:read_text_file"), list.stdout);
  const read = await cli(
    [
      "run",
      path,
      "files:read_text_file",
      "--args",
      JSON.stringify({ path: `${dir}/data/hello.txt` }),
    ],
    { flags, env },
  );
  assert.equal(read.code, 0, read.stderr);
  assert.match(read.stdout, /hello from cursor/);
});

Deno.test("a VS Code file (comments, trailing commas, inputs) works; a missing ${input:ID} says how to give it", async () => {
  const memory = `${await Deno.makeTempDir()}/memory.jsonl`;
  const dir = await tempDir({
    ".vscode/mcp.json": `{
  // VS Code's format: JSON with comments and trailing commas
  "inputs": [
    { "type": "promptString", "id": "memory-file", "description": "Memory file", "password": true },
  ],
  "servers": {
    "memory": {
      "type": "stdio",
      "command": ${JSON.stringify(DENO)},
      "args": ${JSON.stringify(run(MEMORY))},
      "env": { "MEMORY_FILE_PATH": "\${input:memory-file}" }, /* given at run time */
    },
  },
}`,
  });
  const path = `${dir}/.vscode/mcp.json`;
  const flags = await flagsFor(path);
  assert.ok(flags.join(" ").includes("TOOLFOUNDATION_INPUT_MEMORY_FILE"), flags.join(" "));
  const missing = await cli(["run", path, "memory:read_graph"], { flags });
  assert.equal(missing.code, 2, missing.stderr);
  assert.match(missing.stderr, /input "memory-file" \(Memory file\) is not given/);
  assert.match(missing.stderr, /TOOLFOUNDATION_INPUT_MEMORY_FILE/);
  const given = await cli(["run", path, "memory:read_graph"], {
    flags,
    env: { TOOLFOUNDATION_INPUT_MEMORY_FILE: memory },
  });
  assert.equal(given.code, 0, given.stderr);
  assert.deepEqual(JSON.parse(given.stdout).entities, []);
  assert.ok(!given.stderr.includes(memory), "the input's value is never echoed");
});

Deno.test("filters: include/exclude globs and annotations; overrides rename and describe without a schema", async () => {
  const yaml = [
    "version: 1",
    "servers:",
    "  everything:",
    `    command: ${JSON.stringify(DENO)}`,
    `    args: ${JSON.stringify(run(EVERYTHING, "stdio"))}`,
    "    include: ['get-*', echo, 'toggle-*']",
    "    exclude: ['*-env']",
    "    tools:",
    "      echo: { name: say, description: Says it back }",
    "  readonly:",
    `    command: ${JSON.stringify(DENO)}`,
    `    args: ${JSON.stringify(run(EVERYTHING, "stdio"))}`,
    "    annotations: { readOnlyHint: false, destructiveHint: false }",
  ].join("\n");
  const dir = await tempDir({ "tools.yaml": yaml });
  const path = `${dir}/tools.yaml`;
  const flags = await flagsFor(path);
  const list = await cli(["list", path], { flags });
  assert.equal(list.code, 0, list.stderr);
  const listed = ids(list.stdout);
  const first = listed.filter((id) => id.startsWith("everything:")).sort();
  assert.ok(first.includes("everything:say") && first.includes("everything:get-sum"), `${first}`);
  assert.ok(!first.includes("everything:echo"), "renamed");
  assert.ok(!first.includes("everything:get-env"), "excluded by *-env");
  assert.ok(!first.some((id) => id.includes("long-running")), "not included");
  const say = JSON.parse(list.stdout).tools.find((t: { id: string }) => t.id === "everything:say");
  assert.equal(say.description, "Says it back");
  const second = listed.filter((id) => id.startsWith("readonly:")).sort();
  assert.ok(second.length > 0 && !second.includes("readonly:echo"), `${second}`);
  assert.ok(second.includes("readonly:toggle-simulated-logging"), `${second}`);
  const left = JSON.parse(list.stdout).servers[1].left;
  assert.ok(left.some((l: { reason: string }) => /readOnlyHint is true/.test(l.reason)));
  const out = await cli(["run", path, "everything:say", "--args", '{"message":"hi"}'], { flags });
  assert.equal(out.code, 0, out.stderr);
  assert.match(out.stdout, /Echo: hi/);
  const hidden = await cli(["run", path, "everything:get-env"], { flags });
  assert.equal(hidden.code, 2, hidden.stderr);
  assert.match(hidden.stderr, /not exposed: excluded by "\*-env"/);
});

Deno.test("an unreachable server is an error naming it; --keep-going warns and goes on; --offline connects to nothing", async () => {
  const yaml = [
    "version: 1",
    "servers:",
    "  good:",
    `    command: ${JSON.stringify(DENO)}`,
    `    args: ${JSON.stringify(run(EVERYTHING, "stdio"))}`,
    "    include: [echo]",
    "  gone: { url: 'http://127.0.0.1:9/mcp' }",
    "tools:",
    "  - { name: add, namespace: math, builtin: calculate }",
  ].join("\n");
  const dir = await tempDir({ "tools.yaml": yaml });
  const path = `${dir}/tools.yaml`;
  const flags = await flagsFor(path);
  const failed = await cli(["list", path, "--timeout", "20000"], { flags });
  assert.equal(failed.code, 1, failed.stderr);
  assert.match(failed.stderr, /server "gone" cannot be used/);
  assert.equal(failed.stdout, "");
  const going = await cli(["list", path, "--keep-going"], { flags });
  assert.equal(going.code, 0, going.stderr);
  assert.match(going.stderr, /warning: server "gone" cannot be used/);
  assert.deepEqual(ids(going.stdout).sort(), ["good:echo", "math:add"]);
  const offline = await cli(["convert", path, "--to", "openai", "--offline"], {
    flags: readFlags(path),
  });
  assert.equal(offline.code, 0, offline.stderr);
  assert.match(offline.stderr, /servers not contacted: good, gone/);
  assert.equal(JSON.parse(offline.stdout).length, 1);
});

Deno.test("import writes an equivalent YAML manifest with comments; it lists the same tools", async () => {
  const dir = await tempDir({
    ".mcp.json": JSON.stringify({
      mcpServers: {
        everything: { command: DENO, args: run(EVERYTHING, "stdio") },
        remote: {
          type: "sse",
          url: "${REMOTE_URL:-http://127.0.0.1:9/sse}",
          headers: { A: "${TOKEN}" },
        },
      },
    }),
  });
  const path = `${dir}/.mcp.json`;
  const out = `${dir}/tools.yaml`;
  const imported = await cli(["import", path, "--out", out], {
    flags: [`--allow-read=${dir}`, `--allow-write=${dir}`],
  });
  assert.equal(imported.code, 0, imported.stderr);
  const text = await Deno.readTextFile(out);
  assert.match(text, /^# yaml-language-server/);
  assert.match(text, /Imported from .*\.mcp\.json/);
  assert.match(text, /# legacy HTTP\+SSE transport\n\s+remote:/);
  assert.match(text, /url: \$\{env:REMOTE_URL:-http:\/\/127\.0\.0\.1:9\/sse\}/);
  assert.match(text, /A: \$\{env:TOKEN\}/);
  const again = await cli(["import", path, "--out", out], {
    flags: [`--allow-read=${dir}`, `--allow-write=${dir}`],
  });
  assert.equal(again.code, 2);
  assert.match(again.stderr, /exists; give --force/);
  const offline = await cli(["list", out, "--offline"], { flags: readFlags(out) });
  assert.equal(offline.code, 0, offline.stderr);
  assert.match(offline.stderr, /servers not contacted: everything, remote/);
});

Deno.test("type http in a VS Code file reaches a Streamable HTTP server; type sse maps to the sse transport", async () => {
  const server = await startEverythingHttp();
  try {
    const dir = await tempDir({
      ".vscode/mcp.json": JSON.stringify({
        servers: {
          web: { type: "http", url: server.url, headers: { "X-Test": "${env:TF_HDR:-none}" } },
        },
      }),
    });
    const path = `${dir}/.vscode/mcp.json`;
    const flags = await flagsFor(path);
    const out = await cli(["run", path, "web:echo", "--args", '{"message":"over http"}'], {
      flags,
    });
    assert.equal(out.code, 0, out.stderr);
    assert.match(out.stdout, /Echo: over http/);
  } finally {
    await server.stop();
  }
  const manifest = await parseManifest(
    JSON.stringify({ mcpServers: { old: { type: "sse", url: "http://127.0.0.1:9/sse" } } }),
    { path: "/tmp/x/.mcp.json" },
  );
  assert.equal(manifest.config, "claude");
  const config = serverConfig(manifest, manifest.servers.old, { redact: (t) => t });
  assert.deepEqual(config, { transport: "sse", url: "http://127.0.0.1:9/sse", headers: undefined });
});

Deno.test("an override's timeoutMs is the deadline of that server tool; the server's own applies to the rest", async () => {
  const fake = new URL("../fixtures/run/mcp_fake_server.ts", import.meta.url).pathname;
  const dir = await tempDir({
    "tools.yaml": [
      "version: 1",
      "servers:",
      "  fake:",
      `    command: ${JSON.stringify(DENO)}`,
      `    args: [run, -A, --no-config, ${JSON.stringify(fake)}, normal]`,
      "    timeoutMs: 600000",
      "    tools:",
      "      sleep: { name: nap, timeoutMs: 8000 }",
    ].join("\n"),
  });
  const path = `${dir}/tools.yaml`;
  const flags = await flagsFor(path);
  const started = performance.now();
  const out = await cli(["run", path, "fake:nap"], { flags });
  assert.equal(out.code, 1, out.stderr);
  // One deadline covers starting, listing and the call: what is left of 8000 ms.
  assert.match(out.stderr, /\[timeout\] tool "fake:nap" timed out after \d+ ms/);
  assert.ok(performance.now() - started < 120_000, "the override's 8 s, not the server's 10 min");
});

Deno.test("a configuration file's problems are located in the file itself; unknown placeholders are errors", async () => {
  const text = [
    "{",
    '  "mcpServers": {',
    '    "nothing": { "args": [] },',
    '    "odd": { "command": "x", "env": { "A": "${not a name}" } },',
    '    "sse": { "type": "sse" }',
    "  }",
    "}",
  ].join("\n");
  const error = await parseManifest(text, { path: "/tmp/w/.mcp.json" }).catch((e) => e);
  assert.equal(error.code, "invalid_manifest");
  const where = error.issues.map((i: { line: number; path: string }) => `${i.line} ${i.path}`);
  // Named by the file's own keys, not the manifest's `servers`.
  assert.ok(where.some((w: string) => w.startsWith("3 /mcpServers/nothing")), where.join("; "));
  assert.ok(where.includes("4 /mcpServers/odd/env"), where.join("; "));
  assert.ok(where.some((w: string) => w.startsWith("5 /mcpServers/sse")), where.join("; "));
  // A manifest with version: 1 is never taken for a configuration file.
  const manifest = await parseManifest("version: 1\nservers: { a: { command: x } }\n", {
    path: "m.yaml",
  });
  assert.equal(manifest.config, undefined);
});

Deno.test("type sse in a .mcp.json reaches a legacy HTTP+SSE server: list and run through it", async () => {
  const server = startSseServer();
  try {
    const dir = await tempDir({
      ".mcp.json": JSON.stringify({ mcpServers: { old: { type: "sse", url: server.url } } }),
    });
    const path = `${dir}/.mcp.json`;
    const flags = await flagsFor(path);
    const list = await cli(["list", path], { flags });
    assert.equal(list.code, 0, list.stderr);
    assert.ok(ids(list.stdout).includes("old:echo"), list.stdout);
    const out = await cli(["run", path, "old:echo", "--args", '{"message":"over sse"}'], { flags });
    assert.equal(out.code, 0, out.stderr);
    assert.match(out.stdout, /Echo: over sse/);
  } finally {
    await server.stop();
  }
});
