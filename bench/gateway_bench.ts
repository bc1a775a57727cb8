// What forwarding costs: `serve --http` in front of an upstream MCP server
// (tests/fixtures/serve/upstream.ts, its `echo` tool), side by side in one
// run with calling the upstream directly and with peer proxies from npm, at
// 1, 8 and 32 concurrent clients. Per target and client count: calls/s,
// p50/p99 latency, and the CPU time per call of each process (the gateway
// and, apart, the upstream's own), read from /proc/<pid>/stat.
//
//   deno task bench:gateway [--calls=600] [--rounds=2] [--only=http|stdio] [--no-peers]
//     [--sessions-open=400] [--profile=DIR] [--baseline=/path/to/other/checkout/] [--floor]
//     [--era=2026|both] [--upstream-protocol=legacy|auto|2026-07-28]
//
// Two scenarios: an HTTP upstream (direct; serve stateless; serve --sessions;
// the peer chain mcp-proxy -> supergateway, the usual way to put a Streamable
// HTTP server behind a Streamable HTTP proxy with them), and a stdio upstream
// (serve stateless; serve --sessions; mcp-proxy). The targets run interleaved
// (each round goes through all of them) so that other load on the machine
// spreads over all; `--calls` is per target, client count and round. Last,
// the memory of an open session: serve --sessions' resident memory before and
// after `--sessions-open` clients each opened one, and in this process (a
// gateway and handler of its own) the heap each session keeps after GC. `--profile=DIR` runs the
// serves under V8's profiler (`--prof`), a log per serve in DIR. `--baseline`
// adds the serves of another checkout (e.g. main before a change) as targets
// "serve @baseline" and "serve --sessions @baseline", for before/after ratios
// from one run. `--floor` adds, in front of the HTTP upstream, two bare
// `Deno.serve` forwarders that only pass the bytes on (bench/gateway_floor.ts):
// "floor: fetch" and "floor: own client" (serve/_http1_client.ts), the CPU a
// gateway on Deno's HTTP server cannot go below, and "floor: raw listen" (a
// minimal HTTP/1.1 server on `Deno.listen` in front of our client: the floor
// without Deno's HTTP stack on either leg), and "floor: nginx" (bench/_nginx.ts:
// a native reverse proxy, one worker, upstream keep-alive; skipped with a
// line when nginx is not installed); in front of the stdio upstream, "floor:
// stdio serve" and "floor: stdio raw listen" (the same fixture as the
// forwarder's child, each request written as one line, the matching line
// answered). Every gateway row also gives the calls per second one core of
// its CPU would carry (1000 / CPU ms per call). `--era=2026` makes the
// clients of every serve target speak MCP 2026-07-28 (no initialize, the
// envelope in each request); `--era=both` keeps the 2025-era targets and adds
// each serve target again with 2026-07-28 clients ("... [2026]").
// `--upstream-protocol` is the manifest's `protocol` of the upstream (default
// legacy: 2025-era; 2026-07-28 makes serve speak that era to it, to the
// fixture of both eras, tests/fixtures/serve/upstream_2026.ts).
// Linux only (CPU and memory from /proc).

import { HttpSession, type Outcome } from "./_mcp_http.ts";
import { cpuMs, descendantsOf, rssBytes } from "./_cpu.ts";
import { type RunningServe, startServe } from "./_load_serve.ts";
import { sessionMemory as retainedPerSession } from "./_session_memory.ts";
import { findNginx, startNginx } from "./_nginx.ts";

const ROOT = new URL("../", import.meta.url).pathname;
const UPSTREAM_PROTOCOL_OPTION = Deno.args.find((a) => a.startsWith("--upstream-protocol="));
/** The fixture: upstream.ts (2025 era), or upstream_2026.ts (both eras) when serve speaks another. */
const UPSTREAM = UPSTREAM_PROTOCOL_OPTION === undefined ||
    UPSTREAM_PROTOCOL_OPTION === "--upstream-protocol=legacy"
  ? `${ROOT}tests/fixtures/serve/upstream.ts`
  : `${ROOT}tests/fixtures/serve/upstream_2026.ts`;
const MCP_PROXY = "npm:mcp-proxy@6";
const SUPERGATEWAY = "npm:supergateway@3";

