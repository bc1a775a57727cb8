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
// - "nginx" (when nginx is installed; bench/_nginx.ts): a native reverse
//   proxy, one worker, keep-alive connections to the upstream, SSE passed on
//   unbuffered: what a native forwarder costs on the same machine.
// Each target also prints the calls per second one core of its CPU would
// carry (1000 / its CPU ms per call).
//
// Two more forwarders, to a stdio upstream (run by bench/gateway_bench.ts
// `--floor` in its stdio scenario, beside serve in front of the same
// fixture): `--proxy=stdio --upstream=<fixture.ts>` (`Deno.serve`) and
// `--proxy=stdio-listen` (the raw `Deno.listen` server) start the fixture as
// their child, initialize it once, and write each request as one line under
// an ID of their own, answering with the matching line (`startStdioLeg`);
// `--stdio-protocol=` is the version they initialize it with (default
// 2025-11-25, what serve's SDK client asks for).
// Linux only (CPU from /proc).

import { HttpSession } from "./_mcp_http.ts";
import { cpuMs, descendantsOf } from "./_cpu.ts";
import { findNginx, startNginx } from "./_nginx.ts";
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
  await listenForwarder(httpLeg(new URL(option("upstream", ""))));
} else if (MODE === "stdio-listen") {
  await listenForwarder(await startStdioLeg(option("upstream", "")));
} else if (MODE === "stdio") {
  const leg = await startStdioLeg(option("upstream", ""));
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    const answer = await leg(null, new Uint8Array(await req.arrayBuffer()));
    return new Response(answer.status === 202 ? null : answer.body as Uint8Array<ArrayBuffer>, {
      status: answer.status,
      headers: answer.headers,
    });
  });
  console.log(`http://127.0.0.1:${(server.addr as Deno.NetAddr).port}/mcp`);
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
  const targets: { mode: string; url: string; pids(): number[]; stop(): Promise<unknown> }[] = [
    { mode: "direct", child: up, url: upUrl },
    ...proxies,
  ].map(({ mode, child, url }) => ({
    mode,
    url,
    pids: () => [child.pid],
    stop: async () => {
      try {
        child.kill("SIGTERM");
      } catch { /* gone */ }
      await child.status;
    },
  }));
  const nginx = findNginx();
  if (nginx === undefined) console.error("nginx: not installed, its target skipped");
  else {
    const proxy = await startNginx(nginx, upUrl);
    targets.push({
      mode: "nginx",
      url: proxy.url,
      pids: () => [proxy.pid, ...descendantsOf(proxy.pid)],
      stop: proxy.stop,
    });
  }
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
        const pids = target.pids();
        const before = cpuMs(pids);
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
        const cpu = cpuMs(pids) - before;
        const upCpu = cpuMs([up.pid]) - upBefore;
        const key = `${target.mode}\0${level}`;
        const t = totals.get(key) ?? { calls: 0, cpu: 0, up: 0 };
        totals.set(key, { calls: t.calls + CALLS, cpu: t.cpu + cpu, up: t.up + upCpu });
        if (errors > 0) console.error(`${target.mode} x${level}: ${errors} errors`);
      }
    }
  }
  console.log(
    "| target | clients | proxy CPU ms/call | upstream CPU ms/call | proxy / upstream | proxy calls/s per core |",
  );
  console.log("| --- | ---: | ---: | ---: | ---: | ---: |");
  for (const level of LEVELS) {
    for (const target of targets) {
      const t = totals.get(`${target.mode}\0${level}`)!;
      const proxy = target.mode === "direct" ? NaN : t.cpu / t.calls;
      console.log(
        `| ${target.mode} | ${level} | ${proxy.toFixed(2)} | ${(t.up / t.calls).toFixed(2)} | ${
          (proxy / (t.up / t.calls)).toFixed(2)
        } | ${(1000 / proxy).toFixed(0)} |`,
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
        `${(cpu / upCpu).toFixed(2)}x the upstream's CPU, ` +
        `${(1000 * calls / cpu).toFixed(0)} calls/s per core`,
    );
  }
  for (const target of targets.reverse()) await target.stop();
}

/**
 * The "listen" forwarder: a raw TCP server that parses each request's head
 * (request line, headers, Content-Length body), posts the body upstream over
 * {@linkcode Http1Pool} and writes the answer back with a Content-Length, one
 * write per answer; connections kept alive until the client closes them.
 */
async function listenForwarder(forward: Forward): Promise<void> {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  console.log(`http://127.0.0.1:${listener.addr.port}/mcp`);
  for await (const conn of listener) void serveConnection(conn, forward);
}

