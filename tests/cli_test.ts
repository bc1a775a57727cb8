// The CLI as a user runs it: a subprocess under `deno run` with exactly the
// permission flags the compile task gives the binary (read from deno.json), or,
// for temporary manifests, exactly the flags `permissions` prints for them.
import assert from "node:assert/strict";
import denoJson from "../deno.json" with { type: "json" };
import { main } from "../cli/main.ts";
import { shellWords } from "./cli/_cli.ts";

const ROOT = new URL("..", import.meta.url).pathname;
const COMPILE_FLAGS = denoJson.tasks.compile.split(" ").filter((a) => a.startsWith("--allow-"));

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

async function cli(
  args: string[],
  options: { flags?: string[]; stdin?: string } = {},
): Promise<Outcome> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", ...(options.flags ?? COMPILE_FLAGS), "cli.ts", ...args],
    cwd: ROOT,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).spawn();
  const writer = child.stdin.getWriter();
  if (options.stdin !== undefined) await writer.write(new TextEncoder().encode(options.stdin));
  await writer.close();
  const out = await child.output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

async function tempManifest(yaml: string, files: Record<string, string> = {}): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "tf-cli-" });
  await Deno.writeTextFile(`${dir}/tools.yaml`, yaml);
  for (const [name, text] of Object.entries(files)) {
    await Deno.writeTextFile(`${dir}/${name}`, text);
  }
  return dir;
}

async function flagsFor(manifest: string, target?: string): Promise<string[]> {
  const out = await cli(["permissions", manifest, ...(target ? [target] : [])], {
    flags: [`--allow-read=${manifest}`],
  });
  assert.equal(out.code, 0, out.stderr);
  const line = out.stdout.split("\n")[0];
  assert.match(line, /^deno run .* cli\.ts (run|chain) /);
  const words = shellWords(line); // `'--allow-env=...,npm_config_*,...'` is quoted
  return words.slice(2, words.indexOf("cli.ts"));
}

async function exists(path: string): Promise<boolean> {
  return await Deno.stat(path).then(() => true, () => false);
}

Deno.test("--help, command help and --version exit 0; no or unknown command exits 2", async () => {
  const help = await cli(["--help"]);
  assert.equal(help.code, 0);
  for (const c of ["run", "chain", "list", "validate", "convert", "permissions"]) {
    assert.match(help.stdout, new RegExp(`\\n  ${c} `));
  }
  assert.match(
    help.stdout,
    /3 missing permission, 4 a server needs a login \(auth login\),\n {2}5 a server tool changed since it was locked, 130 interrupted/,
  );
  const runHelp = await cli(["run", "--help"]);
  assert.equal(runHelp.code, 0);
  assert.match(runHelp.stdout, /--args-file <file>/);
  const version = await cli(["--version"]);
  assert.equal(version.stdout, `toolfoundation ${denoJson.version}\n`);
  assert.equal((await cli([])).code, 2);
  const unknown = await cli(["frobnicate"]);
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /unknown command "frobnicate"/);
});

Deno.test("run prints the structured result as JSON, with arguments from --args or stdin", async () => {
  const a = await cli([
    "run",
    "examples/tools.yaml",
    "math:calculate",
    "--args",
    '{"operation":"multiply","a":6,"b":7}',
  ]);
  assert.equal(a.code, 0, a.stderr);
  assert.deepEqual(JSON.parse(a.stdout), { result: 42 });
  const b = await cli(["run", "examples/tools.yaml", "text:transform"], {
    stdin: '{"text":"abc","operation":"reverse"}',
  });
  assert.equal(b.code, 0, b.stderr);
  assert.deepEqual(JSON.parse(b.stdout), { result: "cba" });
});

Deno.test("run with --args-file needs read permission for that file", async () => {
  const dir = await Deno.makeTempDir({ prefix: "tf-args-" });
  await Deno.writeTextFile(`${dir}/args.json`, '{"operation":"add","a":1,"b":2}');
  const args = ["run", "examples/tools.yaml", "math:calculate", "--args-file", `${dir}/args.json`];
  const denied = await cli(args);
  assert.equal(denied.code, 3);
  assert.match(denied.stderr, new RegExp(`--allow-read=${dir}/args.json  \\(an input file\\)`));
  const ok = await cli(args, { flags: [...COMPILE_FLAGS, `--allow-read=examples,${dir}`] });
  assert.equal(ok.code, 0, ok.stderr);
  assert.deepEqual(JSON.parse(ok.stdout), { result: 3 });
});

