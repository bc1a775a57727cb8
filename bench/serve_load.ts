// Many clients, one of them hostile: `serve --http --sessions` started through
// the CLI as users run it (loopback, a free port, 50 static bearer tokens, one
// per client), in front of a fast built-in tool, a module tool and an upstream
// stdio MCP server with a tool that never answers (bench/_hang_server.ts).
//
// Phases against the same serve process: 49 well-behaved clients open a
// session each, then make a fixed number of calls, one at a time (warm-up,
// baseline); the same again while the 50th client is hostile (hanging
// upstream calls, JSON-RPC batches under 2025-03-26 and 2025-06-18, a flood
// of session initializations; it starts once their sessions are open, and
// their calls start once the flood passed 1,000 initializations or after 5 s);
// the same again once it stopped (after). Prints the well-behaved clients' p50/p99
// latency and errors per phase, the ratio hostile / baseline, what the
// hostile client got, and serve's resident memory and child processes.
//
//   deno task bench:load [--calls=20] [--upstream-calls=2] [--pause-ms=50] [--hangers=24] [--flood=1500]
//     [--batch=16] [--deadline-ms=10000] [--budget-ms=110000] [-- <extra serve arguments>]
//
// Everything after `--` is appended to serve's arguments (e.g.
// `-- --max-concurrent 64`), so that flags can be compared in the same way.
// Bounded: the phases stop at the time budget, and serve and every process it
// started are stopped at the end (the bench says if one had to be killed).
// Linux only (serve's memory and processes are read from /proc).

import { hostile, type HostileReport, wellBehaved } from "./_load_clients.ts";
import { sampleTree, stillAlive } from "./_proc.ts";
import { formatReport, type PhaseResult } from "./_load_report.ts";
import { startServe } from "./_load_serve.ts";

const ROOT = new URL("../", import.meta.url).pathname;
const CLIENTS = 50;

const dash = Deno.args.indexOf("--");
const own = dash < 0 ? Deno.args : Deno.args.slice(0, dash);
const extraServeArgs = dash < 0 ? [] : Deno.args.slice(dash + 1);
const option = (name: string, fallback: number): number => {
  const given = own.find((a) => a.startsWith(`--${name}=`));
  if (given === undefined) return fallback;
  const value = Number(given.slice(name.length + 3));
  if (!Number.isInteger(value) || value < 0) {
    throw new Error(`--${name} must be a whole number >= 0, got ${given}`);
  }
  return value;
};
const unknown = own.filter((a) =>
  !/^--(calls|upstream-calls|pause-ms|hangers|flood|batch|deadline-ms|budget-ms)=/.test(a)
);
if (unknown.length > 0) {
  throw new Error(
    `unknown argument ${unknown[0]}; serve's own flags go after "--" (see bench/serve_load.ts)`,
  );
}

const plan = {
  calls: option("calls", 20),
  upstreamCalls: option("upstream-calls", 2),
  timeoutMs: 15_000,
  pauseMs: option("pause-ms", 50),
};
const hostilePlan = {
  hangers: option("hangers", 24),
  flood: option("flood", 1500),
  floodConcurrency: 8,
  batch: option("batch", 16),
};
const deadlineMs = option("deadline-ms", 10_000);
// A timer of our own rather than AbortSignal.timeout, whose timer (once
// signals derive from it) keeps the process alive after the report.
const budgetController = new AbortController();
const budget = budgetController.signal;
const budgetTimer = setTimeout(
  () => budgetController.abort(new DOMException("the time budget ran out", "TimeoutError")),
  option("budget-ms", 110_000),
);

const tokens = Array.from({ length: CLIENTS }, () => {
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
});

