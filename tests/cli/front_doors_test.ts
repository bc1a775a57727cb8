// Every front door opens a manifest the same way: `run`, `chain`, `respond`,
// `serve --stdio` and `serve --http` see the same tool set, scrub the same
// secret, refuse the same changed tool with the same exit code, and answer
// the same unknown tool and strict-mode null alike. Each door is the CLI as a
// subprocess, as a user runs it.
import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { cli, flagsFor, ROOT } from "./_cli.ts";
import { caEnv, httpClient, startHttp } from "../serve/_helpers.ts";

const SERVER = new URL("../fixtures/cli/mcp_mutable_server.ts", import.meta.url).pathname;
const SECRET = "fd-Secret/Value+42";
const EXIT_CHANGED = 5;

const NOTES = [
  {
    name: "send",
    description: "Sends a note",
    inputSchema: {
      type: "object",
      properties: { to: { type: "string" }, urgent: { type: "boolean" } },
      required: ["to"],
      additionalProperties: false,
    },
  },
  { name: "read", description: "Reads notes", inputSchema: { type: "object" } },
  { name: "purge", description: "Deletes every note", inputSchema: { type: "object" } },
];

interface Setup {
  dir: string;
  /** A `.mcp.json` naming the stdio server only. */
  mcpJson: string;
  /** A YAML manifest: the server (one tool excluded), an HTTP provider's tool, a module tool, a chain. */
  yaml: string;
  /** The tools the server lists (rewrite it to change a tool). */
  tools: string;
  stop(): Promise<void>;
}

/** An HTTP provider that echoes the header carrying the secret, as is and in base64. */
function echoProvider(): Deno.HttpServer<Deno.NetAddr> {
  return Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (request) => {
    const key = request.headers.get("x-api-key") ?? "";
    const args = await request.json();
    return Response.json({ key, basic: btoa(`user:${key}`), args });
  });
}

async function setup(): Promise<Setup> {
  const dir = await Deno.makeTempDir({ prefix: "tf-doors-" });
  const tools = `${dir}/tools.json`;
  await Deno.writeTextFile(tools, JSON.stringify(NOTES));
  const command = Deno.execPath();
  const args = ["run", "--allow-read", "--no-config", SERVER, tools];
  const mcpJson = `${dir}/.mcp.json`;
  await Deno.writeTextFile(
    mcpJson,
    JSON.stringify({ mcpServers: { notes: { command, args } } }, null, 2),
  );
  await Deno.writeTextFile(
    `${dir}/shout.ts`,
    "export default (args: { text: string }) => ({ text: args.text.toUpperCase() });\n",
  );
  const provider = echoProvider();
  const yaml = `${dir}/tools.yaml`;
  await Deno.writeTextFile(
    yaml,
    [
      "version: 1",
      "servers:",
      "  notes:",
      `    command: ${JSON.stringify(command)}`,
      `    args: ${JSON.stringify(args)}`,
      "    exclude: [purge]",
      "providers:",
      "  echo:",
      `    url: http://127.0.0.1:${provider.addr.port}/call`,
      "    headers: { X-Api-Key: '${env:FD_SECRET}' }",
      "tools:",
      "  - { name: echo, provider: echo, inputSchema: { type: object } }",
      "  - name: shout",
      "    module: shout.ts",
      "    inputSchema:",
      "      type: object",
      "      properties: { text: { type: string } }",
      "      required: [text]",
      "chains:",
      "  notify:",
      "    steps: [{ tool: 'notes:send', args: { to: ann } }]",
      "  echoes:",
      "    steps: [{ tool: echo }]",
    ].join("\n"),
  );
  return { dir, mcpJson, yaml, tools, stop: () => provider.shutdown() };
}

const ENV = { FD_SECRET: SECRET };

/** The tool names `serve --stdio` lists, and the client (closed by the caller). */
async function stdioServe(manifest: string): Promise<Client> {
  const client = new Client({ name: "doors", version: "1.0.0" });
  await client.connect(
    new StdioClientTransport({
      command: Deno.execPath(),
      args: ["run", "-A", `${ROOT}cli.ts`, "serve", manifest, "--stdio"],
      cwd: ROOT,
      env: { ...caEnv(), ...ENV },
      stderr: "ignore",
    }),
  );
  return client;
}

/** `serve` run to its exit (it must not start): code and stderr. */
async function serveExit(
  manifest: string,
  mode: string[],
): Promise<{ code: number; stderr: string }> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", `${ROOT}cli.ts`, "serve", manifest, ...mode],
    cwd: ROOT,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    env: { ...caEnv(), ...ENV },
    clearEnv: true,
  }).output();
  return { code: out.code, stderr: new TextDecoder().decode(out.stderr) };
}

/** An OpenAI chat completion calling one tool. */
function openaiCall(name: string, args: unknown): string {
  return JSON.stringify({
    object: "chat.completion",
    choices: [{
      index: 0,
      finish_reason: "tool_calls",
      message: {
        role: "assistant",
        content: null,
        tool_calls: [{
          id: "call_1",
          type: "function",
          function: { name, arguments: JSON.stringify(args) },
        }],
      },
    }],
  });
}

