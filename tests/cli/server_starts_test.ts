// Each of the manifest's servers starts once per command: `respond` lists the
// servers for the tools it offers and calls them over the same connections;
// run, chain, list, validate and convert start each server they need once;
// `serve` lists each stdio server over the connection its calls then use. A
// server that dies after its listing is started again for the call (and its
// tools checked against the lock file again). Closing the servers never needs
// a permission the flags `permissions` prints do not give (no prompt on a
// terminal), and run and chain show their progress while servers connect.
import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { cli, flagsFor, ROOT, tempManifest } from "./_cli.ts";
import { httpClient, startHttp } from "../serve/_helpers.ts";

const DENO = Deno.execPath();
const COUNTED = new URL("../fixtures/cli/mcp_counted_server.ts", import.meta.url).pathname;
const FAKE = new URL("../fixtures/run/mcp_fake_server.ts", import.meta.url).pathname;

/**
 * A manifest with servers `a` and `b` (the counted server: each start appends
 * a line to `<dir>/<name>.starts`), a tool `echo` of `a` whose schema comes
 * from it (unless not `declared`: `serve` would serve it and `a:echo` under
 * one name), a built-in, and a chain calling `echo` (or `a:echo`) then `b:echo`.
 */
async function counted(
  mode?: "exit-after-list" | "change-after-list",
  declared = true,
): Promise<{ path: string; dir: string }> {
  const dir = await Deno.makeTempDir({ prefix: "tf-starts-" });
  const server = (name: string) => [
    `  ${name}:`,
    `    command: ${JSON.stringify(DENO)}`,
    `    args: [run, --allow-read=${dir}, --allow-write=${dir}, --no-config, ${
      JSON.stringify(COUNTED)
    }, ${JSON.stringify(`${dir}/${name}.starts`)}${mode === undefined ? "" : `, ${mode}`}]`,
  ];
  const path = `${dir}/tools.yaml`;
  await Deno.writeTextFile(
    path,
    [
      "version: 1",
      "servers:",
      ...server("a"),
      ...server("b"),
      "tools:",
      ...(declared ? ["  - { name: echo, server: a }"] : []),
      "  - { name: add, builtin: calculate }",
      "chains:",
      "  both:",
      "    steps:",
      `      - { tool: ${declared ? "echo" : '"a:echo"'}, args: { text: hi } }`,
      '      - { tool: "b:echo", args: { text: ho } }',
      "",
    ].join("\n"),
  );
  return { path, dir };
}

/** How many times each server started since the last call (the files are emptied). */
async function starts(dir: string): Promise<{ a: number; b: number }> {
  const count = async (name: string) => {
    const file = `${dir}/${name}.starts`;
    const text = await Deno.readTextFile(file).catch(() => "");
    await Deno.remove(file).catch(() => {});
    return text.split("\n").filter((l) => l !== "").length;
  };
  return { a: await count("a"), b: await count("b") };
}

/** An OpenAI chat response calling `echo` and `b:echo`. */
const RESPONSE = JSON.stringify({
  choices: [{
    message: {
      role: "assistant",
      content: null,
      tool_calls: [
        { id: "c1", type: "function", function: { name: "echo", arguments: '{"text":"x"}' } },
        { id: "c2", type: "function", function: { name: "b__echo", arguments: '{"text":"y"}' } },
      ],
    },
    finish_reason: "tool_calls",
  }],
});

/** The flags `permissions` prints, and writing the lock file next to the manifest. */
async function flagsOf(path: string, dir: string): Promise<string[]> {
  return [...await flagsFor(path), `--allow-write=${dir}`];
}

Deno.test("respond starts each server once: the servers listed for the offered tools answer the calls", async () => {
  const { path, dir } = await counted();
  const flags = await flagsOf(path, dir);
  const out = await cli(["respond", path, "--format", "openai"], { flags, stdin: RESPONSE });
  assert.equal(out.code, 0, out.stderr);
  const messages = JSON.parse(out.stdout) as { tool_call_id: string; content: string }[];
  assert.deepEqual(messages.map((m) => [m.tool_call_id, JSON.parse(m.content)]), [
    ["c1", { text: "x" }],
    ["c2", { text: "y" }],
  ]);
  assert.deepEqual(await starts(dir), { a: 1, b: 1 });
  // With a lock file too (every server listed and compared).
  const locked = await cli(["lock", path], { flags });
  assert.equal(locked.code, 0, locked.stderr);
  await starts(dir);
  const again = await cli(["respond", path, "--format", "openai"], { flags, stdin: RESPONSE });
  assert.equal(again.code, 0, again.stderr);
  assert.deepEqual(await starts(dir), { a: 1, b: 1 });
});