/** One forwarded request's answer: status, the headers to pass on, the body. */
interface Forwarded {
  status: number;
  headers: Record<string, string>;
  body: Uint8Array;
}

/** The upstream leg of a forwarder: the request's forwarded headers (null: none) and body in, the answer out. */
type Forward = (headers: Record<string, string> | null, body: Uint8Array) => Promise<Forwarded>;

/** The HTTP upstream leg over {@linkcode Http1Pool}. */
function httpLeg(upstreamUrl: URL): Forward {
  const pool = new Http1Pool();
  return async (headers, body) => {
    const answer = await pool.request(upstreamUrl, {
      method: "POST",
      headers: headers ?? {},
      body,
    });
    const bytes = await answer.bytes(Infinity);
    const out: Record<string, string> = {};
    for (const name of ["content-type", "mcp-session-id"]) {
      const v = answer.headers.get(name);
      if (v !== undefined) out[name] = v;
    }
    return { status: answer.status, headers: out, body: bytes };
  };
}

/**
 * The stdio upstream leg: the fixture at `path` as a child process
 * (`deno run -A --quiet <path>`), initialized once here (`initialize`, then
 * `notifications/initialized`). Per request: an `initialize` is answered
 * with the child's own result under the request's ID (the child is already
 * initialized); a notification is answered 202 and not passed on; any other
 * request is written as one line under an ID of ours (calls in flight side
 * by side), and the line with that ID read back is answered as JSON under
 * the client's ID. Lines without a pending ID (the child's notifications or
 * requests) are dropped. A measurement only: no deadline, no output cap.
 */
async function startStdioLeg(path: string): Promise<Forward> {
  const encoder = new TextEncoder();
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--quiet", path],
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const writer = child.stdin.getWriter();
  const pending = new Map<number, (message: Record<string, unknown>) => void>();
  let nextId = 1;
  void (async () => {
    const decoder = new TextDecoder();
    let rest = "";
    for await (const chunk of child.stdout) {
      rest += decoder.decode(chunk, { stream: true });
      let newline = rest.indexOf("\n");
      while (newline >= 0) {
        const line = rest.slice(0, newline);
        rest = rest.slice(newline + 1);
        newline = rest.indexOf("\n");
        if (line.trim() === "") continue;
        const message = JSON.parse(line);
        const resolve = pending.get(message.id);
        if (resolve === undefined) continue;
        pending.delete(message.id);
        resolve(message);
      }
    }
  })();
  const send = (message: Record<string, unknown>): Promise<Record<string, unknown>> => {
    const id = nextId++;
    message.id = id;
    const answer = new Promise<Record<string, unknown>>((resolve) => pending.set(id, resolve));
    void writer.write(encoder.encode(JSON.stringify(message) + "\n"));
    return answer;
  };
  const init = await send({
    jsonrpc: "2.0",
    method: "initialize",
    params: {
      // What serve's SDK client asks for: the fixture then serves both the same way.
      protocolVersion: option("stdio-protocol", "2025-11-25"),
      capabilities: {},
      clientInfo: { name: "gateway-floor", version: "1.0.0" },
    },
  });
  if (init.result === undefined) throw new Error(`initialize failed: ${JSON.stringify(init)}`);
  await writer.write(
    encoder.encode(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) + "\n"),
  );
  const json = { "content-type": "application/json" };
  const decoder = new TextDecoder();
  return async (_headers, body) => {
    const message = JSON.parse(decoder.decode(body));
    if (message.id === undefined) return { status: 202, headers: {}, body: new Uint8Array(0) };
    const clientId = message.id;
    const answer = message.method === "initialize"
      ? { result: init.result, jsonrpc: "2.0", id: clientId }
      : await send(message);
    answer.id = clientId;
    return { status: 200, headers: json, body: encoder.encode(JSON.stringify(answer)) };
  };
}

function headEnd(buf: Uint8Array, from: number, to: number): number {
  for (let i = Math.max(0, from - 3); i + 3 < to; i++) {
    if (
      buf[i] === 13 && buf[i + 1] === 10 && buf[i + 2] === 13 && buf[i + 3] === 10
    ) return i;
  }
  return -1;
}

async function serveConnection(conn: Deno.Conn, forward: Forward) {
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
      const answer = await forward(headers, body);
      let head = `HTTP/1.1 ${answer.status} OK\r\n`;
      for (const name in answer.headers) head += `${name}: ${answer.headers[name]}\r\n`;
      const out = answer.status === 202 ? new Uint8Array(0) : answer.body;
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