const option = (name: string, fallback: string): string =>
  Deno.args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const CALLS = Number(option("calls", "600"));
const ROUNDS = Number(option("rounds", "2"));
const ONLY = option("only", "");
const PEERS = !Deno.args.includes("--no-peers");
const SESSIONS_OPEN = Number(option("sessions-open", "400"));
const PROFILE = option("profile", "");
/** Another checkout whose serve runs beside this one's (its own cli.ts and bundle), e.g. main's. */
const BASELINE = option("baseline", "");
const FLOOR = Deno.args.includes("--floor");
const LEVELS = [1, 8, 32];
/** Which protocol era the clients of serve targets speak: "2025", "2026", or "both". */
const ERA = option("era", "2025");
const MODERN_VERSION = "2026-07-28";
const UPSTREAM_PROTOCOL = option("upstream-protocol", "legacy");

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A process tree to stop at the end. */
interface Proc {
  pid: number;
  stop(): Promise<void>;
}

function spawn(args: string[], env: Record<string, string> = {}): Deno.ChildProcess {
  return new Deno.Command(args[0], {
    args: args.slice(1),
    cwd: ROOT,
    env,
    stdin: "null",
    stdout: "piped",
    stderr: "null",
  }).spawn();
}

function procOf(child: Deno.ChildProcess): Proc {
  return {
    pid: child.pid,
    async stop() {
      const tree = descendantsOf(child.pid);
      try {
        child.kill("SIGTERM");
      } catch { /* gone */ }
      const timer = setTimeout(() => {
        for (const pid of [child.pid, ...tree]) {
          try {
            Deno.kill(pid, "SIGKILL");
          } catch { /* gone */ }
        }
      }, 5000);
      await child.status;
      clearTimeout(timer);
      await child.stdout.cancel().catch(() => {});
      for (const pid of tree) {
        try {
          Deno.kill(pid, "SIGKILL");
        } catch { /* gone */ }
      }
    },
  };
}

/** A floor forwarder of bench/gateway_floor.ts (`--proxy=mode`) in front of `upstream`: its URL. */
function startFloor(mode: string, upstream: string): Promise<Proc & { url: string }> {
  return startUpstream([
    Deno.execPath(),
    "run",
    "-A",
    "--quiet",
    `${ROOT}bench/gateway_floor.ts`,
    `--proxy=${mode}`,
    `--upstream=${upstream}`,
  ]);
}

/** The fixture upstream over HTTP (or a floor forwarder): its URL (the first line it prints). */
async function startUpstream(
  args = [Deno.execPath(), "run", "-A", "--quiet", UPSTREAM, "--http", "0"],
): Promise<Proc & { url: string }> {
  const child = spawn(args);
  const reader = child.stdout.getReader();
  let text = "";
  while (!text.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) throw new Error("the upstream fixture exited before printing its URL");
    text += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  return { ...procOf(child), url: text.trim() };
}

function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

/** A peer proxy from npm, once it answers `initialize`. */
async function startPeer(args: string[], port: number): Promise<Proc & { url: string }> {
  const child = spawn(args);
  void child.stdout.pipeTo(new WritableStream()).catch(() => {});
  const url = `http://127.0.0.1:${port}/mcp`;
  const until = Date.now() + 120_000;
  while (Date.now() < until) {
    const probe = new HttpSession(url, "none");
    if ((await probe.initialize(AbortSignal.timeout(5000))).kind === "ok") {
      return { ...procOf(child), stop: () => procOf(child).stop(), url };
    }
    await sleep(500);
  }
  await procOf(child).stop();
  throw new Error(`peer ${args.join(" ")} did not answer within 120 s`);
}

function manifest(dir: string, server: string): string {
  const path = `${dir}/tools.yaml`;
  Deno.writeTextFileSync(
    path,
    `version: 1
servers:
  up:
${server}
    protocol: ${UPSTREAM_PROTOCOL}
tools:
  - { name: echo, namespace: up, server: up }
`,
  );
  return path;
}

/** One thing the clients call. */
interface Target {
  name: string;
  url: string;
  /** The processes of the gateway itself (empty for the upstream called directly). */
  gateway(): number[];
  /** The upstream's processes. */
  upstream(): number[];
  /** The protocol version its clients speak (default 2025-06-18, with initialize). */
  version?: string;
}