Deno.test("run with bad arguments exits 1 with a clear message and nothing on stdout", async () => {
  const out = await cli([
    "run",
    "examples/tools.yaml",
    "math:calculate",
    "--args",
    '{"operation":"pow","a":"2"}',
  ]);
  assert.equal(out.code, 1);
  assert.equal(out.stdout, "");
  assert.match(out.stderr, /\[input_validation\]/);
  assert.match(out.stderr, /\/operation: must be equal to one of the allowed values/);
  assert.match(out.stderr, /must have required property 'b'/);
  const notJson = await cli(["run", "examples/tools.yaml", "math:calculate", "--args", "{oops"]);
  assert.equal(notJson.code, 2);
  assert.match(notJson.stderr, /the arguments \(--args\) are not valid JSON/);
  const unknown = await cli(["run", "examples/tools.yaml", "math:nope"]);
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /unknown tool "math:nope"; tools: math:calculate, /);
  const badOption = await cli(["run", "examples/tools.yaml", "math:calculate", "--bogus"]);
  assert.equal(badOption.code, 2);
});

Deno.test("chain runs the bundled example end to end", async () => {
  const out = await cli(["chain", "examples/tools.yaml", "area-report"]);
  assert.equal(out.code, 0, out.stderr);
  const result = JSON.parse(out.stdout);
  assert.equal(result.ok, true);
  assert.deepEqual(result.steps.map((s: { toolId: string }) => s.toolId), [
    "math:calculate",
    "text:template",
    "text:transform",
  ]);
  assert.deepEqual(result.result, { result: "THE ROOM IS 90 SQUARE METRES (12 M X 7.5 M)." });
});

Deno.test("chain stops at the first failing step and reports every step so far", async () => {
  const dir = await tempManifest(
    [
      "version: 1",
      "tools:",
      "  - { name: calc, builtin: calculate }",
      "  - { name: get, builtin: json.get }",
      "chains:",
      "  broken:",
      "    steps:",
      "      - { tool: calc, args: { operation: add, a: 1, b: 1 } }",
      "      - { tool: get, usePrevious: true, args: { pointer: /nothing } }",
      "      - { tool: calc, args: { operation: add, a: 1, b: 1 } }",
    ].join("\n"),
  );
  const out = await cli(["chain", `${dir}/tools.yaml`, "broken"], {
    flags: await flagsFor(`${dir}/tools.yaml`),
  });
  assert.equal(out.code, 1);
  const result = JSON.parse(out.stdout);
  assert.equal(result.ok, false);
  assert.equal(result.steps.length, 2);
  assert.equal(result.steps[1].error.code, "execution");
  assert.match(out.stderr, /nothing at \/nothing/);
});

Deno.test("list, validate, convert and permissions describe the bundled example", async () => {
  const list = await cli(["list", "examples/tools.yaml"]);
  assert.equal(list.code, 0, list.stderr);
  const listed = JSON.parse(list.stdout);
  assert.equal(listed.tools[0].id, "math:calculate");
  assert.equal(listed.tools[0].backend, "builtin:calculate");
  assert.deepEqual(listed.chains.map((c: { name: string }) => c.name), ["area-report", "pointer"]);

  const validate = await cli(["validate", "examples/tools.yaml"]);
  assert.equal(validate.code, 0, validate.stderr);
  assert.match(validate.stderr, /6 tool\(s\), 2 chain\(s\) valid/);
  for (const target of ["openai", "anthropic", "gemini"]) {
    const v = await cli(["validate", "examples/tools.yaml", "--target", target]);
    assert.equal(v.code, 0, `${target}: ${v.stderr}`);
    assert.match(v.stderr, new RegExp(`${target} preflight passed`));
  }

  const convert = await cli(["convert", "examples/tools.yaml", "--to", "anthropic"]);
  assert.equal(convert.code, 0, convert.stderr);
  const tools = JSON.parse(convert.stdout);
  assert.equal(tools.length, 6);
  assert.equal(tools[0].name, "math__calculate");
  assert.equal(tools[0].input_schema.type, "object");
  const badTarget = await cli(["convert", "examples/tools.yaml", "--to", "cohere"]);
  assert.equal(badTarget.code, 2);

  const perms = await cli(["permissions", "examples/tools.yaml"]);
  assert.equal(perms.code, 0, perms.stderr);
  assert.equal(
    perms.stdout.split("\n")[0],
    "deno run --allow-read=examples/tools.yaml cli.ts " +
      "run examples/tools.yaml '<toolId>'",
  );
});

