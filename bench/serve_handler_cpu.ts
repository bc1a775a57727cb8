// CPU per call of serve's HTTP handler alone, in process: `createHttpHandler`
// in front of an upstream object that answers at once, with the CLI's
// redactor and access log, 8 calls in flight. No network on either side,
// so what is measured is serve's own JavaScript per forwarded `tools/call`
// (and the Request the bench builds per call, the same on every run).
//
//   deno run -A bench/serve_handler_cpu.ts [--calls=20000] [--rounds=5]
//
// Profile it with `--v8-flags=--prof` and `node --prof-process`.

import { cpuUsage } from "node:process";
import { Runner } from "../run/mod.ts";
import { mcpBackend } from "../model/mod.ts";
import { accessLogLine, createHttpHandler, Gateway, type Upstream } from "../serve/mod.ts";

const option = (name: string, fallback: string): string =>
  Deno.args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const CALLS = Number(option("calls", "20000"));
const ROUNDS = Number(option("rounds", "5"));
const IN_FLIGHT = 8;

const upstream: Upstream = {
  name: "up",
  capabilities: () => Promise.resolve({ tools: {} }),
  close: () => Promise.resolve(),
  request: (_method, params) =>
    Promise.resolve({
      content: [{ type: "text", text: String((params.arguments as { text?: string }).text) }],
    }),
};
const runner = new Runner();
runner.registry.add({
  name: "echo",
  namespace: "up",
  inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
}, mcpBackend("up"));
let logged = 0;
const gateway = await Gateway.create(runner, {
  upstreams: [upstream],
  redact: (text) => text.includes("s3cr3t") ? text.replaceAll("s3cr3t", "***") : text,
  onAccess: (entry) => void (logged += accessLogLine(entry).length),
});
const handler = createHttpHandler(gateway, {
  maxConcurrentPerClient: 256,
  maxRate: { requests: 1e9, windowMs: 60_000 },
});
const headers = {
  host: "127.0.0.1:8080",
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
  "mcp-protocol-version": "2025-06-18",
};
let id = 0;
async function one(): Promise<void> {
  const body = JSON.stringify({
    jsonrpc: "2.0",
    id: ++id,
    method: "tools/call",
    params: { name: "echo", arguments: { text: "hello" } },
  });
  const response = await handler.fetch(
    new Request("http://127.0.0.1:8080/mcp", { method: "POST", headers, body }),
    { remoteAddr: { hostname: "127.0.0.1" } },
  );
  const text = await response.text();
  if (!text.includes('"hello"')) throw new Error(`unexpected answer: ${text}`);
}
async function run(calls: number): Promise<number> {
  let left = calls;
  // CPU time (user + system) of this process, less disturbed by other
  // processes on the machine than wall time.
  const started = cpuUsage();
  await Promise.all(Array.from({ length: IN_FLIGHT }, async () => {
    while (left-- > 0) await one();
  }));
  const used = cpuUsage(started);
  return (used.user + used.system) / 1000 / calls;
}
await run(2000);
const results: number[] = [];
for (let r = 0; r < ROUNDS; r++) results.push(await run(CALLS));
results.sort((a, b) => a - b);
console.log(
  `handler, in process, ${IN_FLIGHT} in flight: ${
    results.map((ms) => (ms * 1000).toFixed(1)).join(" / ")
  } µs per call (median ${(results[results.length >> 1] * 1000).toFixed(1)}; ${logged} log bytes)`,
);
await handler.close();
await gateway.close();
