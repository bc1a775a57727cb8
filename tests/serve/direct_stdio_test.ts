// The direct path of a `tools/call` to a 2025-era stdio upstream
// (serve/_fast_stdio.ts) gives what the SDK's client gives, and a stdio
// server's process carries calls side by side: each call gets its own answer
// and progress, a crash fails every call on the process and names the server,
// a call given up on retires its process without failing the others.

import assert from "node:assert/strict";
import type { McpServerConfig } from "../../run/mod.ts";
import { StdioTransport } from "../../run/mcp/_stdio.ts";
import { mcpUpstream, type Upstream, type UpstreamNotification } from "../../serve/mod.ts";
import { useStdioDirect } from "../../serve/_fast_stdio.ts";
import type { McpUpstream as Pool } from "../../serve/_mcp_upstream_pool.ts";
import type { McpUpstreamOptions } from "../../serve/_mcp_upstream_options.ts";
import { ROOT } from "./_helpers.ts";
import { descendants, SERVE_UPSTREAM, SERVE_UPSTREAM_CASES } from "./_upstream_helpers.ts";

const RAW = "tests/fixtures/serve/raw_stdio_upstream.ts";

/** The raw fixture over stdio, marked by `tag` for `ps`. */
function raw(tag: string, extra: Partial<McpServerConfig> = {}): McpServerConfig {
  return {
    transport: "stdio",
    command: Deno.execPath(),
    args: ["run", "--no-config", "--quiet", RAW, tag],
    cwd: ROOT,
    protocol: "legacy",
    ...extra,
  } as McpServerConfig;
}

/** The raw fixture's processes of `tag` below this one. */
async function processes(tag: string): Promise<number> {
  return (await descendants(Deno.pid)).filter((d) => d.args.includes(RAW) && d.args.includes(tag))
    .length;
}

async function eventually(what: string, check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.fail(`never: ${what}`);
}

/** Counts the tool calls written by the direct path (its request IDs are "tf-N"). */
function spyOnDirectCalls(): { count(): number; restore(): void } {
  const original = StdioTransport.prototype.send;
  let calls = 0;
  StdioTransport.prototype.send = function (message) {
    const m = message as { id?: unknown; method?: unknown };
    if (m.method === "tools/call" && typeof m.id === "string" && m.id.startsWith("tf-")) calls++;
    return original.call(this, message);
  };
  return { count: () => calls, restore: () => void (StdioTransport.prototype.send = original) };
}

interface Seen {
  result?: Record<string, unknown>;
  error?: string;
  progress: unknown[];
  notifications: UpstreamNotification[];
}

async function callOn(
  upstream: Upstream,
  name: string,
  args: Record<string, unknown>,
  extra: {
    signal?: AbortSignal;
    timeoutMs?: number;
    capabilities?: Record<string, unknown>;
    caller?: string;
  } = {},
): Promise<Seen> {
  const seen: Seen = { progress: [], notifications: [] };
  try {
    seen.result = await upstream.request("tools/call", { name, arguments: args }, {
      caller: extra.caller ?? "test",
      clientCapabilities: extra.capabilities ?? {},
      onProgress: (p) => seen.progress.push(p),
      onNotification: (n) => void seen.notifications.push(n),
      ...(extra.signal === undefined ? {} : { signal: extra.signal }),
      ...(extra.timeoutMs === undefined ? {} : { timeoutMs: extra.timeoutMs }),
    });
  } catch (error) {
    const e = error as { code?: unknown; message?: string };
    // The server's stderr tail and exit differ between two processes: the code and the first line.
    seen.error = `${String(e.code)} ${String(e.message).split("\n")[0]}`;
  }
  return seen;
}

const SDK_CASES = SERVE_UPSTREAM_CASES;

const RAW_CASES: [string, Record<string, unknown>][] = [
  ["echo", { text: "hi" }],
  ["split", {}],
  ["merged", {}],
  ["garbage", {}],
  ["noise", {}],
  ["other_id", {}],
  ["fail", {}],
  ["huge", { n: 3_000_000 }],
  ["no_such_tool", {}],
];

/** Calls every case on two upstreams of one server, the SDK's way and the direct way. */
async function compare(
  config: McpServerConfig,
  cases: readonly [string, Record<string, unknown>][],
): Promise<void> {
  const direct = mcpUpstream("up", config);
  const sdk = mcpUpstream("up", config);
  const spy = spyOnDirectCalls();
  try {
    for (const [name, args] of cases) {
      useStdioDirect(false);
      const b = await callOn(sdk, name, args);
      useStdioDirect(true);
      const a = await callOn(direct, name, args);
      assert.deepEqual(a, b, name);
    }
    assert.equal(spy.count(), cases.length, "not every call took the direct path");
  } finally {
    useStdioDirect(true);
    spy.restore();
    await direct.close();
    await sdk.close();
  }
}

