// The clients of bench/serve_load.ts: a well-behaved one (one session, a fixed
// number of calls one after another, latency of each) and a hostile one
// (hanging calls, JSON-RPC batches under two protocol versions, a flood of
// session initializations), all against `serve --http --sessions`.

import { HttpSession, type Outcome } from "./_mcp_http.ts";

/** What a well-behaved client saw. */
export interface ClientReport {
  /** Latencies (ms) of the successful calls of the fast local tool. */
  local: number[];
  /** Latencies (ms) of the successful calls of the upstream server's fast tool. */
  upstream: number[];
  /** Failed requests by where and kind, e.g. "local: http 429". */
  errors: Map<string, number>;
  /** Calls sent (local, upstream). */
  sent: { local: number; upstream: number };
}

/** How the well-behaved clients call. */
export interface CallPlan {
  /** Calls of the fast local tool per client. */
  calls: number;
  /** Calls of the upstream's fast tool per client, spread among the local ones. */
  upstreamCalls: number;
  /** Client-side deadline of one request, ms. */
  timeoutMs: number;
  /** Pause after each call, ms (an agent thinks between calls; no tight loop). */
  pauseMs: number;
}

function count(map: Map<string, number>, key: string, n = 1): void {
  map.set(key, (map.get(key) ?? 0) + n);
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => {
      clearTimeout(timer);
      resolve();
    }, { once: true });
  });

/**
 * One well-behaved client: opens a session, then calls the fast local tool
 * `plan.calls` times (and the upstream's fast tool `plan.upstreamCalls` times
 * among them), one call at a time. A session the server forgot (404) is
 * counted as an error and opened again, as the protocol tells clients to.
 * `gate.opened` is called once the session is open (or given up), and the
 * calls wait for `gate.start`.
 */
export async function wellBehaved(
  url: string,
  token: string,
  plan: CallPlan,
  signal: AbortSignal,
  gate: { opened(): void; start: Promise<void> } = { opened() {}, start: Promise.resolve() },
): Promise<ClientReport> {
  const report: ClientReport = {
    local: [],
    upstream: [],
    errors: new Map(),
    sent: { local: 0, upstream: 0 },
  };
  const session = new HttpSession(url, token);
  const open = async () => {
    for (let attempt = 0; attempt < 5 && !signal.aborted; attempt++) {
      const init = await session.initialize(
        AbortSignal.any([signal, AbortSignal.timeout(plan.timeoutMs)]),
      );
      if (init.kind === "ok") return true;
      count(report.errors, `initialize: ${init.kind}`);
      await sleep(200, signal);
    }
    return false;
  };
  let opened = await open();
  gate.opened();
  await gate.start;
  const steps: ("local" | "upstream")[] = Array(plan.calls).fill("local");
  for (let k = plan.upstreamCalls; k >= 1; k--) {
    steps.splice(Math.floor(k * plan.calls / (plan.upstreamCalls + 1)), 0, "upstream");
  }
  let i = 0;
  for (const step of steps) {
    if (signal.aborted) break;
    report.sent[step]++;
    if (!opened) {
      count(report.errors, `${step}: no session`);
      continue;
    }
    const outcome: Outcome = step === "local"
      ? await session.call(
        "add",
        { operation: "add", a: i++, b: 1 },
        AbortSignal.any([signal, AbortSignal.timeout(plan.timeoutMs)]),
      )
      : await session.call(
        "ping",
        {},
        AbortSignal.any([signal, AbortSignal.timeout(plan.timeoutMs)]),
      );
    if (outcome.kind === "ok") {
      report[step].push(outcome.ms);
    } else {
      count(report.errors, `${step}: ${outcome.kind}`);
      if (outcome.status === 404) opened = await open();
    }
    await sleep(plan.pauseMs, signal);
  }
  return report;
}

/** How hard the hostile client pushes. */
export interface HostilePlan {
  /** Hanging upstream calls kept in flight at once. */
  hangers: number;
  /** Most session initializations of the flood. */
  flood: number;
  /** Concurrent initializations of the flood. */
  floodConcurrency: number;
  /** Module-tool calls per batch. */
  batch: number;
}

/** What the hostile client got: per kind of request, the outcomes counted. */
export type HostileReport = Map<string, Map<string, number>>;

/**
 * The hostile client, until `signal` aborts: `plan.hangers` loops each
 * keeping one call of the upstream's `hang` tool in flight (a new one as soon
 * as the last ended), a loop sending JSON-RPC batches of module-tool calls
 * (2025-03-26, where batches exist; a batch larger than the default limit;
 * 2025-06-18, which removed them), and a flood of session initializations.
 * Requests cut by the end of the phase are not counted; `report` fills as
 * they end.
 */
export async function hostile(
  url: string,
  token: string,
  plan: HostilePlan,
  signal: AbortSignal,
  report: HostileReport = new Map(),
): Promise<HostileReport> {
  const record = (what: string, outcome: Outcome) => {
    if (outcome.kind === "aborted") return;
    const counts = report.get(what) ?? new Map<string, number>();
    report.set(what, counts);
    count(counts, outcome.kind === "ok" ? `${outcome.status}` : outcome.kind);
  };

  const hanger = async () => {
    const session = new HttpSession(url, token);
    let open = false;
    while (!signal.aborted) {
      if (!open) {
        const init = await session.initialize(signal);
        record("hanging calls: initialize", init);
        open = init.kind === "ok";
        if (!open) await sleep(100, signal);
        continue;
      }
      const outcome = await session.call("hang", {}, signal);
      record("hanging calls (upstream tool that never answers)", outcome);
      if (outcome.status === 404) open = false;
      if (outcome.kind !== "tool error" && outcome.kind !== "ok") await sleep(100, signal);
    }
  };

  const batches = async () => {
    const old = new HttpSession(url, token, "2025-03-26");
    const current = new HttpSession(url, token, "2025-06-18");
    const batchOf = (session: HttpSession, n: number) =>
      Array.from({ length: n }, () => session.request("work", { ms: 200 }));
    while (!signal.aborted) {
      if (old.id === undefined) {
        record("batches: initialize 2025-03-26", await old.initialize(signal));
      }
      if (current.id === undefined) {
        record("batches: initialize 2025-06-18", await current.initialize(signal));
      }
      const small = await old.post(batchOf(old, plan.batch), signal);
      record(`batch of ${plan.batch} module calls, 2025-03-26`, small);
      const large = await old.post(batchOf(old, 60), signal);
      record("batch of 60 module calls, 2025-03-26", large);
      const removed = await current.post(batchOf(current, plan.batch), signal);
      record(`batch of ${plan.batch} module calls, 2025-06-18`, removed);
      for (const [session, outcome] of [[old, small], [old, large], [current, removed]] as const) {
        if (outcome.status === 404) session.id = undefined;
      }
      await sleep(250, signal);
    }
  };

  let flooded = 0;
  const flooder = async () => {
    while (!signal.aborted && flooded < plan.flood) {
      flooded++;
      // Only `initialize`: each one is a session the server keeps.
      const outcome = await new HttpSession(url, token).initialize(signal, false);
      record("session flood: initialize", outcome);
    }
  };

  await Promise.all([
    ...Array.from({ length: plan.hangers }, hanger),
    batches(),
    ...Array.from({ length: plan.floodConcurrency }, flooder),
  ]);
  return report;
}
