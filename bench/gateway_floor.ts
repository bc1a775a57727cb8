// The floor under `serve --http` in front of a Streamable HTTP upstream: what
// a bare `Deno.serve` handler costs per forwarded `tools/call` when it does
// nothing but pass the bytes on, measured beside each other in one run.
//
//   deno run -A bench/gateway_floor.ts [--calls=600] [--rounds=2]
//
// Targets (each a process of its own, CPU per call read from /proc):
// - "static": answers every POST with a canned SSE answer (no upstream leg):
//   the inbound HTTP server alone.
// - "fetch": reads the body and posts it on with `fetch`, streams the answer
//   back: Deno's HTTP server and fetch client.
// - "raw": the same over a minimal keep-alive HTTP/1.1 client on
//   `Deno.connect` (serve/_http1_client.ts).
// Linux only (CPU from /proc).

import { HttpSession } from "./_mcp_http.ts";
import { cpuMs } from "./_cpu.ts";
import { Http1Pool } from "../serve/_http1_client.ts";

const option = (name: string, fallback: string): string =>
  Deno.args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const ROOT = new URL("../", import.meta.url).pathname;
const MODE = option("proxy", "");
const CALLS = Number(option("calls", "600"));
const ROUNDS = Number(option("rounds", "2"));
const LEVELS = [1, 8, 32];

const FORWARDED = ["content-type", "accept", "mcp-session-id", "mcp-protocol-version"];

if (MODE !== "") {
  const upstream = option("upstream", "");
  const upstreamUrl = new URL(upstream);
  const pool = new Http1Pool();
  const canned = new TextEncoder().encode(
    `event: message\ndata: {"result":{"content":[{"type":"text","text":"hello"}]},"jsonrpc":"2.0","id":1}\n\n`,
  );
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    const body = new Uint8Array(await req.arrayBuffer());
    if (MODE === "static") {
      const text = new TextDecoder().decode(body);
      if (text.includes('"tools/call"')) {
        return new Response(canned, { headers: { "content-type": "text/event-stream" } });
      }
    }
    const headers: Record<string, string> = {};
    for (const name of FORWARDED) {
      const value = req.headers.get(name);
      if (value !== null) headers[name] = value;
    }
    if (MODE === "raw" || MODE === "static") {
      const answer = await pool.request(upstreamUrl, { method: "POST", headers, body });
      const out: Record<string, string> = {};
      for (const name of ["content-type", "mcp-session-id"]) {
        const v = answer.headers.get(name);
        if (v !== undefined) out[name] = v;
      }
      const bytes = await answer.bytes(Infinity);
      return new Response(answer.status === 202 ? null : bytes as Uint8Array<ArrayBuffer>, {
        status: answer.status,
        headers: out,
      });
    }
    const response = await fetch(upstream, { method: "POST", headers, body });
    const out = new Headers();
    for (const name of ["content-type", "mcp-session-id"]) {
      const v = response.headers.get(name);
      if (v !== null) out.set(name, v);
    }
    const bytes = await response.arrayBuffer();
    return new Response(response.status === 202 ? null : bytes, {
      status: response.status,
      headers: out,
    });
  });
  console.log(`http://127.0.0.1:${(server.addr as Deno.NetAddr).port}/mcp`);
} else {
  const firstLine = async (child: Deno.ChildProcess) => {
    const reader = child.stdout.getReader();
    let text = "";
    while (!text.includes("\n")) {
      const { value, done } = await reader.read();
      if (done) throw new Error("exited before printing its URL");
      text += new TextDecoder().decode(value);
    }
    reader.releaseLock();
    return text.trim();
  };
  const spawn = (args: string[]) =>
    new Deno.Command(Deno.execPath(), { args, stdout: "piped", stderr: "inherit" }).spawn();
  const up = spawn([
    "run",
    "-A",
    "--quiet",
    `${ROOT}tests/fixtures/serve/upstream.ts`,
    "--http",
    "0",
  ]);
  const upUrl = await firstLine(up);
  const modes = ["static", "fetch", "raw"];
  const proxies = await Promise.all(modes.map(async (mode) => {
    const child = spawn([
      "run",
      "-A",
      import.meta.filename!,
      `--proxy=${mode}`,
      `--upstream=${upUrl}`,
    ]);
    return { mode, child, url: await firstLine(child) };
  }));
  const targets = [{ mode: "direct", child: up, url: upUrl }, ...proxies];
  const totals = new Map<string, { calls: number; cpu: number; up: number }>();
  for (let round = 0; round < ROUNDS; round++) {
    for (const level of LEVELS) {
      for (const target of targets) {
        const sessions = await Promise.all(Array.from({ length: level }, async () => {
          const s = new HttpSession(target.url, "none");
          await s.initialize();
          await s.call("echo", { text: "warm" });
          return s;
        }));
        const before = cpuMs([target.child.pid]);
        const upBefore = cpuMs([up.pid]);
        let next = 0;
        let errors = 0;
        await Promise.all(sessions.map(async (s) => {
          while (next < CALLS) {
            next++;
            const o = await s.call("echo", { text: "hello" });
            if (o.kind !== "ok") errors++;
          }
        }));
        const cpu = cpuMs([target.child.pid]) - before;
        const upCpu = cpuMs([up.pid]) - upBefore;
        const key = `${target.mode}\0${level}`;
        const t = totals.get(key) ?? { calls: 0, cpu: 0, up: 0 };
        totals.set(key, { calls: t.calls + CALLS, cpu: t.cpu + cpu, up: t.up + upCpu });
        if (errors > 0) console.error(`${target.mode} x${level}: ${errors} errors`);
      }
    }
  }
  console.log("| target | clients | proxy CPU ms/call | upstream CPU ms/call | proxy / upstream |");
  console.log("| --- | ---: | ---: | ---: | ---: |");
  for (const level of LEVELS) {
    for (const target of targets) {
      const t = totals.get(`${target.mode}\0${level}`)!;
      const proxy = target.mode === "direct" ? NaN : t.cpu / t.calls;
      console.log(
        `| ${target.mode} | ${level} | ${proxy.toFixed(2)} | ${(t.up / t.calls).toFixed(2)} | ${
          (proxy / (t.up / t.calls)).toFixed(2)
        } |`,
      );
    }
  }
  for (const target of targets) {
    try {
      target.child.kill("SIGTERM");
    } catch { /* gone */ }
    await target.child.status;
  }
}