Deno.test("a tools/call to a stdio upstream goes the direct way and gives what the SDK's client gives", async () => {
  await compare(SERVE_UPSTREAM, SDK_CASES);
});

Deno.test("the direct stdio path reads split and merged lines, garbage, stderr noise, foreign IDs and huge lines as the SDK's client does", async () => {
  await compare(raw(`cmp-${crypto.randomUUID()}`), RAW_CASES);
});

Deno.test("calls side by side share one stdio process, each with its own answer and progress", async () => {
  const tag = `share-${crypto.randomUUID()}`;
  const upstream = mcpUpstream("raw", raw(tag));
  const sdk = mcpUpstream("sdk", SERVE_UPSTREAM);
  try {
    const counts: number[] = [];
    for (const clients of [1, 8, 32]) {
      const answers = await Promise.all(
        Array.from(
          { length: clients },
          (_, i) => callOn(upstream, "echo", { text: `call ${i}`, ms: (i * 37) % 200 }),
        ),
      );
      answers.forEach((seen, i) =>
        assert.deepEqual(seen.result, {
          content: [{
            type: "text",
            text: JSON.stringify({ text: `call ${i}`, ms: (i * 37) % 200 }),
          }],
        })
      );
      counts.push(await processes(tag));
    }
    console.log(`  processes under 1/8/32 calls side by side: ${counts.join("/")}`);
    // 16 calls per process at most by default: 32 calls side by side need 2.
    assert.deepEqual(counts, [1, 1, 2]);
    // Progress reaches the call it belongs to, and only it.
    const alone = await callOn(sdk, "test_tool_with_progress", {});
    const together = await Promise.all(
      Array.from({ length: 4 }, () => callOn(sdk, "test_tool_with_progress", {})),
    );
    for (const seen of together) assert.deepEqual(seen.progress, alone.progress);
    assert.ok(alone.progress.length > 0);
  } finally {
    await upstream.close();
    await sdk.close();
  }
  assert.equal(await processes(tag), 0);
});

Deno.test("a stdio server crashing with calls side by side fails each of them, naming the server; the next call starts it again", async () => {
  const tag = `crash-${crypto.randomUUID()}`;
  const upstream = mcpUpstream("raw", raw(tag));
  try {
    await callOn(upstream, "echo", {});
    const hung = Array.from({ length: 3 }, () => callOn(upstream, "hang", {}));
    await new Promise((r) => setTimeout(r, 200));
    const crashed = await callOn(upstream, "crash", {});
    for (const seen of [crashed, ...await Promise.all(hung)]) {
      assert.match(String(seen.error), /upstream_unavailable upstream server "raw" failed: .*exit/);
    }
    const again = await callOn(upstream, "echo", { text: "again" });
    assert.deepEqual(again.result?.content, [{ type: "text", text: '{"text":"again"}' }]);
    await eventually("one process runs", async () => (await processes(tag)) === 1);
  } finally {
    await upstream.close();
  }
});

Deno.test("a call timing out on a shared stdio process does not fail the others; the process is replaced once they end", async () => {
  const tag = `retire-${crypto.randomUUID()}`;
  const upstream = mcpUpstream("raw", raw(tag));
  try {
    // The process runs first: the deadline below is the call's, not its start's.
    await callOn(upstream, "echo", {});
    const hang = callOn(upstream, "hang", {}, { timeoutMs: 300 });
    const slow = callOn(upstream, "echo", { text: "slow", ms: 1000 });
    assert.match(String((await hang).error), /upstream server "raw" failed: .*Request timed out/);
    assert.equal(await processes(tag), 1, "the other call's process still runs");
    // A new call does not join the process that was given up on.
    const next = callOn(upstream, "echo", { text: "next" });
    assert.deepEqual((await slow).result?.content, [
      { type: "text", text: '{"text":"slow","ms":1000}' },
    ]);
    assert.deepEqual((await next).result?.content, [{ type: "text", text: '{"text":"next"}' }]);
    await eventually("the retired process stopped", async () => (await processes(tag)) === 1);
  } finally {
    await upstream.close();
  }
  assert.equal(await processes(tag), 0);
});