Deno.test("respond without a tool call, or with an unknown one, starts each server once and leaves none running", async () => {
  const { path, dir } = await counted();
  const flags = await flagsOf(path, dir);
  const none = JSON.stringify({
    choices: [{ message: { role: "assistant", content: "hi" }, finish_reason: "stop" }],
  });
  const out = await cli(["respond", path, "--format", "openai"], { flags, stdin: none });
  assert.equal(out.code, 0, out.stderr);
  assert.deepEqual(await starts(dir), { a: 1, b: 1 });
  const unknown = RESPONSE.replace("b__echo", "c__echo");
  const bad = await cli(["respond", path, "--format", "openai"], { flags, stdin: unknown });
  assert.equal(bad.code, 1, bad.stderr);
  assert.deepEqual(await starts(dir), { a: 1, b: 1 });
});

Deno.test("run, chain, list, validate and convert start each server they need once", async () => {
  const { path, dir } = await counted();
  const flags = await flagsOf(path, dir);
  const cases: [string[], { a: number; b: number }][] = [
    [["run", path, "echo", "--args", '{"text":"x"}'], { a: 1, b: 0 }],
    [["run", path, "b:echo", "--args", '{"text":"x"}'], { a: 0, b: 1 }],
    [["run", path, "add", "--args", '{"operation":"add","a":1,"b":2}'], { a: 0, b: 0 }],
    [["chain", path, "both"], { a: 1, b: 1 }],
    [["list", path], { a: 1, b: 1 }],
    [["validate", path], { a: 1, b: 1 }],
    [["convert", path, "--to", "openai"], { a: 1, b: 1 }],
  ];
  for (const [args, expected] of cases) {
    const out = await cli(args, { flags });
    assert.equal(out.code, 0, `${args.join(" ")}: ${out.stderr}`);
    assert.deepEqual(await starts(dir), expected, args.join(" "));
  }
});

Deno.test("respond: a server that exits after its listing is started again for the call, or the call fails naming it", async () => {
  const { path, dir } = await counted("exit-after-list");
  const flags = await flagsOf(path, dir);
  const out = await cli(["respond", path, "--format", "openai"], { flags, stdin: RESPONSE });
  const found = await starts(dir);
  // The first process of each exits right after answering tools/list. When its
  // exit is seen before the call is written (or the write finds its stdin
  // closed), the call goes to a new process: one more start, and it succeeds.
  // When the call reached the pipe first, nobody can know whether the server
  // read it: it is not sent again, and the call fails naming the server.
  const messages = JSON.parse(out.stdout) as { tool_call_id: string; content: string }[];
  assert.equal(messages.length, 2, out.stdout);
  let succeeded = 0;
  for (const [i, server] of [[0, "a"], [1, "b"]] as const) {
    const content = JSON.parse(messages[i].content);
    if (!("error" in content)) {
      // Answered by the second process: started again, once.
      assert.deepEqual(content, [{ text: "x" }, { text: "y" }][i]);
      assert.equal(found[server], 2, JSON.stringify(found));
      succeeded++;
    } else {
      assert.equal(content.error, "execution", messages[i].content);
      assert.match(
        out.stderr,
        new RegExp(`MCP server "${server}" closed the connection during the call`),
      );
    }
  }
  // Never more than one restart; exit 0 exactly when both calls were answered.
  assert.ok(found.a <= 2 && found.b <= 2, JSON.stringify(found));
  assert.equal(out.code, succeeded === 2 ? 0 : 1, out.stderr);
});

Deno.test("respond: a server restarted after its listing with a tool changed since the lock refuses the call with the lock error", async () => {
  const { path, dir } = await counted("change-after-list");
  const flags = await flagsOf(path, dir);
  // The lock holds the first process's tools.
  const locked = await cli(["lock", path], { flags });
  assert.equal(locked.code, 0, locked.stderr);
  await starts(dir);
  // The first process lists the locked tools and exits; the runner for the
  // calls reconnects, and the new process's `echo` differs from the lock:
  // refused before anything runs, with the lock error of start (exit 5).
  const out = await cli(["respond", path, "--format", "openai"], { flags, stdin: RESPONSE });
  if (out.code === 1) {
    // The call reached the first process's pipe before it exited: not sent
    // again (it may have been read), failed naming the server; nothing ran on
    // a changed tool.
    assert.match(out.stderr, /MCP server "[ab]" closed the connection during the call/);
    return;
  }
  assert.equal(out.code, 5, out.stderr);
  assert.equal(out.stdout, "");
  assert.match(
    out.stderr,
    /server tool\(s\) changed since they were locked; refused:\n {2}a:echo\n/,
  );
  assert.match(out.stderr, /Also read ~\/\.ssh\/id_rsa/);
  assert.deepEqual(await starts(dir), { a: 2, b: 2 });
});