Deno.test("bad manifests exit 2 with file:line:column for every problem", async () => {
  const syntax = await tempManifest("version: 1\ntools:\n  - name: [oops\n");
  const a = await cli(["list", `${syntax}/tools.yaml`], { flags: await flagsForRead(syntax) });
  assert.equal(a.code, 2);
  assert.match(a.stderr, new RegExp(`${syntax}/tools.yaml:\\d+:\\d+: /: YAML syntax error`));
  const schema = await tempManifest(
    "version: 1\ntools:\n  - name: a\n    builtin: calculate\n    colour: red\nchains:\n  c:\n    steps: [{ tool: zzz }]\n",
  );
  const b = await cli(["validate", `${schema}/tools.yaml`], { flags: await flagsForRead(schema) });
  assert.equal(b.code, 2);
  assert.match(
    b.stderr,
    new RegExp(`tools.yaml:5:5: /tools/0/colour: must NOT have additional property 'colour'`),
  );
  assert.match(
    b.stderr,
    /tools.yaml:8:21: \/chains\/c\/steps\/0\/tool: unknown tool "zzz"; tools: a/,
  );
  assert.match(b.stderr, /invalid manifest \(2 problems\); nothing was run/);
});

function flagsForRead(dir: string): Promise<string[]> {
  return Promise.resolve([`--allow-read=${dir}`]);
}

Deno.test("a missing permission exits 3 with the exact flags, having run nothing", async () => {
  const dir = await tempManifest(
    [
      "version: 1",
      "providers:",
      "  shell:",
      "    command: sh",
      `    args: ["-c", "touch ${"$"}{env:MARKER}; cat"]`,
      "    env: { MARKER: '${env:MARKER}' }",
      "tools:",
      "  - name: echo",
      "    provider: shell",
      "    inputSchema: { type: object }",
    ].join("\n"),
  );
  const manifest = `${dir}/tools.yaml`;
  const flags = await flagsFor(manifest);
  // `kill` stops the provider's process group under a scoped --allow-run.
  assert.deepEqual(flags.slice(0, 2), [`--allow-read=${manifest}`, "--allow-run=kill,sh"]);
  assert.equal(flags.length, 3);
  const env = flags[2].replace("--allow-env=", "").split(",");
  // The variables the command inherits by default, those the manifest references, nothing else.
  for (const name of ["MARKER", "PATH", "NODE_EXTRA_CA_CERTS"]) {
    assert.ok(env.includes(name), name);
  }
  // Reading the manifest needs no variable (the YAML parser reads none).
  assert.ok(!env.includes("LOG_STREAM") && !env.includes("LOG_TOKENS"), env.join(","));
  const marker = `${dir}/ran`;
  const denied = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--quiet",
      `--allow-read=${manifest}`,
      "--allow-env=MARKER",
      "cli.ts",
      "run",
      manifest,
      "echo",
      "--args",
      "{}",
    ],
    cwd: ROOT,
    env: { MARKER: marker, NO_COLOR: "1" },
    stdin: "null",
  }).output();
  assert.equal(denied.code, 3);
  const stderr = new TextDecoder().decode(denied.stderr);
  assert.match(
    stderr,
    /--allow-run=kill,sh {2}\(provider "shell" \(kill stops its process group, what it started included\); provider "shell"\)/,
  );
  assert.match(stderr, /nothing was run/);
  assert.equal(await exists(marker), false);
  const allowed = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", ...flags, "cli.ts", "run", manifest, "echo", "--args", '{"x":1}'],
    cwd: ROOT,
    env: { MARKER: marker, NO_COLOR: "1" },
    stdin: "null",
  }).output();
  assert.equal(allowed.code, 0, new TextDecoder().decode(allowed.stderr));
  assert.deepEqual(JSON.parse(new TextDecoder().decode(allowed.stdout)), { x: 1 });
  assert.equal(await exists(marker), true);
});

