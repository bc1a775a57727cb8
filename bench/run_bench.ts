// The runner's overhead, in the same run:
// 1. a trivial local tool with input and output validation through Runner.run
//    against calling the handler directly (target: >= 100,000 runs/s);
// 2. server-everything `echo` over stdio through Runner.run against the bare
//    MCP SDK client (target: <= 10% overhead). Needs --allow-run; skipped without it.
//
//   deno bench -A bench/run_bench.ts
// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/client/index"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/client/stdio"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { Tool } from "../model/mod.ts";
import { type LocalHandler, Runner, type ToolContext } from "../run/mod.ts";

const tool: Tool = {
  name: "add",
  namespace: "math",
  inputSchema: {
    type: "object",
    properties: { a: { type: "number" }, b: { type: "number" } },
    required: ["a", "b"],
    additionalProperties: false,
  },
  outputSchema: {
    type: "object",
    properties: { sum: { type: "number" } },
    required: ["sum"],
  },
};
const add: LocalHandler = (args) => ({ sum: (args.a as number) + (args.b as number) });
const runner = new Runner();
runner.addLocalTool(tool, add);
await runner.run("math:add", { a: 1, b: 2 }); // compile the schemas once
const ctx: ToolContext = {
  toolId: "math:add",
  signal: new AbortController().signal,
  progress() {},
};

Deno.bench("handler called directly", { group: "local", baseline: true }, () => {
  add({ a: 1, b: 2 }, ctx);
});
Deno.bench("Runner.run, input + output validation", { group: "local" }, async () => {
  await runner.run("math:add", { a: 1, b: 2 });
});

const canRun = Deno.permissions.querySync({ name: "run" }).state === "granted" &&
  Deno.permissions.querySync({ name: "env" }).state === "granted";
const server = {
  command: Deno.execPath(),
  args: [
    "run",
    "-A",
    "--no-config",
    "npm:@modelcontextprotocol/server-everything@2026.8.31",
    "stdio",
  ],
};

let sdk: Client | undefined;
let mcpRunner: Runner | undefined;
if (canRun) {
  sdk = new Client({ name: "bench", version: "0.0.0" });
  await sdk.connect(new StdioClientTransport({ ...server, stderr: "ignore" }));
  await sdk.callTool({ name: "echo", arguments: { message: "warm" } });
  mcpRunner = new Runner({ mcpServers: { everything: { transport: "stdio", ...server } } });
  await mcpRunner.importMcpTools("everything");
  await mcpRunner.run("everything:echo", { message: "warm" });
  globalThis.addEventListener("unload", () => {
    void sdk?.close();
    void mcpRunner?.close();
  });
}

// Each iteration makes one call of each kind and times only one of them, so
// both sides see the same interleaving (a plain sequence favours whichever
// benchmark runs second).
const callSdk = () => sdk!.callTool({ name: "echo", arguments: { message: "hello" } });
const callRunner = () => mcpRunner!.run("everything:echo", { message: "hello" });
Deno.bench("bare SDK client callTool echo", {
  group: "mcp stdio echo",
  baseline: true,
  ignore: !canRun,
  n: 3000,
}, async (b) => {
  await callRunner();
  b.start();
  await callSdk();
  b.end();
});
Deno.bench("Runner.run everything:echo", {
  group: "mcp stdio echo",
  ignore: !canRun,
  n: 3000,
}, async (b) => {
  await callSdk();
  b.start();
  await callRunner();
  b.end();
});
