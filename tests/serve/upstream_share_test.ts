// An upstream's connections are shared between downstream callers: calls of
// one caller that hang upstream hold at most that caller's part of the pool,
// another caller's call to the same server is served at once, the hung calls
// end at their deadline, and their connections (a stdio server each) are
// closed. Also the misbehaving upstream: crashing mid-call, answering garbage.

import assert from "node:assert/strict";
import { mcpBackend, type Tool } from "../../model/mod.ts";
import { Runner } from "../../run/mod.ts";
import type { McpServerConfig } from "../../run/mod.ts";
import { Gateway, mcpUpstream, type Upstream } from "../../serve/mod.ts";
import { ConnectionShares, shareLimits } from "../../serve/_upstream_share.ts";
import { descendants } from "./_upstream_helpers.ts";
import { ROOT } from "./_helpers.ts";

const FIXTURE = `${ROOT}tests/fixtures/serve/hang_upstream.ts`;

function hangServer(tag: string): McpServerConfig {
  return {
    transport: "stdio",
    command: Deno.execPath(),
    args: ["run", "--quiet", "--no-config", FIXTURE, tag],
    protocol: "legacy",
  };
}

/** The fixture servers with `tag` running below this process. */
async function servers(tag: string): Promise<number> {
  return (await descendants(Deno.pid)).filter((d) =>
    d.args.includes("hang_upstream.ts") && d.args.includes(tag)
  ).length;
}

async function eventually(what: string, check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.fail(`never: ${what}`);
}

Deno.test("shares: one caller never takes the reserve; a newcomer is served at once; fewest held goes first", async () => {
  const shares = new ConnectionShares({ max: 6, share: 1, reserve: 1 });
  const order: string[] = [];
  const take = (caller: string, label: string) =>
    shares.acquire(caller, undefined).then(() => void order.push(label));
  const tick = () => new Promise((r) => setTimeout(r, 0));
  // Nobody else waits: caller a takes all but the reserved connection.
  const a = ["a1", "a2", "a3", "a4", "a5", "a6", "a7"].map((label) => take("a", label));
  await tick();
  assert.deepEqual(order, ["a1", "a2", "a3", "a4", "a5"]);
  // b is under its share: it takes the reserved connection at once.
  await take("b", "b1");
  const b2 = take("b", "b2");
  await tick();
  assert.deepEqual(order.slice(5), ["b1"]);
  // Two of a's connections come back: a (4 held) and b (1 held) are both over
  // their share, b holds fewer and goes first although a6 came first; the
  // last free connection is kept for a newcomer.
  shares.release("a");
  shares.release("a");
  await b2;
  await tick();
  assert.deepEqual(order.slice(6), ["b2"]);
  await take("c", "c1");
  // Nobody else waits: a's requests go in the order they came.
  shares.release("b");
  shares.release("c");
  shares.release("b");
  await Promise.all(a);
  assert.deepEqual(order.slice(8), ["a6", "a7"]);
  assert.equal(shares.held("a"), 5);
  assert.equal(shares.waiting, 0);
});

Deno.test("shares: a wait ends when its signal aborts, and the next caller is served", async () => {
  const shares = new ConnectionShares({ max: 1, share: 1, reserve: 0 });
  await shares.acquire("a", undefined);
  const gone = shares.acquire("a", AbortSignal.timeout(50));
  await assert.rejects(gone, (e: Error) => e.name === "TimeoutError");
  assert.equal(shares.waiting, 0);
  const b = shares.acquire("b", undefined);
  shares.release("a");
  await b;
  assert.equal(shares.held("b"), 1);
});

Deno.test("shares: defaults and refused limits", () => {
  assert.deepEqual(shareLimits("up", {}), { max: 16, share: 4, reserve: 4 });
  assert.deepEqual(shareLimits("up", { maxConnections: 4 }), { max: 4, share: 1, reserve: 1 });
  assert.deepEqual(shareLimits("up", { maxConnections: 1 }), { max: 1, share: 1, reserve: 0 });
  assert.throws(
    () => shareLimits("up", { maxConnections: 0 }),
    /maxConnections must be an integer of at least 1; got 0/,
  );
  assert.throws(
    () => shareLimits("up", { maxConnections: 2, reservedConnections: 2 }),
    /reservedConnections \(2\) must be below maxConnections \(2\)/,
  );
});