interface Row {
  calls: number;
  errors: number;
  seconds: number;
  latencies: number[];
  gatewayMs: number;
  upstreamMs: number;
  /** The upstream's processes at the end of the first round's calls (a stdio upstream's copies). */
  processes: number;
}

function cpuSnapshot(pids: number[]): Map<number, number> {
  return new Map(pids.map((pid) => [pid, cpuMs([pid])]));
}

function cpuSince(before: Map<number, number>, pids: number[]): number {
  let total = 0;
  for (const pid of pids) total += cpuMs([pid]) - (before.get(pid) ?? 0);
  return total;
}

async function measure(target: Target, clients: number, calls: number): Promise<Row> {
  const sessions = await Promise.all(Array.from({ length: clients }, async () => {
    const session = new HttpSession(target.url, "none", target.version);
    // 2026-07-28 has no initialize: every request carries the envelope.
    if (target.version === MODERN_VERSION) return session;
    const init = await session.initialize(AbortSignal.timeout(30_000));
    if (init.kind !== "ok") throw new Error(`${target.name}: initialize failed: ${init.kind}`);
    return session;
  }));
  // A few calls first: connections open, code warm.
  await Promise.all(sessions.map((s) => s.call("echo", { text: "warm" })));
  const gatewayPids = target.gateway();
  const upstreamBefore = cpuSnapshot(target.upstream());
  const gatewayBefore = cpuSnapshot(gatewayPids);
  const latencies: number[] = [];
  let errors = 0;
  let next = 0;
  const started = performance.now();
  await Promise.all(sessions.map(async (session) => {
    while (next < calls) {
      next++;
      const outcome: Outcome = await session.call("echo", { text: "hello" });
      if (outcome.kind === "ok") latencies.push(outcome.ms);
      else errors++;
    }
  }));
  const seconds = (performance.now() - started) / 1000;
  const row = {
    calls,
    errors,
    seconds,
    latencies,
    gatewayMs: cpuSince(gatewayBefore, gatewayPids),
    upstreamMs: cpuSince(upstreamBefore, target.upstream()),
    processes: target.upstream().length,
  };
  // Closed after the CPU was read: a server with a cap on open sessions per
  // client (`--sessions`) would refuse the next rounds' sessions otherwise.
  await Promise.all(sessions.map((s) => s.close()));
  return row;
}

function merge(a: Row | undefined, b: Row): Row {
  if (a === undefined) return b;
  return {
    calls: a.calls + b.calls,
    errors: a.errors + b.errors,
    seconds: a.seconds + b.seconds,
    latencies: [...a.latencies, ...b.latencies],
    gatewayMs: a.gatewayMs + b.gatewayMs,
    upstreamMs: a.upstreamMs + b.upstreamMs,
    processes: a.processes,
  };
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? NaN;
}

const f = (n: number, digits = 2) => Number.isFinite(n) ? n.toFixed(digits) : "-";