function manifest(dir: string): string {
  Deno.writeTextFileSync(
    `${dir}/work.ts`,
    `export default async (args: { ms?: number }) => {
  await new Promise((resolve) => setTimeout(resolve, args.ms ?? 0));
  return { ok: true };
};
`,
  );
  const path = `${dir}/tools.yaml`;
  Deno.writeTextFileSync(
    path,
    `version: 1
servers:
  slow:
    command: ${JSON.stringify(Deno.execPath())}
    args: [run, --quiet, ${JSON.stringify(`${ROOT}bench/_hang_server.ts`)}]
    protocol: legacy # its tools (ping, hang) are served as they are
tools:
  - { name: add, builtin: calculate }
  - name: work
    module: work.ts
    inputSchema:
      type: object
      properties: { ms: { type: integer, minimum: 0, maximum: 5000 } }
`,
  );
  return path;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const dir = Deno.makeTempDirSync({ prefix: "serve_load_" });
const serveArgs = [
  "--sessions",
  // The deadline of every call: serve does not apply a server's own timeoutMs
  // to the tools it forwards, and the default (60 s) would outlast the run.
  "--timeout",
  String(deadlineMs),
  ...tokens.flatMap((_, i) => ["--token-env", `T${i + 1}`]),
  ...extraServeArgs,
];
const serve = await startServe(
  ROOT,
  manifest(dir),
  serveArgs,
  Object.fromEntries(tokens.map((t, i) => [`T${i + 1}`, t])),
).catch((error) => {
  Deno.removeSync(dir, { recursive: true });
  clearTimeout(budgetTimer);
  throw error;
});
const startedAt = await sampleTree(serve.pid);
/** Every process serve started, with its start time. */
const seen = new Map<number, number>(startedAt.pids);
let current: { rssPeak: number; childrenPeak: number } | undefined;
let sampling = true;
const sampler = (async () => {
  while (sampling) {
    const sample = await sampleTree(serve.pid);
    for (const [pid, started] of sample.pids) seen.set(pid, started);
    if (current !== undefined) {
      current.rssPeak = Math.max(current.rssPeak, sample.rss);
      current.childrenPeak = Math.max(current.childrenPeak, sample.children);
    }
    await sleep(250);
  }
})();

async function phase(name: string, withHostile: boolean): Promise<PhaseResult> {
  const before = await sampleTree(serve.pid);
  current = { rssPeak: before.rss, childrenPeak: before.children };
  const started = performance.now();
  // The well-behaved clients open their sessions first, then the hostile
  // client starts, then their calls.
  const open = Promise.withResolvers<void>();
  const start = Promise.withResolvers<void>();
  let opened = 0;
  const gate = {
    opened: () => ++opened === CLIENTS - 1 && open.resolve(),
    start: start.promise,
  };
  const runs = Promise.all(
    tokens.slice(1).map((token) => wellBehaved(serve.url, token, plan, budget, gate)),
  );
  await open.promise;
  const stopHostile = new AbortController();
  const got: HostileReport = new Map();
  const hostileRun: Promise<HostileReport> | undefined = withHostile
    ? hostile(serve.url, tokens[0], hostilePlan, AbortSignal.any([stopHostile.signal, budget]), got)
    : undefined;
  if (withHostile) {
    // The hanging calls in place, and the flood past serve's default session
    // cap (1,000), or 5 s.
    const floodGoal = Math.min(hostilePlan.flood, 1000);
    const flooded = () =>
      [...(got.get("session flood: initialize")?.values() ?? [])].reduce((a, b) => a + b, 0);
    const until = Date.now() + 5000;
    while (Date.now() < until && flooded() < floodGoal && !budget.aborted) await sleep(100);
    await sleep(500);
  }
  start.resolve();
  const reports = await runs;
  stopHostile.abort();
  const hostileReport = await hostileRun;
  const after = await sampleTree(serve.pid);
  const peaks = current;
  current = undefined;
  return {
    name,
    seconds: (performance.now() - started) / 1000,
    reports,
    hostile: hostileReport,
    rssPeak: Math.max(peaks.rssPeak, after.rss),
    rssEnd: after.rss,
    childrenPeak: Math.max(peaks.childrenPeak, after.children),
    childrenEnd: after.children,
    cut: budget.aborted,
  };
}

let phases: PhaseResult[] = [];
let idle = startedAt;
try {
  phases = [
    await phase("warm-up", false),
    await phase("baseline", false),
    await phase("hostile", true),
    await phase("after", false),
  ];
  await sleep(2000);
  idle = await sampleTree(serve.pid);
} finally {
  clearTimeout(budgetTimer);
  sampling = false;
  await sampler;
  const stopped = await serve.stop();
  // Anything serve started that outlived it is a stray: say so, then end it.
  await sleep(500);
  const strays = await stillAlive(seen);
  for (const pid of strays) {
    try {
      Deno.kill(pid, "SIGKILL");
    } catch { /* ended meanwhile */ }
  }
  Deno.removeSync(dir, { recursive: true });
  console.log(formatReport({
    clients: CLIENTS,
    plan,
    hostilePlan,
    deadlineMs,
    extraServeArgs,
    phases,
    start: startedAt,
    idle,
    exit: stopped,
    strays: strays.length,
    serveLog: serve.log(),
  }));
}