async function gatewayOver(upstream: Upstream, timeoutMs: number): Promise<Gateway> {
  const { tools } = await upstream.request("tools/list", {}, {}) as { tools: Tool[] };
  const runner = new Runner();
  for (const tool of tools) runner.registry.add(tool, mcpBackend("hang"));
  return await Gateway.create(runner, { upstreams: [upstream], timeoutMs });
}

Deno.test("gateway: calls of one caller hanging upstream do not delay another caller's call to the same server", async () => {
  const tag = `share-${crypto.randomUUID()}`;
  const upstream = mcpUpstream("hang", hangServer(tag), { maxConnections: 4 });
  const gateway = await gatewayOver(upstream, 3000);
  try {
    const started = performance.now();
    const hung = Array.from({ length: 10 }, () => gateway.callTool("hang", {}, { caller: "a" }));
    // a fills what it may of the pool (3 of 4: one is kept for others).
    await eventually("a holds 3 connections", async () => (await servers(tag)) >= 3);
    const before = performance.now();
    const fast = await gateway.callTool("fast", { n: 1 }, { caller: "b" });
    const latency = performance.now() - before;
    assert.notEqual(fast.isError, true, JSON.stringify(fast));
    assert.equal(fast.content[0].text, '{"n":1}');
    console.log(`  b's call while a's hang: ${latency.toFixed(0)} ms`);
    assert.ok(latency < 2000, `b waited ${latency} ms`);
    // a's calls end at their deadline (or waiting for a connection within it).
    const results = await Promise.all(hung);
    const took = performance.now() - started;
    for (const result of results) {
      assert.equal(result.isError, true);
      assert.match(String(result.content[0].text), /tool "hang" timed out after 3000 ms/);
    }
    assert.ok(took < 6000, `a's calls ended after ${took} ms`);
    // Each hung call's connection was closed (its server stopped); at most
    // the idle ones stay.
    await eventually("the hung calls' servers stopped", async () => (await servers(tag)) <= 1);
  } finally {
    await gateway.close();
  }
  assert.equal(await servers(tag), 0);
});

Deno.test("upstream: a request waiting for a connection fails at its timeoutMs, naming the cap", async () => {
  const tag = `share-${crypto.randomUUID()}`;
  const upstream = mcpUpstream("hang", hangServer(tag), { maxConnections: 1 });
  try {
    const hung = upstream.request("tools/call", { name: "hang", arguments: {} }, {
      caller: "a",
      timeoutMs: 1500,
    });
    await eventually("the hung call runs", async () => (await servers(tag)) >= 1);
    const started = performance.now();
    await assert.rejects(
      upstream.request("tools/call", { name: "fast", arguments: {} }, {
        caller: "b",
        timeoutMs: 300,
      }),
      /upstream server "hang": no connection was free within the request's deadline of 300 ms \(1 in use; raise maxConnections\)/,
    );
    assert.ok(performance.now() - started < 1200);
    await assert.rejects(hung, /upstream server "hang"/);
    // The hung call's connection is replaced: the next call is answered.
    const ok = await upstream.request("tools/call", { name: "fast", arguments: {} }, {
      caller: "b",
      timeoutMs: 5000,
    });
    assert.deepEqual((ok.content as { text: string }[])[0].text, "{}");
  } finally {
    await upstream.close();
  }
});

Deno.test("upstream: a server crashing mid-call or answering garbage fails that call; other callers are served", async () => {
  const tag = `share-${crypto.randomUUID()}`;
  const upstream = mcpUpstream("hang", hangServer(tag), { maxConnections: 2 });
  const gateway = await gatewayOver(upstream, 2000);
  try {
    const [crashed, garbage, fast] = await Promise.all([
      gateway.callTool("crash", {}, { caller: "a" }),
      gateway.callTool("garbage", {}, { caller: "a" }),
      gateway.callTool("fast", { x: 1 }, { caller: "b" }),
    ]);
    assert.equal(crashed.isError, true);
    assert.match(
      String(crashed.content[0].text),
      /upstream server "hang" failed: .*(exit|closed)/i,
    );
    assert.equal(garbage.isError, true);
    // A line that is not JSON is counted, a result that is not an object is
    // dropped by the SDK: the call ends at its deadline, its connection closed.
    assert.match(String(garbage.content[0].text), /tool "garbage" timed out after 2000 ms/);
    assert.notEqual(fast.isError, true, JSON.stringify(fast));
    // Both broken connections were replaced.
    const again = await gateway.callTool("fast", { y: 2 }, { caller: "a" });
    assert.equal(again.content[0].text, '{"y":2}');
  } finally {
    await gateway.close();
  }
  assert.equal(await servers(tag), 0);
});