Deno.test("a module tool runs sandboxed: reaching outside its grant is permission_denied", async () => {
  const dir = await tempManifest(
    [
      "version: 1",
      "tools:",
      "  - name: peek",
      "    module: ./peek.ts",
      "    inputSchema: { type: object, properties: { path: { type: string } }, required: [path] }",
      "    permissions: { read: [./allowed.txt], write: [./ran.txt] }",
    ].join("\n"),
    {
      "peek.ts": [
        "export default async function (args: { path: string }) {",
        '  await Deno.writeTextFile(new URL("./ran.txt", import.meta.url), "ran");',
        "  return { text: await Deno.readTextFile(args.path) };",
        "}",
      ].join("\n"),
      "allowed.txt": "inside",
      "secret.txt": "outside",
    },
  );
  const manifest = `${dir}/tools.yaml`;
  const flags = await flagsFor(manifest);
  // The tool runs in a child Deno process; `kill` stops its process group.
  assert.ok(!flags.includes("--unstable-worker-options"), flags.join(" "));
  assert.ok(flags.includes(`--allow-run=${Deno.execPath()},kill`), flags.join(" "));
  assert.ok(flags.some((f) => f.startsWith("--allow-write=") && f.includes(`${dir}/ran.txt`)));
  const bad = await cli(["run", manifest, "peek", "--args", "{}"], { flags });
  assert.equal(bad.code, 1);
  assert.equal(await exists(`${dir}/ran.txt`), false, "invalid arguments must not run the tool");
  const ok = await cli([
    "run",
    manifest,
    "peek",
    "--args",
    JSON.stringify({ path: `${dir}/allowed.txt` }),
  ], { flags });
  assert.equal(ok.code, 0, ok.stderr);
  assert.deepEqual(JSON.parse(ok.stdout), { text: "inside" });
  // The CLI itself reads the module's file only (its real path); the tool's process may not.
  const outside = await cli([
    "run",
    manifest,
    "peek",
    "--args",
    JSON.stringify({ path: `${dir}/secret.txt` }),
  ], { flags });
  // A denial by the tool's own grant is that tool's failure (exit 1), naming the grant to change.
  assert.equal(outside.code, 1, outside.stderr);
  assert.match(outside.stderr, /\[permission_denied\]/);
  assert.match(outside.stderr, /permissions\.read of tool "peek"/);
  const events = await cli([
    "run",
    manifest,
    "peek",
    "--events",
    "--args",
    JSON.stringify({ path: `${dir}/secret.txt` }),
  ], { flags });
  assert.equal(events.code, 1, events.stderr);
  const error = JSON.parse(events.stderr.trim().split("\n").at(-1)!);
  assert.equal(error.data.code, "permission_denied");
  assert.equal(error.data.sandbox, true);
  assert.match(outside.stderr, /Requires read access to ".*secret\.txt"/);
  assert.equal(outside.stdout, "");
});

/** Starts the CLI with --events, sends SIGINT after the first progress event, and waits. */
async function interruptAfterProgress(
  flags: string[],
  args: string[],
): Promise<{ code: number; stderr: string; afterSignalMs: number }> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", ...flags, "cli.ts", ...args, "--events"],
    cwd: ROOT,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).spawn();
  const reader = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  let stderr = "";
  let signalled = 0;
  while (true) {
    const { value, done } = await reader.read();
    if (done) break;
    stderr += value;
    if (signalled === 0 && stderr.includes('"kind":"progress"')) {
      signalled = Date.now();
      child.kill("SIGINT");
    }
  }
  const status = await child.status;
  await child.stdout.cancel();
  assert.ok(signalled > 0, `no progress event before the end: ${stderr}`);
  return { code: status.code, stderr, afterSignalMs: Date.now() - signalled };
}

Deno.test("Ctrl-C cancels a running tool and exits 130", async () => {
  const out = await interruptAfterProgress(COMPILE_FLAGS, [
    "run",
    "examples/tools.yaml",
    "util:wait",
    "--args",
    '{"ms":30000,"steps":300}',
  ]);
  assert.equal(out.code, 130, out.stderr);
  assert.ok(out.afterSignalMs < 5000, "the tool stopped promptly");
  assert.match(out.stderr, /"kind":"progress","toolId":"util:wait"/);
  assert.match(out.stderr, /"kind":"error".*"code":"cancelled"/);
});

async function everythingFlags(): Promise<string[]> {
  return await flagsFor("examples/everything.yaml");
}