function report(scenario: string, targets: Target[], rows: Map<string, Row>): string {
  const lines = [
    `### ${scenario}`,
    "",
    "| target | clients | calls/s | p50 ms | p99 ms | gateway CPU ms/call | upstream CPU ms/call | gateway / upstream CPU | gateway calls/s per core | upstream processes | errors |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
  ];
  for (const level of LEVELS) {
    for (const target of targets) {
      const row = rows.get(`${target.name}\0${level}`);
      if (row === undefined) continue;
      const gw = row.gatewayMs / row.calls;
      const up = row.upstreamMs / row.calls;
      lines.push(
        `| ${target.name} | ${level} | ${f(row.calls / row.seconds, 0)} | ${
          f(percentile(row.latencies, 0.5))
        } | ${f(percentile(row.latencies, 0.99))} | ${
          target.gateway().length === 0 && row.gatewayMs === 0 ? "-" : f(gw)
        } | ${f(up)} | ${target.gateway().length === 0 ? "-" : f(gw / up)} | ${
          target.gateway().length === 0 ? "-" : f(1000 / gw, 0)
        } | ${row.processes} | ${row.errors} |`,
      );
    }
  }
  // Ratios the targets are stated in, all clients counts together.
  const sum = (name: string) =>
    LEVELS.map((l) => rows.get(`${name}\0${l}`)).filter((r) => r !== undefined).reduce(
      (a, b) => merge(a, b!),
      undefined as Row | undefined,
    );
  const direct = rows.get(`direct\0${1}`);
  const stateless = sum("serve");
  const sessions = sum("serve --sessions");
  lines.push("");
  const perCall = (row: Row | undefined) => row === undefined ? NaN : row.gatewayMs / row.calls;
  const base = sum("serve @baseline");
  if (base !== undefined && stateless !== undefined) {
    lines.push(
      `- serve / serve @baseline, gateway CPU per call: ${f(perCall(stateless) / perCall(base))}x`,
    );
  }
  const baseSessions = sum("serve --sessions @baseline");
  if (baseSessions !== undefined && sessions !== undefined) {
    lines.push(
      `- serve --sessions / serve --sessions @baseline, gateway CPU per call: ${
        f(perCall(sessions) / perCall(baseSessions))
      }x`,
    );
  }
  if (stateless !== undefined && sessions !== undefined) {
    lines.push(
      `- serve --sessions / stateless, gateway CPU per call: ${
        f((sessions.gatewayMs / sessions.calls) / (stateless.gatewayMs / stateless.calls))
      }x`,
    );
  }
  for (const name of ["serve [2026]", "serve --sessions [2026]"]) {
    const after = sum(name);
    const before = sum(name.replace(" [2026]", " @baseline [2026]"));
    if (after === undefined || before === undefined) continue;
    lines.push(
      `- ${name} / its @baseline, gateway CPU per call: ${f(perCall(after) / perCall(before))}x`,
    );
  }
  for (const target of targets) {
    if (!target.name.endsWith(" [2026]")) continue;
    const modern = sum(target.name);
    const legacy = sum(target.name.slice(0, -" [2026]".length));
    if (modern === undefined || legacy === undefined) continue;
    lines.push(
      `- ${target.name} / 2025-era clients, gateway CPU per call: ${
        f(perCall(modern) / perCall(legacy))
      }x`,
    );
  }
  for (
    const name of [
      "serve",
      "serve --sessions",
      "serve @baseline",
      "serve --sessions @baseline",
      "floor: fetch",
      "floor: own client",
      "floor: raw listen",
      "floor: nginx",
      "floor: stdio serve",
      "floor: stdio raw listen",
    ]
  ) {
    const all = sum(name);
    if (all === undefined) continue;
    lines.push(
      `- ${name}: gateway CPU / upstream CPU per call, all client counts: ${
        f(all.gatewayMs / all.upstreamMs)
      }x (${f(1000 * all.calls / all.gatewayMs, 0)} calls/s per core)`,
    );
    // A floor's upstream may spend less per call than serve's (a stdio
    // fixture carrying every call in one process): its CPU against serve's
    // upstream's too.
    if (name.startsWith("floor: ") && stateless !== undefined) {
      lines.push(
        `- ${name}: gateway CPU per call / serve's upstream CPU per call, all client counts: ${
          f((all.gatewayMs / all.calls) / (stateless.upstreamMs / stateless.calls))
        }x`,
      );
    }
    const one = rows.get(`${name}\0${1}`);
    if (direct !== undefined && one !== undefined) {
      const d = percentile(direct.latencies, 0.5);
      const s = percentile(one.latencies, 0.5);
      lines.push(
        `- ${name}: added p50 at 1 client ${f(s - d)} ms = ${f((s - d) / d)}x the direct p50`,
      );
    }
  }
  return lines.join("\n");
}

/** The serve targets with the clients `--era` asks for (the upstream called directly keeps 2025). */
function withEra(targets: Target[]): Target[] {
  if (ERA === "2025") return targets;
  const serves = targets.filter((t) => t.name.startsWith("serve"));
  const modern = serves.map((t) => ({ ...t, name: `${t.name} [2026]`, version: MODERN_VERSION }));
  if (ERA === "2026") return [...targets.filter((t) => !t.name.startsWith("serve")), ...modern];
  return [...targets, ...modern];
}

async function run(scenario: string, all: Target[]): Promise<string> {
  const targets = withEra(all);
  const rows = new Map<string, Row>();
  for (let round = 0; round < ROUNDS; round++) {
    for (const level of LEVELS) {
      for (const target of targets) {
        const row = await measure(target, level, CALLS);
        const key = `${target.name}\0${level}`;
        rows.set(key, merge(rows.get(key), row));
        console.error(
          `${scenario} round ${round + 1} ${target.name} x${level}: ${
            f(row.calls / row.seconds, 0)
          } calls/s, ${f(row.gatewayMs / row.calls)} ms CPU/call`,
        );
      }
    }
  }
  return report(scenario, targets, rows);
}