async function convertNames(manifest: string, to: string): Promise<string[]> {
  const out = await cli(["convert", manifest, "--to", to], {
    flags: await flagsFor(manifest),
    env: ENV,
  });
  assert.equal(out.code, 0, out.stderr);
  const tools = JSON.parse(out.stdout) as { name?: string; function?: { name: string } }[];
  return tools.map((t) => t.function?.name ?? t.name!).sort();
}

Deno.test("every front door exposes the same tool set for a .mcp.json and a YAML manifest", async () => {
  const s = await setup();
  try {
    for (const manifest of [s.mcpJson, s.yaml]) {
      const mcpNames = await convertNames(manifest, "mcp");
      const chainNames = manifest === s.yaml ? ["echoes", "notify"] : [];
      // serve --stdio and serve --http list the same tools (plus the chains).
      const stdio = await stdioServe(manifest);
      try {
        const listed = (await stdio.listTools()).tools.map((t) => t.name).sort();
        assert.deepEqual(listed, [...mcpNames, ...chainNames].sort(), manifest);
      } finally {
        await stdio.close();
      }
      const served = await startHttp([], { manifest, env: ENV });
      try {
        const client = await httpClient(`${served.url}`);
        const listed = (await client.listTools()).tools.map((t) => t.name).sort();
        assert.deepEqual(listed, [...mcpNames, ...chainNames].sort(), manifest);
        await client.close();
      } finally {
        await served.close();
      }
      // respond offers every tool convert --to openai lists: each name runs (none unknown).
      const openaiNames = await convertNames(manifest, "openai");
      assert.ok(openaiNames.length >= 2, openaiNames.join());
      const send = openaiNames.find((n) => n.endsWith("send"))!;
      const out = await cli(["respond", manifest, "--format", "openai"], {
        flags: await flagsFor(manifest),
        stdin: openaiCall(send, { to: "ann" }),
        env: ENV,
      });
      assert.equal(out.code, 0, `${manifest}: ${out.stderr}${out.stdout}`);
      assert.match(out.stdout, /ann/);
      // run reaches the same tool by its ID.
      const run = await cli(["run", manifest, "notes:send", "--args", '{"to":"ann"}'], {
        flags: await flagsFor(manifest, "notes:send"),
        env: ENV,
      });
      assert.equal(run.code, 0, run.stderr);
      // The excluded tool is absent from every door of the YAML manifest.
      if (manifest === s.yaml) {
        assert.ok(!mcpNames.some((n) => n.endsWith("purge")), mcpNames.join());
        const purge = await cli(["run", manifest, "notes:purge"], {
          flags: await flagsFor(manifest, "notes:purge"),
          env: ENV,
        });
        assert.equal(purge.code, 2, purge.stderr);
        assert.match(purge.stderr, /not exposed/);
      }
    }
  } finally {
    await s.stop();
  }
});

Deno.test("every front door scrubs a secret an HTTP provider echoes, as is and base64-encoded", async () => {
  const s = await setup();
  try {
    const basic = btoa(`user:${SECRET}`);
    const check = (door: string, text: string) => {
      assert.ok(!text.includes(SECRET), `${door} leaked the secret: ${text}`);
      assert.ok(!text.includes(basic), `${door} leaked the secret in base64: ${text}`);
      assert.match(text, /\*\*\*/, `${door}: ${text}`);
    };
    const flags = await flagsFor(s.yaml, "echo");
    const run = await cli(["run", s.yaml, "echo", "--args", "{}"], { flags, env: ENV });
    assert.equal(run.code, 0, run.stderr);
    check("run", run.stdout);
    const chain = await cli(["chain", s.yaml, "echoes"], {
      flags: await flagsFor(s.yaml, "echoes"),
      env: ENV,
    });
    assert.equal(chain.code, 0, chain.stderr);
    check("chain", chain.stdout);
    const respond = await cli(["respond", s.yaml, "--format", "openai"], {
      flags: await flagsFor(s.yaml),
      stdin: openaiCall("echo", {}),
      env: ENV,
    });
    assert.equal(respond.code, 0, respond.stderr);
    check("respond", respond.stdout);
    const stdio = await stdioServe(s.yaml);
    try {
      check("serve --stdio", JSON.stringify(await stdio.callTool({ name: "echo", arguments: {} })));
    } finally {
      await stdio.close();
    }
    const served = await startHttp([], { manifest: s.yaml, env: ENV });
    try {
      const client = await httpClient(served.url);
      check("serve --http", JSON.stringify(await client.callTool({ name: "echo", arguments: {} })));
      await client.close();
    } finally {
      await served.close();
    }
  } finally {
    await s.stop();
  }
});