Deno.test("a client that offers sampling gets a stdio process of its own; maxRequestsPerConnection 1 gives each call one", async () => {
  for (
    const [options, capabilities, expected] of [
      [{}, { sampling: {} }, 2],
      [{ maxRequestsPerConnection: 1, callerShare: 4, reservedConnections: 0 }, undefined, 4],
    ] as [McpUpstreamOptions, Record<string, unknown> | undefined, number][]
  ) {
    const tag = `own-${crypto.randomUUID()}`;
    const upstream = mcpUpstream("raw", raw(tag), options);
    try {
      const shared = Array.from(
        { length: 3 },
        (_, i) => callOn(upstream, "echo", { text: `${i}`, ms: 600 }),
      );
      const own = callOn(upstream, "echo", { text: "own", ms: 600 }, { capabilities });
      await eventually(
        `${expected} processes run`,
        async () => (await processes(tag)) === expected,
      );
      for (const seen of await Promise.all([...shared, own])) assert.equal(seen.error, undefined);
    } finally {
      await upstream.close();
    }
  }
});

Deno.test("a line over the cap on a shared stdio process fails the call, and the next call is served", async () => {
  const tag = `cap-${crypto.randomUUID()}`;
  const upstream = mcpUpstream("raw", raw(tag, { maxOutputBytes: 100_000 }));
  try {
    const over = await callOn(upstream, "huge", { n: 200_000 });
    assert.match(
      String(over.error),
      /upstream server "raw" failed: output is larger than 100000 bytes/,
    );
    const next = await callOn(upstream, "echo", { text: "after" });
    assert.deepEqual(next.result?.content, [{ type: "text", text: '{"text":"after"}' }]);
  } finally {
    await upstream.close();
  }
});

Deno.test("a log line of a stdio server reaches the call alone on its process, the oldest call when one principal's share it, and none (counted) when several principals' do", async () => {
  const tag = `log-${crypto.randomUUID()}`;
  const dropped: number[] = [];
  const upstream = mcpUpstream("raw", raw(tag), { onLogDropped: (n) => void dropped.push(n) });
  const LOG = { method: "notifications/message", params: { level: "info", data: "merged log" } };
  try {
    const alone = await callOn(upstream, "merged", {});
    assert.deepEqual(alone.notifications, [LOG]);
    // One principal's calls share the process: the line goes to it once (its oldest call).
    const hung = callOn(upstream, "hang", {}, { timeoutMs: 1500 });
    await new Promise((r) => setTimeout(r, 200));
    const same = await callOn(upstream, "merged", {});
    assert.deepEqual(same.result?.content, [{ type: "text", text: "merged answer" }]);
    assert.deepEqual(same.notifications, []);
    assert.equal(await processes(tag), 1, "both calls went to one process");
    assert.deepEqual((await hung).notifications, [LOG]);
    assert.deepEqual(dropped, []);
    // Another principal's call shares it: the line could be either's, it goes to neither.
    const theirs = callOn(upstream, "hang", {}, { timeoutMs: 1500, caller: "someone else" });
    await new Promise((r) => setTimeout(r, 200));
    const mine = await callOn(upstream, "merged", {});
    assert.deepEqual(mine.result?.content, [{ type: "text", text: "merged answer" }]);
    assert.deepEqual(mine.notifications, []);
    assert.deepEqual((await theirs).notifications, []);
    assert.deepEqual(dropped, [1]);
  } finally {
    await upstream.close();
  }
});

/** Two processes of two calls each, all four for one caller. */
const TWO_BY_TWO: McpUpstreamOptions = {
  maxConnections: 2,
  maxRequestsPerConnection: 2,
  callerShare: 2,
  reservedConnections: 0,
};

Deno.test("a client that offers sampling is served while a stream of shared calls keeps every process busy", async () => {
  const tag = `drain-${crypto.randomUUID()}`;
  const upstream = mcpUpstream("raw", raw(tag), TWO_BY_TWO);
  let streaming = true;
  const failures: string[] = [];
  // Eight loops of overlapping calls: neither process is ever without one.
  const stream = Array.from({ length: 8 }, async (_, i) => {
    await new Promise((r) => setTimeout(r, i * 25));
    while (streaming) {
      const seen = await callOn(upstream, "echo", { text: `${i}`, ms: 200 });
      if (seen.error !== undefined) failures.push(seen.error);
    }
  });
  try {
    await eventually("two processes run", async () => (await processes(tag)) === 2);
    const started = performance.now();
    const own = await callOn(upstream, "echo", { text: "own" }, {
      capabilities: { sampling: {} },
      timeoutMs: 10_000,
    });
    const waited = performance.now() - started;
    assert.equal(own.error, undefined, `waited ${Math.round(waited)} ms`);
    assert.deepEqual(own.result?.content, [{ type: "text", text: '{"text":"own"}' }]);
  } finally {
    streaming = false;
    await Promise.all(stream);
    await upstream.close();
  }
  assert.deepEqual(failures, [], "the shared calls went on");
});

