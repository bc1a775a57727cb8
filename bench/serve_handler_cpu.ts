// CPU per call of serve's HTTP handler alone, in process: `createHttpHandler`
// in front of an upstream object that answers at once, with the CLI's
// redactor and access log, 8 calls in flight. No network on either side,
// so what is measured is serve's own JavaScript per forwarded `tools/call`
// (and the Request the bench builds per call, the same on every run).
//
//   deno run -A bench/serve_handler_cpu.ts [--calls=20000] [--rounds=5] [--layer=handler]
//
// Three layers, interleaved round by round: "frame" (the bench's own part:
// the Request built, its body read and parsed, an SSE answer framed and
// read back), "gateway" (the same with `gateway.callTool` in between: the
// gateway, the argument check, the access log, the upstream object) and
// "handler" (`handler.fetch`: guards, rate, classification, the direct path).
// "handler2026" is "handler" with a client of MCP 2026-07-28 (the envelope in
// each request, the `Mcp-Method`/`Mcp-Name` headers; the 2026 direct path).
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
const gateway = await Gateway.create(runner, {
  upstreams: [upstream],
  redact: (text) => text.includes("s3cr3t") ? text.replaceAll("s3cr3t", "***") : text,
  onAccess: (entry) => void accessLogLine(entry),
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
const headers2026 = {
  ...headers,
  "mcp-protocol-version": "2026-07-28",
  "mcp-method": "tools/call",
  "mcp-name": "echo",
};
const envelope = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientInfo": { name: "serve-handler-cpu", version: "1.0.0" },
  "io.modelcontextprotocol/clientCapabilities": {},
};
let id = 0;
type Layer = "frame" | "gateway" | "handler" | "handler2026";
const SSE = { "content-type": "text/event-stream", "cache-control": "no-cache, no-transform" };

/** The layers below the handler, answered by the bench itself. */
async function below(request: Request, layer: Layer): Promise<Response> {
  const message = JSON.parse(new TextDecoder().decode(await request.bytes()));
  const result = layer === "frame"
    ? { content: [{ type: "text", text: message.params.arguments.text }] }
    : await gateway.callTool(message.params.name, message.params.arguments, {
      caller: "127.0.0.1",
      clientCapabilities: {},
      clientEra: "legacy",
      signal: request.signal,
    });
  const json = JSON.stringify({ result, jsonrpc: "2.0", id: message.id });
  return new Response(`event: message\ndata: ${json}\n\n`, { status: 200, headers: SSE });
}

async function one(layer: Layer): Promise<void> {
  const modern = layer === "handler2026";
  const body = JSON.stringify({
    jsonrpc: "2.0",
    id: ++id,
    method: "tools/call",
    params: {
      name: "echo",
      arguments: { text: "hello" },
      ...(modern ? { _meta: envelope } : {}),
    },
  });
  const request = new Request("http://127.0.0.1:8080/mcp", {
    method: "POST",
    headers: modern ? headers2026 : headers,
    body,
  });
  const response = layer === "handler" || modern
    ? await handler.fetch(request, { remoteAddr: { hostname: "127.0.0.1" } })
    : await below(request, layer);
  const text = await response.text();
  if (!text.includes('"hello"')) throw new Error(`unexpected answer: ${text}`);
}
async function run(calls: number, layer: Layer): Promise<number> {
  let left = calls;
  // CPU time (user + system) of this process, less disturbed by other
  // processes on the machine than wall time.
  const started = cpuUsage();
  await Promise.all(Array.from({ length: IN_FLIGHT }, async () => {
    while (left-- > 0) await one(layer);
  }));
  const used = cpuUsage(started);
  return (used.user + used.system) / 1000 / calls;
}
const only = option("layer", "");
const LAYERS = (["frame", "gateway", "handler", "handler2026"] as Layer[]).filter((l) =>
  only === "" || l === only
);
for (const layer of LAYERS) await run(2000, layer);
const results = new Map<Layer, number[]>(LAYERS.map((l) => [l, []]));
for (let r = 0; r < ROUNDS; r++) {
  for (const layer of LAYERS) results.get(layer)!.push(await run(CALLS, layer));
}
const us = (ms: number) => (ms * 1000).toFixed(1);
console.log(`CPU per call in process, ${IN_FLIGHT} in flight, ${ROUNDS} rounds of ${CALLS} (µs):`);
for (const layer of LAYERS) {
  const all = results.get(layer)!.toSorted((a, b) => a - b);
  console.log(
    `- ${layer}: min ${us(all[0])}, median ${us(all[all.length >> 1])} (${
      all.map(us).join(" / ")
    })`,
  );
}
await handler.close();
await gateway.close();