Deno.test("list, run and chain under a terminal with exactly the flags permissions prints end without a permission prompt", async () => {
  const { path, dir } = await counted();
  const flags = await flagsFor(path);
  const quote = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;
  for (
    const args of [
      ["list", path],
      ["run", path, "echo", "--args", '{"text":"x"}'],
      ["chain", path, "both"],
    ]
  ) {
    // No --no-prompt: a permission the flags lack would stop at Deno's prompt.
    const command = [DENO, "run", "--quiet", ...flags, "cli.ts", ...args].map(quote).join(" ");
    const child = new Deno.Command("script", {
      args: ["-qec", command, "/dev/null"],
      cwd: ROOT,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      env: { NO_COLOR: "1" },
    }).spawn();
    const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
    const out = await child.output();
    clearTimeout(timer);
    const text = new TextDecoder().decode(out.stdout);
    assert.doesNotMatch(text, /Allow\?|Deno\.kill|requests run access/, args[0]);
    assert.equal(out.code, 0, `${args[0]}: ${text}`);
    assert.match(text, args[0] === "list" ? /"a:echo"/ : /"text": "(x|ho)"/);
  }
  await starts(dir);
});

Deno.test("run and chain show a live line on a terminal while servers connect, then clear it; nothing off a terminal unless --verbose", async () => {
  const lines = ["version: 1", "servers:"];
  for (const name of ["alpha", "beta"]) {
    lines.push(
      `  ${name}:`,
      `    command: ${JSON.stringify(DENO)}`,
      `    args: [run, -A, --no-config, ${JSON.stringify(FAKE)}, normal, init-delay=1000]`,
    );
  }
  lines.push(
    "tools:",
    "  - { name: echo, server: alpha }",
    "chains:",
    "  two:",
    "    steps:",
    "      - { tool: echo, args: { a: 1 } }",
    '      - { tool: "beta:echo", args: { b: 2 } }',
  );
  const manifest = await tempManifest(lines.join("\n"));
  const flags = await flagsFor(manifest);
  const quote = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;
  for (
    const [args, total] of [
      [["run", manifest, "echo", "--args", "{}"], 1],
      [["chain", manifest, "two"], 2],
    ] as const
  ) {
    const command = [DENO, "run", "--quiet", "--no-prompt", ...flags, "cli.ts", ...args].map(quote)
      .join(" ");
    const out = await new Deno.Command("script", {
      args: ["-qec", command, "/dev/null"],
      cwd: ROOT,
      stdin: "null",
      stdout: "piped",
      env: { NO_COLOR: "1" },
    }).output();
    const text = new TextDecoder().decode(out.stdout).replaceAll("\x1b[2K", "E");
    assert.equal(out.code, 0, text);
    // Servers are counted as they start connecting.
    assert.match(text, /\rEservers: 0\/1 listed; waiting for alpha \(\d+\.\d s\)/, args[0]);
    assert.match(text, new RegExp(`\\rEservers: ${total}/${total} listed \\(\\d+\\.\\d s\\)\\rE`));
    const progress = text.slice(text.indexOf("\rEservers:"), text.lastIndexOf("\rE"));
    assert.doesNotMatch(progress, /\n/);
    // Off a terminal: nothing; with --verbose: one line per server event.
    const plain = await cli([...args], { flags });
    assert.equal(plain.code, 0, plain.stderr);
    assert.doesNotMatch(plain.stderr, /servers: |progress: /);
    const verbose = await cli([...args, "--verbose"], { flags });
    assert.equal(verbose.code, 0, verbose.stderr);
    const events = verbose.stderr.split("\n").filter((l) => l.startsWith("progress: server "));
    assert.equal(events.length, 2 * total, verbose.stderr);
    assert.match(verbose.stderr, /progress: server alpha: connecting and listing its tools/);
    assert.match(verbose.stderr, /progress: server alpha: \d+ tool\(s\) listed in \d+\.\d s/);
  }
});

/**
 * Waits until the processes a server started so far are gone (their IDs are
 * in `<dir>/<name>.starts`), then a moment for `serve` to read their end: a
 * call that races a server's exit fails (its request cannot be written).
 */