function serveTarget(name: string, serve: RunningServe, upstreamOutside?: Proc): Target {
  return {
    name,
    url: serve.url,
    gateway: () => [serve.pid],
    // A stdio upstream is serve's child; an HTTP one is a process of its own.
    upstream: () =>
      upstreamOutside === undefined ? descendantsOf(serve.pid) : [upstreamOutside.pid],
  };
}

async function startServes(
  file: string,
  dir: string,
  root = ROOT,
): Promise<{ stateless: RunningServe; sessions: RunningServe }> {
  // V8's sampling profiler: one isolate-*.log per serve in its own folder,
  // summarised with `node --prof-process`.
  const profile = (tag: string) => {
    if (PROFILE === "") return [];
    Deno.mkdirSync(`${PROFILE}/${tag}`, { recursive: true });
    return [`--v8-flags=--prof,--logfile=${PROFILE}/${tag}/v8.log`];
  };
  const tag = dir.split("/").at(-1)!;
  // Every client of the bench is one principal (loopback, no token): its
  // limits raised out of the way.
  const limits = ["--max-concurrent", "256", "--max-rate", "10000000/60s"];
  const flags = root === ROOT ? [] : ["--no-lock"];
  const suffix = root === ROOT ? "" : "-baseline";
  const stateless = await startServe(root, file, limits, {}, [
    ...flags,
    ...profile(`${tag}-stateless${suffix}`),
  ]);
  const sessions = await startServe(root, file, ["--sessions", ...limits], {}, [
    ...flags,
    ...profile(`${tag}-sessions${suffix}`),
  ]);
  return { stateless, sessions };
}

async function sessionMemory(serve: RunningServe, upstream: string): Promise<string> {
  const url = serve.url;
  const warm = await Promise.all(Array.from({ length: 20 }, async () => {
    const s = new HttpSession(url, "none");
    await s.initialize();
    await s.call("echo", { text: "x" });
    return s;
  }));
  void warm;
  await sleep(1000);
  const before = rssBytes(serve.pid);
  const sessions: HttpSession[] = [];
  for (let i = 0; i < SESSIONS_OPEN; i += 8) {
    sessions.push(
      ...await Promise.all(Array.from({ length: 8 }, async () => {
        const s = new HttpSession(url, "none");
        await s.initialize();
        await s.call("echo", { text: "x" });
        return s;
      })),
    );
  }
  await sleep(1000);
  const after = rssBytes(serve.pid);
  return `- serve --sessions (${upstream} upstream), memory per open session: ${
    f((after - before) / sessions.length / 1024, 1)
  } KiB (${sessions.length} sessions, RSS ${f(before / 2 ** 20, 1)} -> ${
    f(after / 2 ** 20, 1)
  } MiB)`;
}