Deno.test("run and chain drive server-everything over stdio with the flags `permissions` gives", async () => {
  const flags = await everythingFlags();
  assert.ok(flags.includes("--allow-run=deno,kill"), flags.join(" "));
  const echo = await cli([
    "run",
    "examples/everything.yaml",
    "everything:echo",
    "--args",
    '{"message":"hi"}',
  ], {
    flags,
  });
  assert.equal(echo.code, 0, echo.stderr);
  assert.equal(JSON.parse(echo.stdout), "Echo: hi");
  const invalid = await cli([
    "run",
    "examples/everything.yaml",
    "everything:echo",
    "--args",
    '{"message":5}',
  ], {
    flags,
  });
  assert.equal(invalid.code, 1);
  assert.match(invalid.stderr, /\[input_validation\].*\/message: must be string/);
  const chain = await cli(["chain", "examples/everything.yaml", "sum-and-echo"], { flags });
  assert.equal(chain.code, 0, chain.stderr);
  const result = JSON.parse(chain.stdout);
  assert.equal(result.ok, true);
  assert.match(JSON.stringify(result.steps[0].structured), /42/);
});

Deno.test("Ctrl-C during a long MCP call cancels it on the server and exits 130", async () => {
  const out = await interruptAfterProgress(await everythingFlags(), [
    "run",
    "examples/everything.yaml",
    "everything:trigger-long-running-operation",
    "--args",
    '{"duration":30,"steps":30}',
  ]);
  assert.equal(out.code, 130, out.stderr);
  assert.ok(out.afterSignalMs < 10_000, "cancelled promptly, not after the 30 s operation");
  assert.match(out.stderr, /"code":"cancelled"/);
});

Deno.test("secrets are resolved from the environment and never echoed", async () => {
  const dir = await tempManifest(
    [
      "version: 1",
      "providers:",
      "  api: { url: 'http://127.0.0.1:9/tools/${env:API_TOKEN}' }",
      "tools:",
      "  - { name: t, provider: api, inputSchema: { type: object } }",
    ].join("\n"),
  );
  const manifest = `${dir}/tools.yaml`;
  const flags = await flagsFor(manifest);
  assert.ok(flags.includes("--allow-net=127.0.0.1:9"));
  assert.ok(flags.some((f) => f.startsWith("--allow-env=") && f.includes("API_TOKEN")));
  const secret = "sk-very-secret-value";
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", ...flags, "cli.ts", "run", manifest, "t", "--args", "{}"],
    cwd: ROOT,
    env: { API_TOKEN: secret, NO_COLOR: "1" },
    stdin: "null",
  }).output();
  const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
  assert.equal(out.code, 1);
  assert.match(text, /\[execution\]/);
  assert.ok(!text.includes(secret), text);
  const unset = await cli(["run", manifest, "t", "--args", "{}"], { flags });
  assert.equal(unset.code, 2);
  assert.match(unset.stderr, /environment variable API_TOKEN is not set/);
});

Deno.test("on a terminal, progress is a live line on stderr, cleared before the result", async () => {
  let out = "";
  let err = "";
  const code = await main(
    ["run", "examples/tools.yaml", "util:wait", "--args", '{"ms":30,"steps":3}'],
    {
      io: {
        stdout: (t) => out += t,
        stderr: (t) => err += t,
        stdinIsTerminal: true,
        stderrIsTerminal: true,
        noColor: true,
      },
    },
  );
  assert.equal(code, 0, err);
  assert.equal(
    err,
    "\r\x1b[2Kutil:wait: 1/3 step 1 of 3\r\x1b[2Kutil:wait: 2/3 step 2 of 3" +
      "\r\x1b[2Kutil:wait: 3/3 step 3 of 3\r\x1b[2K",
  );
  assert.ok(JSON.parse(out).waitedMs >= 0);
});

Deno.test("with --events, stderr is pure JSON Lines ending in exactly one done or error", async () => {
  for (
    const [args, last, code] of [
      ['{"operation":"add","a":1,"b":2}', "done", 0],
      ['{"operation":"divide","a":1,"b":0}', "error", 1],
    ] as const
  ) {
    const out = await cli([
      "run",
      "examples/tools.yaml",
      "math:calculate",
      "--events",
      "--args",
      args,
    ]);
    assert.equal(out.code, code, out.stderr);
    const events = out.stderr.trim().split("\n").map((line) => JSON.parse(line));
    assert.deepEqual(events.map((e) => e.kind).filter((k) => k === "done" || k === "error"), [
      last,
    ]);
    assert.equal(events.at(-1).kind, last);
  }
});