Deno.test("a client that offers sampling waiting behind shared calls that hang ends at its deadline or cancellation; the process drained for it takes shared calls again", async () => {
  const tag = `drain-hang-${crypto.randomUUID()}`;
  const upstream = mcpUpstream("raw", raw(tag), TWO_BY_TWO);
  try {
    // Three calls that never answer: two on one process, one on the other.
    const hung = [0, 1, 2].map(() => callOn(upstream, "hang", {}, { timeoutMs: 4000 }));
    await eventually("two processes run", async () => (await processes(tag)) === 2);
    const started = performance.now();
    const late = await callOn(upstream, "echo", {}, {
      capabilities: { sampling: {} },
      timeoutMs: 400,
    });
    assert.match(
      String(late.error),
      /upstream_unavailable upstream server "raw": no connection was free within the request's deadline of 400 ms \(all 2 in use; raise maxConnections\)/,
    );
    assert.ok(performance.now() - started < 3000, "it ended at its deadline");
    // The process drained for it takes shared calls again.
    const shared = await callOn(upstream, "echo", { text: "shared" }, { timeoutMs: 1000 });
    assert.deepEqual(shared.result?.content, [{ type: "text", text: '{"text":"shared"}' }]);
    const cancel = new AbortController();
    const cancelled = callOn(upstream, "echo", {}, {
      capabilities: { sampling: {} },
      signal: cancel.signal,
    });
    await new Promise((r) => setTimeout(r, 100));
    cancel.abort(new Error("the client cancelled"));
    assert.match(String((await cancelled).error), /the client cancelled/);
    const again = await callOn(upstream, "echo", { text: "again" }, { timeoutMs: 1000 });
    assert.deepEqual(again.result?.content, [{ type: "text", text: '{"text":"again"}' }]);
    // Once the hung calls end at their deadline, their processes are replaced.
    for (const seen of await Promise.all(hung)) assert.match(String(seen.error), /timed out/);
    const after = await callOn(upstream, "echo", { text: "after" }, {
      capabilities: { sampling: {} },
      timeoutMs: 5000,
    });
    assert.deepEqual(after.result?.content, [{ type: "text", text: '{"text":"after"}' }]);
  } finally {
    await upstream.close();
  }
});

Deno.test("a request whose deadline passes while its stdio process starts fails naming the server and the phase", async () => {
  const tag = `opening-${crypto.randomUUID()}`;
  const upstream = mcpUpstream("raw", raw(tag));
  try {
    const early = await callOn(upstream, "echo", {}, { timeoutMs: 1 });
    assert.equal(
      early.error,
      `upstream_unavailable upstream server "raw": the request's deadline of 1 ms passed while its connection opened`,
    );
    // The process goes on starting for the next calls.
    const next = await callOn(upstream, "echo", { text: "next" }, { timeoutMs: 10_000 });
    assert.deepEqual(next.result?.content, [{ type: "text", text: '{"text":"next"}' }]);
  } finally {
    await upstream.close();
  }
});

/** The pool's drain bookkeeping: no request waits for a connection of its own, none is drained. */
function assertNoDrain(upstream: Upstream, when: string): void {
  assert.deepEqual((upstream as Pool).drains, { waiting: 0, drained: 0 }, when);
}