const dir = Deno.makeTempDirSync({ prefix: "gateway_bench_" });
const procs: { stop(): Promise<unknown> }[] = [];
const out: string[] = [
  `## gateway bench: ${CALLS} calls per target, client count and round; ${ROUNDS} rounds; ${
    new Date().toISOString()
  }`,
  "",
];
try {
  if (ONLY === "" || ONLY === "http") {
    const upstream = await startUpstream();
    procs.push(upstream);
    const httpDir = `${dir}/http`;
    Deno.mkdirSync(httpDir);
    const file = manifest(httpDir, `    url: ${upstream.url}`);
    const { stateless, sessions } = await startServes(file, httpDir);
    procs.push(stateless, sessions);
    const targets: Target[] = [
      { name: "direct", url: upstream.url, gateway: () => [], upstream: () => [upstream.pid] },
      serveTarget("serve", stateless, upstream),
      serveTarget("serve --sessions", sessions, upstream),
    ];
    if (BASELINE !== "") {
      const base = await startServes(file, httpDir, BASELINE);
      procs.push(base.stateless, base.sessions);
      targets.push(
        serveTarget("serve @baseline", base.stateless, upstream),
        serveTarget("serve --sessions @baseline", base.sessions, upstream),
      );
    }
    if (FLOOR) {
      for (
        const [mode, name] of [
          ["fetch", "floor: fetch"],
          ["raw", "floor: own client"],
          ["listen", "floor: raw listen"],
        ]
      ) {
        const floor = await startFloor(mode, upstream.url);
        procs.push(floor);
        targets.push({
          name,
          url: floor.url,
          gateway: () => [floor.pid],
          upstream: () => [upstream.pid],
        });
      }
      const nginx = findNginx();
      if (nginx === undefined) console.error("floor: nginx is not installed, its target skipped");
      else {
        const proxy = await startNginx(nginx, upstream.url);
        procs.push(proxy);
        targets.push({
          name: "floor: nginx",
          url: proxy.url,
          gateway: () => [proxy.pid, ...descendantsOf(proxy.pid)],
          upstream: () => [upstream.pid],
        });
      }
    }
    if (PEERS) {
      const port = freePort();
      const peer = await startPeer([
        Deno.execPath(),
        "run",
        "-A",
        "--no-lock", // the peers are not the project's dependencies
        MCP_PROXY,
        "--port",
        String(port),
        "--",
        Deno.execPath(),
        "run",
        "-A",
        "--no-lock",
        SUPERGATEWAY,
        "--streamableHttp",
        upstream.url,
        "--logLevel",
        "none",
      ], port);
      procs.push(peer);
      targets.push({
        name: "mcp-proxy -> supergateway",
        url: peer.url,
        gateway: () => [peer.pid, ...descendantsOf(peer.pid)],
        upstream: () => [upstream.pid],
      });
    }
    out.push(await run("HTTP upstream", targets), "");
    out.push(await sessionMemory(sessions, "HTTP"), "");
  }
  if (ONLY === "" || ONLY === "stdio") {
    const stdioDir = `${dir}/stdio`;
    Deno.mkdirSync(stdioDir);
    const file = manifest(
      stdioDir,
      `    command: ${JSON.stringify(Deno.execPath())}\n    args: [run, -A, --quiet, ${
        JSON.stringify(UPSTREAM)
      }]`,
    );
    const { stateless, sessions } = await startServes(file, stdioDir);
    procs.push(stateless, sessions);
    const targets: Target[] = [
      serveTarget("serve", stateless),
      serveTarget("serve --sessions", sessions),
    ];
    if (BASELINE !== "") {
      const base = await startServes(file, stdioDir, BASELINE);
      procs.push(base.stateless, base.sessions);
      targets.push(
        serveTarget("serve @baseline", base.stateless),
        serveTarget("serve --sessions @baseline", base.sessions),
      );
    }
    if (FLOOR) {
      for (
        const [mode, name] of [
          ["stdio", "floor: stdio serve"],
          ["stdio-listen", "floor: stdio raw listen"],
        ]
      ) {
        const floor = await startFloor(mode, UPSTREAM);
        procs.push(floor);
        targets.push({
          name,
          url: floor.url,
          gateway: () => [floor.pid],
          // The fixture is the forwarder's child.
          upstream: () => descendantsOf(floor.pid),
        });
      }
    }
    if (PEERS) {
      const port = freePort();
      const peer = await startPeer([
        Deno.execPath(),
        "run",
        "-A",
        "--no-lock", // the peers are not the project's dependencies
        MCP_PROXY,
        "--port",
        String(port),
        "--",
        Deno.execPath(),
        "run",
        "-A",
        "--quiet",
        UPSTREAM,
      ], port);
      procs.push(peer);
      targets.push({
        name: "mcp-proxy",
        url: peer.url,
        gateway: () => [peer.pid],
        upstream: () => descendantsOf(peer.pid),
      });
    }
    out.push(await run("stdio upstream", targets), "");
  }
} finally {
  await Promise.allSettled(procs.reverse().map((p) => p.stop()));
  Deno.removeSync(dir, { recursive: true });
}
const retained = await retainedPerSession(SESSIONS_OPEN * 2);
out.push(
  `- an open session, in process (${SESSIONS_OPEN * 2} sessions): ${
    f(retained.heapKiB, 1)
  } KiB of heap retained after GC, resident memory grew ${f(retained.rssKiB, 1)} KiB per session`,
);
console.log(out.join("\n"));
