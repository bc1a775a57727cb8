// The cost of `serve`: calls per second and added p50/p99 latency through a
// stateless serve in front of an upstream (tests/fixtures/serve/upstream.ts
// over HTTP) against calling that upstream directly, with 1, 8 and 64
// concurrent clients; and the memory of a gateway serving 1,000 tools.
//
//   deno run -A bench/serve_bench.ts [callsPerClient]
//
// Under `deno bench` only a small in-process benchmark registers (one call
// through the gateway), so the suite stays quick.

import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { mcpBackend, type Tool } from "../model/mod.ts";
import { Runner } from "../run/mod.ts";
import { Gateway, mcpUpstream, serveHttp } from "../serve/mod.ts";
import { startHttpFixture } from "../tests/serve/_direct_upstream.ts";

async function gatewayFor(upstreamUrl: string): Promise<Gateway> {
  const upstream = mcpUpstream("up", { transport: "http", url: upstreamUrl }, {
    maxConnections: 64,
  });
  const { tools } = await upstream.request("tools/list", {}, {}) as { tools: Tool[] };
  const runner = new Runner();
  for (const tool of tools) runner.registry.add({ ...tool, namespace: "up" }, mcpBackend("up"));
  return await Gateway.create(runner, { upstreams: [upstream] });
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
}

async function measure(url: string, clients: number, callsPerClient: number) {
  const connected = await Promise.all(
    Array.from({ length: clients }, async () => {
      const client = new Client({ name: "bench", version: "1" });
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      return client;
    }),
  );
  const latencies: number[] = [];
  const started = performance.now();
  await Promise.all(connected.map(async (client) => {
    for (let i = 0; i < callsPerClient; i++) {
      const t = performance.now();
      await client.callTool({ name: "echo", arguments: { text: "x" } });
      latencies.push(performance.now() - t);
    }
  }));
  const seconds = (performance.now() - started) / 1000;
  await Promise.all(connected.map((c) => c.close()));
  latencies.sort((a, b) => a - b);
  return {
    callsPerSecond: latencies.length / seconds,
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
  };
}

async function memoryWithTools(count: number): Promise<{ rssMb: number; heapMb: number }> {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const before = Deno.memoryUsage();
  const runner = new Runner();
  for (let i = 0; i < count; i++) {
    runner.addLocalTool({
      name: `tool_${i}`,
      description: `Tool number ${i}`,
      inputSchema: {
        type: "object",
        properties: { a: { type: "string", maxLength: 100 }, b: { type: "integer", minimum: 0 } },
        required: ["a"],
      },
    }, (args) => ({ echoed: args.a }));
  }
  const gateway = await Gateway.create(runner);
  const serving = await serveHttp(gateway, { port: 0 });
  const client = new Client({ name: "bench", version: "1" });
  await client.connect(new StreamableHTTPClientTransport(new URL(serving.url)));
  const { tools } = await client.listTools();
  if (tools.length !== count) throw new Error(`listed ${tools.length} tools`);
  await client.callTool({ name: "tool_999", arguments: { a: "x" } });
  gc?.();
  const after = Deno.memoryUsage();
  await client.close();
  await serving.close();
  await gateway.close();
  return {
    rssMb: (after.rss - before.rss) / 2 ** 20,
    heapMb: (after.heapUsed - before.heapUsed) / 2 ** 20,
  };
}

if (import.meta.main) {
  const callsPerClient = Number(Deno.args[0] ?? 50);
  // Memory first, in a fresh process state.
  const memory = await memoryWithTools(1000);
  const upstream = await startHttpFixture("upstream.ts");
  const gateway = await gatewayFor(upstream.url);
  const serving = await serveHttp(gateway, { port: 0, maxConcurrentPerClient: 1000 });
  const rows: string[] = [
    "| clients | direct calls/s | serve calls/s | direct p50 / p99 ms | serve p50 / p99 ms | added p50 / p99 ms |",
    "|---:|---:|---:|---:|---:|---:|",
  ];
  try {
    for (const clients of [1, 8, 64]) {
      const calls = Math.max(2, Math.round(callsPerClient * (clients === 64 ? 0.25 : 1)));
      await measure(upstream.url, clients, 2); // warm-up
      await measure(serving.url, clients, 2);
      const direct = await measure(upstream.url, clients, calls);
      const served = await measure(serving.url, clients, calls);
      const f = (n: number) => n.toFixed(1);
      rows.push(
        `| ${clients} | ${direct.callsPerSecond.toFixed(0)} | ${
          served.callsPerSecond.toFixed(0)
        } | ${f(direct.p50)} / ${f(direct.p99)} | ${f(served.p50)} / ${f(served.p99)} | ${
          f(served.p50 - direct.p50)
        } / ${f(served.p99 - direct.p99)} |`,
      );
    }
  } finally {
    await serving.close();
    await gateway.close();
    await upstream.close();
  }
  console.log(rows.join("\n"));
  console.log(
    `\nmemory with 1,000 tools served (gateway + HTTP + one tools/list and call): +${
      memory.rssMb.toFixed(1)
    } MiB RSS, +${memory.heapMb.toFixed(1)} MiB heap`,
  );
} else {
  const runner = new Runner();
  runner.addLocalTool({ name: "ping", inputSchema: { type: "object" } }, () => "pong");
  const gateway = await Gateway.create(runner);
  Deno.bench(
    "serve: one local tool call through the gateway (validation, access log off)",
    async () => {
      await gateway.callTool("ping", {}, { caller: "bench" });
    },
  );
}
