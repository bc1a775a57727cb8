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
// - "listen": the "raw" upstream leg behind a minimal HTTP/1.1 server of its
//   own on `Deno.listen` instead of `Deno.serve` (keep-alive, Content-Length
//   bodies only, no TLS, no h2, no streaming): what a gateway on Deno with one
//   upstream request per call costs when neither HTTP leg uses Deno's HTTP
//   stack. A measurement only: it trusts its clients.
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

if (MODE === "listen") {
  await listenForwarder(new URL(option("upstream", "")));
} else if (MODE !== "") {
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
  const modes = ["static", "fetch", "raw", "listen"];
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
    if (target.mode === "direct") continue;
    let calls = 0, cpu = 0, upCpu = 0;
    for (const level of LEVELS) {
      const t = totals.get(`${target.mode}\0${level}`)!;
      calls += t.calls;
      cpu += t.cpu;
      upCpu += t.up;
    }
    console.log(
      `- ${target.mode}, all client counts: ${(cpu / calls).toFixed(3)} ms/call, ` +
        `${(cpu / upCpu).toFixed(2)}x the upstream's CPU`,
    );
  }
  for (const target of targets) {
    try {
      target.child.kill("SIGTERM");
    } catch { /* gone */ }
    await target.child.status;
  }
}

/**
 * The "listen" forwarder: a raw TCP server that parses each request's head
 * (request line, headers, Content-Length body), posts the body upstream over
 * {@linkcode Http1Pool} and writes the answer back with a Content-Length, one
 * write per answer; connections kept alive until the client closes them.
 */
async function listenForwarder(upstreamUrl: URL): Promise<void> {
  const pool = new Http1Pool();
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  console.log(`http://127.0.0.1:${listener.addr.port}/mcp`);
  for await (const conn of listener) void serveConnection(conn, pool, upstreamUrl);
}

function headEnd(buf: Uint8Array, from: number, to: number): number {
  for (let i = Math.max(0, from - 3); i + 3 < to; i++) {
    if (
      buf[i] === 13 && buf[i + 1] === 10 && buf[i + 2] === 13 && buf[i + 3] === 10
    ) return i;
  }
  return -1;
}

async function serveConnection(conn: Deno.Conn, pool: Http1Pool, upstreamUrl: URL) {
  // Declared here, not at the top level: the top-level await above runs first.
  const latin1 = new TextDecoder("latin1");
  const encoder = new TextEncoder();
  let buf = new Uint8Array(16384);
  let len = 0;
  const fill = async (): Promise<boolean> => {
    if (len === buf.length) {
      const bigger = new Uint8Array(buf.length * 2);
      bigger.set(buf.subarray(0, len));
      buf = bigger;
    }
    const n = await conn.read(buf.subarray(len));
    if (n === null) return false;
    len += n;
    return true;
  };
  try {
    for (;;) {
      let end = headEnd(buf, 0, len);
      let scanned = len;
      while (end < 0) {
        if (!await fill()) return;
        end = headEnd(buf, scanned, len);
        scanned = len;
      }
      const lines = latin1.decode(buf.subarray(0, end)).split("\r\n");
      const method = lines[0].slice(0, lines[0].indexOf(" "));
      const headers: Record<string, string> = {};
      let length = 0;
      for (let i = 1; i < lines.length; i++) {
        const colon = lines[i].indexOf(":");
        const name = lines[i].slice(0, colon).trim().toLowerCase();
        const value = lines[i].slice(colon + 1).trim();
        if (name === "content-length") length = Number(value);
        else if (FORWARDED.includes(name)) headers[name] = value;
      }
      const start = end + 4;
      while (len < start + length) {
        if (!await fill()) return;
      }
      const body = buf.slice(start, start + length);
      buf.copyWithin(0, start + length, len);
      len -= start + length;
      if (method !== "POST") {
        await writeAll(
          conn,
          encoder.encode("HTTP/1.1 405 Method Not Allowed\r\ncontent-length: 0\r\n\r\n"),
        );
        continue;
      }
      const answer = await pool.request(upstreamUrl, { method: "POST", headers, body });
      const bytes = await answer.bytes(Infinity);
      let head = `HTTP/1.1 ${answer.status} OK\r\n`;
      for (const name of ["content-type", "mcp-session-id"]) {
        const v = answer.headers.get(name);
        if (v !== undefined) head += `${name}: ${v}\r\n`;
      }
      const out = answer.status === 202 ? new Uint8Array(0) : bytes;
      head += `content-length: ${out.length}\r\n\r\n`;
      const message = new Uint8Array(head.length + out.length);
      encoder.encodeInto(head, message);
      message.set(out, head.length);
      await writeAll(conn, message);
    }
  } catch {
    // the client went away
  } finally {
    try {
      conn.close();
    } catch { /* closed */ }
  }
}

async function writeAll(conn: Deno.Conn, bytes: Uint8Array): Promise<void> {
  for (let off = 0; off < bytes.length;) off += await conn.write(bytes.subarray(off));
}
