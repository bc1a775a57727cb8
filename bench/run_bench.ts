// The runner's overhead, in the same run:
// 1. a trivial local tool with input and output validation through Runner.run
//    against calling the handler directly (target: >= 100,000 runs/s);
// 2. server-everything `echo` over stdio through Runner.run against the bare
//    MCP SDK v2 client (`@modelcontextprotocol/client`, its own stdio transport;
//    target: <= 10% overhead by median). Needs --allow-run; skipped without it.
//    The medians of both and their ratio are printed at the end.
//
//   deno bench -A bench/run_bench.ts
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
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

/** Per-call times (ms) of each side, for the medians printed at the end. */
const samples = { sdk: [] as number[], runner: [] as number[] };
function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}
globalThis.addEventListener("unload", () => {
  if (samples.sdk.length === 0 || samples.runner.length === 0) return;
  const sdkMs = median(samples.sdk);
  const runnerMs = median(samples.runner);
  console.log(
    `mcp stdio echo medians: bare SDK ${(sdkMs * 1000).toFixed(1)} µs, Runner.run ${
      (runnerMs * 1000).toFixed(1)
    } µs, ratio ${(runnerMs / sdkMs).toFixed(3)} (target <= 1.10)`,
  );
});

// Each iteration makes one call of each kind and times only one of them, so
// both sides see the same interleaving (a plain sequence favours whichever
// benchmark runs second).
const callSdk = () => sdk!.callTool({ name: "echo", arguments: { message: "hello" } });
const callRunner = () => mcpRunner!.run("everything:echo", { message: "hello" });
Deno.bench("bare SDK v2 client callTool echo", {
  group: "mcp stdio echo",
  baseline: true,
  ignore: !canRun,
  n: 3000,
}, async (b) => {
  await callRunner();
  b.start();
  const started = performance.now();
  await callSdk();
  samples.sdk.push(performance.now() - started);
  b.end();
});
Deno.bench("Runner.run everything:echo", {
  group: "mcp stdio echo",
  ignore: !canRun,
  n: 3000,
}, async (b) => {
  await callSdk();
  b.start();
  const started = performance.now();
  await callRunner();
  samples.runner.push(performance.now() - started);
  b.end();
});