Deno.test("every front door refuses a server tool changed since it was locked, with exit code 5", async () => {
  const s = await setup();
  try {
    const flags = await flagsFor(s.yaml);
    const locked = await cli(["lock", s.yaml], {
      flags: [...flags.filter((f) => !f.startsWith("--allow-write")), `--allow-write=${s.dir}`],
      env: ENV,
    });
    assert.equal(locked.code, 0, locked.stderr);
    const changed = structuredClone(NOTES);
    changed[0].description = "Sends a note, and a copy to the operator";
    await Deno.writeTextFile(s.tools, JSON.stringify(changed));
    const refused = (door: string, out: { code: number; stderr: string }) => {
      assert.equal(out.code, EXIT_CHANGED, `${door}: ${out.stderr}`);
      assert.match(out.stderr, /notes:send/, door);
      assert.match(out.stderr, /changed since they were locked/, door);
    };
    refused(
      "run",
      await cli(["run", s.yaml, "notes:send", "--args", '{"to":"ann"}'], { flags, env: ENV }),
    );
    refused("chain", await cli(["chain", s.yaml, "notify"], { flags, env: ENV }));
    refused(
      "respond",
      await cli(["respond", s.yaml, "--format", "openai"], {
        flags,
        stdin: openaiCall("notes__send", { to: "ann" }),
        env: ENV,
      }),
    );
    refused("list", await cli(["list", s.yaml], { flags, env: ENV }));
    refused("serve --stdio", await serveExit(s.yaml, ["--stdio"]));
    refused("serve --http", await serveExit(s.yaml, ["--http", "127.0.0.1:0"]));
  } finally {
    await s.stop();
  }
});

Deno.test("every front door names the server's tools for an unknown server tool", async () => {
  const s = await setup();
  try {
    const run = await cli(["run", s.mcpJson, "notes:nope"], {
      flags: await flagsFor(s.mcpJson, "notes:nope"),
      env: ENV,
    });
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, /unknown tool "notes:nope"/);
    assert.match(run.stderr, /its tools: notes:purge, notes:read, notes:send/);
    const unknown = await cli(["run", s.mcpJson, "nope"], { flags: await flagsFor(s.mcpJson) });
    assert.equal(unknown.code, 2, unknown.stderr);
    assert.match(unknown.stderr, /unknown tool "nope"; tools: none; servers: notes/);
    const respond = await cli(["respond", s.mcpJson, "--format", "openai"], {
      flags: await flagsFor(s.mcpJson),
      stdin: openaiCall("nope", {}),
    });
    assert.equal(respond.code, 1, respond.stderr);
    const [message] = JSON.parse(respond.stdout);
    const answer = JSON.parse(message.content);
    assert.equal(answer.error, "unknown_tool", message.content);
    // The names the model was offered (convert --to openai), the server's tools among them.
    assert.deepEqual(answer.available.sort(), await convertNames(s.mcpJson, "openai"));
    assert.deepEqual(answer.available.sort(), ["notes__purge", "notes__read", "notes__send"]);
    const stdio = await stdioServe(s.mcpJson);
    try {
      const error = await stdio.callTool({ name: "nope", arguments: {} }).then(
        (result) => assert.fail(`a result for an unknown tool: ${JSON.stringify(result)}`),
        (e: Error) => e,
      );
      // The names it serves, as convert --to mcp gives them.
      const served = (await convertNames(s.mcpJson, "mcp")).join(", ");
      assert.ok(error.message.includes(`Unknown tool: nope; tools: ${served} `), error.message);
    } finally {
      await stdio.close();
    }
    const served = await startHttp([], { manifest: s.mcpJson });
    try {
      const client = await httpClient(served.url);
      const error = await client.callTool({ name: "nope", arguments: {} }).then(
        (result) => assert.fail(`a result for an unknown tool: ${JSON.stringify(result)}`),
        (e: Error) => e,
      );
      const names = (await convertNames(s.mcpJson, "mcp")).join(", ");
      assert.ok(error.message.includes(`Unknown tool: nope; tools: ${names} `), error.message);
      await client.close();
    } finally {
      await served.close();
    }
    const chain = await cli(["chain", s.yaml, "nope"], { flags: await flagsFor(s.yaml) });
    assert.equal(chain.code, 2, chain.stderr);
    assert.match(chain.stderr, /no chain named "nope" .*; chains: echoes, notify/);
  } finally {
    await s.stop();
  }
});

Deno.test("respond --strict reads a strict-mode null as absent for a tool whose schema comes from its server", async () => {
  const s = await setup();
  try {
    for (const manifest of [s.mcpJson, s.yaml]) {
      const out = await cli(["respond", manifest, "--format", "openai", "--strict"], {
        flags: await flagsFor(manifest),
        stdin: openaiCall("notes__send", { to: "ann", urgent: null }),
        env: ENV,
      });
      assert.equal(out.code, 0, `${manifest}: ${out.stderr}${out.stdout}`);
      const [message] = JSON.parse(out.stdout);
      assert.deepEqual(JSON.parse(message.content), { to: "ann" });
    }
  } finally {
    await s.stop();
  }
});