Deno.test("a client that offers sampling leaves no process drained however its wait for one ends: deadline, cancellation, the pool closed, a process freed", async () => {
  const tag = `drain-exits-${crypto.randomUUID()}`;
  // Three calls that never answer (two on one process, one on the other) until their deadline.
  const hang = (upstream: Upstream, ms: number) =>
    [0, 1, 2].map(() => callOn(upstream, "hang", {}, { timeoutMs: ms }));
  const waitsDrained = async (upstream: Upstream) =>
    await eventually(
      "a process is drained for it",
      () => Promise.resolve((upstream as Pool).drains.drained === 1),
    );
  let upstream = mcpUpstream("raw", raw(tag), TWO_BY_TWO);
  try {
    const hung = hang(upstream, 8000);
    await eventually("two processes run", async () => (await processes(tag)) === 2);
    // Its deadline passes.
    const late = callOn(upstream, "echo", {}, { capabilities: { sampling: {} }, timeoutMs: 600 });
    await waitsDrained(upstream);
    assert.match(String((await late).error), /no connection was free within/);
    assertNoDrain(upstream, "after its deadline");
    // Its client cancels it.
    const cancel = new AbortController();
    const cancelled = callOn(upstream, "echo", {}, {
      capabilities: { sampling: {} },
      signal: cancel.signal,
    });
    await waitsDrained(upstream);
    cancel.abort(new Error("the client cancelled"));
    assert.match(String((await cancelled).error), /the client cancelled/);
    assertNoDrain(upstream, "after its cancellation");
    // The pool closes.
    const closed = callOn(upstream, "echo", {}, { capabilities: { sampling: {} } });
    await waitsDrained(upstream);
    await upstream.close();
    assert.match(String((await closed).error), /was closed/);
    assertNoDrain(upstream, "after close()");
    await Promise.all(hung);
  } finally {
    await upstream.close();
  }
  // A process is freed (the hung calls reach their deadline): it gets one of its own.
  upstream = mcpUpstream("raw", raw(tag), TWO_BY_TWO);
  try {
    const hung = hang(upstream, 1500);
    await eventually("two processes run", async () => (await processes(tag)) === 2);
    const own = callOn(upstream, "echo", { text: "own" }, {
      capabilities: { sampling: {} },
      timeoutMs: 10_000,
    });
    await waitsDrained(upstream);
    assert.deepEqual((await own).result?.content, [{ type: "text", text: '{"text":"own"}' }]);
    assertNoDrain(upstream, "after it was served");
    await Promise.all(hung);
  } finally {
    await upstream.close();
  }
});

Deno.test("a process is drained for a client that offers sampling only among those shared calls use, the least busy first, whatever other processes run", async () => {
  const tag = `drain-keys-${crypto.randomUUID()}`;
  const upstream = mcpUpstream("raw", raw(tag), {
    maxConnections: 3,
    maxRequestsPerConnection: 2,
    callerShare: 3,
    reservedConnections: 0,
  });
  try {
    // A process of a client offering roots first, then two shared ones carrying two calls and one.
    const hung = [
      callOn(upstream, "hang", {}, { capabilities: { roots: {} }, timeoutMs: 1500 }),
    ];
    await eventually("one process runs", async () => (await processes(tag)) === 1);
    hung.push(...[0, 1, 2].map(() => callOn(upstream, "hang", {}, { timeoutMs: 4000 })));
    await eventually("three processes run", async () => (await processes(tag)) === 3);
    const own = callOn(upstream, "echo", { text: "own" }, {
      capabilities: { sampling: {} },
      timeoutMs: 10_000,
    });
    await eventually(
      "a process is drained for it",
      () => Promise.resolve((upstream as Pool).drains.drained === 1),
    );
    // The shared process carrying one call is the one drained: a shared call finds none to
    // join (the other carries its most), where it would join that one had the roots client's
    // process or the busier shared one been drained.
    const shared = await callOn(upstream, "echo", { text: "shared" }, { timeoutMs: 500 });
    assert.match(String(shared.error), /no connection was free within/);
    // The roots client's call ends at its deadline: its process makes room for this one.
    assert.deepEqual((await own).result?.content, [{ type: "text", text: '{"text":"own"}' }]);
    assertNoDrain(upstream, "after it was served");
    await Promise.all(hung);
  } finally {
    await upstream.close();
  }
});

Deno.test("calls after a burst that opened a second stdio process are packed onto one of them, not spread over both", async () => {
  const tag = `pack-${crypto.randomUUID()}`;
  const upstream = mcpUpstream("raw", raw(tag), TWO_BY_TWO);
  const original = StdioTransport.prototype.send;
  const pids: (number | undefined)[] = [];
  StdioTransport.prototype.send = function (message) {
    if ((message as { method?: unknown }).method === "tools/call") pids.push(this.pid);
    return original.call(this, message);
  };
  try {
    // Three at once: the first process carries two, a second one opens for the third.
    const burst = await Promise.all(
      Array.from({ length: 3 }, (_, i) => callOn(upstream, "echo", { text: `${i}`, ms: 300 })),
    );
    for (const seen of burst) assert.equal(seen.error, undefined);
    assert.equal(await processes(tag), 2);
    assert.equal(new Set(pids).size, 2);
    // Both idle now: two calls at once fit on one process, and both go there.
    pids.length = 0;
    const after = await Promise.all(
      Array.from({ length: 2 }, (_, i) => callOn(upstream, "echo", { text: `${i}`, ms: 300 })),
    );
    for (const seen of after) assert.equal(seen.error, undefined);
    assert.equal(pids.length, 2);
    assert.equal(new Set(pids).size, 1, `calls went to processes ${pids.join(", ")}`);
  } finally {
    StdioTransport.prototype.send = original;
    await upstream.close();
  }
});