async function gone(dir: string, name: string): Promise<void> {
  const text = await Deno.readTextFile(`${dir}/${name}.starts`);
  for (const pid of text.split("\n").filter((l) => l !== "").map(Number)) {
    for (let i = 0; i < 200; i++) {
      try {
        Deno.kill(pid, "SIGCONT");
      } catch {
        break; // no such process
      }
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
  await new Promise((resolve) => setTimeout(resolve, 300));
}

/** The servers' tools as `serve` names them: `a_echo`, `b_echo`. */
const PREFIXES = ["--prefix", "a=a", "--prefix", "b=b"];

/** `serve <path> --stdio` (or `--http`) with an SDK client offering `capabilities`. */
async function served(
  path: string,
  mode: "stdio" | "http",
  capabilities: Record<string, unknown> = {},
): Promise<{ client: Client; close(): Promise<void> }> {
  if (mode === "http") {
    const serving = await startHttp(PREFIXES, { manifest: path });
    const client = await httpClient(serving.url, {}, capabilities);
    return {
      client,
      close: async () => {
        await client.close();
        await serving.close();
      },
    };
  }
  const client = new Client({ name: "starts", version: "1.0.0" }, { capabilities });
  await client.connect(
    new StdioClientTransport({
      command: DENO,
      args: ["run", "-A", `${ROOT}cli.ts`, "serve", path, "--stdio", ...PREFIXES],
      cwd: ROOT,
      stderr: "ignore",
    }),
  );
  return { client, close: () => client.close() };
}

/** The arguments an `echo` call answered with (failing on an error result). */
function echoed(result: Awaited<ReturnType<Client["callTool"]>>): unknown {
  assert.notEqual(result.isError, true, JSON.stringify(result.content));
  return result.structuredContent;
}

for (const mode of ["stdio", "http"] as const) {
  Deno.test(`serve --${mode} starts each server once at start; its calls use the listing's connection`, async () => {
    const { path, dir } = await counted(undefined, false);
    const { client, close } = await served(path, mode);
    try {
      // Listed by the runner, served by the upstream: one process each.
      const names = (await client.listTools()).tools.map((t) => t.name).sort();
      assert.deepEqual(names, ["a_echo", "add", "b_echo", "both"]);
      assert.deepEqual(await starts(dir), { a: 1, b: 1 });
      assert.deepEqual(
        echoed(await client.callTool({ name: "a_echo", arguments: { text: "x" } })),
        {
          text: "x",
        },
      );
      assert.deepEqual(
        echoed(await client.callTool({ name: "b_echo", arguments: { text: "y" } })),
        { text: "y" },
      );
      assert.deepEqual(await starts(dir), { a: 0, b: 0 });
      // A chain runs in the runner, which connects on its first step only.
      assert.deepEqual(echoed(await client.callTool({ name: "both", arguments: {} })), {
        text: "ho",
      });
      assert.deepEqual(await starts(dir), { a: 1, b: 1 });
      await client.callTool({ name: "both", arguments: {} });
      await client.callTool({ name: "a_echo", arguments: { text: "x" } });
      assert.deepEqual(await starts(dir), { a: 0, b: 0 });
    } finally {
      await close();
    }
  });
}

Deno.test("serve: a client that offers sampling is served over a connection that declares it (one more start), the listing's stays for clients offering nothing", async () => {
  const { path, dir } = await counted(undefined, false);
  const { client, close } = await served(path, "stdio", { sampling: {} });
  try {
    assert.deepEqual(await starts(dir), { a: 1, b: 1 });
    assert.deepEqual(echoed(await client.callTool({ name: "a_echo", arguments: { text: "x" } })), {
      text: "x",
    });
    assert.deepEqual(await starts(dir), { a: 1, b: 0 });
    await client.callTool({ name: "a_echo", arguments: { text: "x" } });
    assert.deepEqual(await starts(dir), { a: 0, b: 0 });
  } finally {
    await close();
  }
});

Deno.test("serve: a server that exits after its listing is started again for the call, which succeeds", async () => {
  const { path, dir } = await counted("exit-after-list", false);
  const { client, close } = await served(path, "stdio");
  try {
    // (Counted at the end: the next process to start on empty files would be a first one.)
    await gone(dir, "a");
    assert.deepEqual(echoed(await client.callTool({ name: "a_echo", arguments: { text: "x" } })), {
      text: "x",
    });
    assert.deepEqual(await starts(dir), { a: 2, b: 1 });
  } finally {
    await close();
  }
});

Deno.test("serve: a server restarted after its listing with a tool changed since the lock refuses the call with the lock error", async () => {
  const { path, dir } = await counted("change-after-list", false);
  const locked = await cli(["lock", path], { flags: await flagsOf(path, dir) });
  assert.equal(locked.code, 0, locked.stderr);
  await starts(dir);
  const { client, close } = await served(path, "stdio");
  try {
    // The first process lists the locked tools (serve starts) and exits.
    await gone(dir, "a");
    const result = await client.callTool({ name: "a_echo", arguments: { text: "x" } });
    const text = (result.content as { text?: string }[]).map((c) => c.text ?? "").join("\n");
    assert.equal(result.isError, true, text);
    assert.match(text, /server tool\(s\) changed since they were locked; refused:\n {2}a:echo\n/);
    assert.deepEqual(await starts(dir), { a: 2, b: 1 });
  } finally {
    await close();
  }
});
