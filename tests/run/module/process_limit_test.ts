// The cap of live module-tool processes a Runner shares between its module
// tools: counted by the cap and by the OS (this process's children), idle
// processes retired for others, queued calls that give up, crashes that free
// their slot.
import assert from "node:assert/strict";
import { type ModuleHandler, moduleHandler } from "../../../run/module/module_tool.ts";
import {
  DEFAULT_MAX_MODULE_PROCESSES,
  ModuleProcessLimit,
} from "../../../run/module/process_limit.ts";
import { type RunError, Runner } from "../../../run/mod.ts";
import { childrenOf, sampleChildren } from "../../_children.ts";

const SLOTS = new URL("../../fixtures/module_tools/slots.ts", import.meta.url);
/**
 * The deno these tests' module tools run with, under a name of its own: other
 * test files running in this process start `deno` children too.
 */
const DENO = `${Deno.makeTempDirSync({ prefix: "tf-slots-" })}/deno-slots`;
Deno.symlinkSync(Deno.execPath(), DENO);
const COMM = "deno-slots";

/** A runner capped at `max` with one module tool per export of slots.ts; closes all when done. */
async function withTools<T>(
  max: number,
  exports: string[],
  body: (runner: Runner) => Promise<T>,
): Promise<T> {
  const runner = new Runner({ timeoutMs: 60_000, maxModuleProcesses: max });
  const handlers: ModuleHandler[] = [];
  for (const name of exports) {
    const handler = moduleHandler(SLOTS, {
      export: name,
      deno: DENO,
      onLog: () => {},
      processes: runner.moduleProcesses,
    });
    handlers.push(handler);
    runner.addLocalTool({ name, inputSchema: { type: "object" } }, handler);
  }
  try {
    return await body(runner);
  } finally {
    await Promise.all(handlers.map((h) => h.close()));
    await runner.close();
  }
}

async function failure(promise: Promise<unknown>): Promise<RunError> {
  try {
    await promise;
  } catch (error) {
    return error as RunError;
  }
  assert.fail("expected the run to fail");
}

function alive(pid: number): Promise<boolean> {
  return Deno.stat(`/proc/${pid}`).then(() => true, () => false);
}

/** Waits until `check` holds (polling), failing after `ms`. */
async function until(what: string, check: () => boolean | Promise<boolean>, ms = 10_000) {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) assert.fail(`${what}: not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

Deno.test("six concurrent calls of three module tools under a cap of 2 never run more than 2 processes", async () => {
  await withTools(2, ["a", "b", "c"], async (runner) => {
    const limit = runner.moduleProcesses;
    let mostCounted = 0;
    const counter = setInterval(() => (mostCounted = Math.max(mostCounted, limit.live)), 5);
    const os = sampleChildren(Deno.pid, 10, COMM);
    const calls = ["a", "b", "c", "a", "b", "c"].map((t) => runner.run(t, { ms: 300 }));
    const results = await Promise.all(calls);
    clearInterval(counter);
    const seen = await os.stop();
    assert.deepEqual(results.map((r) => (r.structured as { tool: string }).tool), [
      "a",
      "b",
      "c",
      "a",
      "b",
      "c",
    ]);
    assert.equal(mostCounted, 2, `the cap counted ${mostCounted} live at most`);
    assert.ok(seen.samples > 5, `only ${seen.samples} samples of /proc`);
    assert.ok(seen.most <= 2, `the OS saw ${seen.most} child processes at once (cap 2)`);
    assert.ok(seen.most >= 1, "the OS never saw a module process");
    assert.equal(limit.waiting, 0);
  });
  assert.deepEqual(await childrenOf(Deno.pid, COMM), [], "every module process stopped on close");
});

Deno.test("an idle process of tool A is retired at once so that tool B can run under a full cap", async () => {
  await withTools(1, ["a", "b"], async (runner) => {
    const limit = runner.moduleProcesses;
    const first = (await runner.run("a", {})).structured as { pid: number };
    assert.equal(limit.live, 1);
    assert.equal(limit.idle, 1, "A's process is kept for its next call (keepAliveMs 30 s)");
    const started = Date.now();
    const b = (await runner.run("b", {})).structured as { tool: string; pid: number };
    assert.equal(b.tool, "b");
    assert.ok(Date.now() - started < 20_000, "B did not wait for A's keep-alive to end");
    assert.equal(await alive(first.pid), false, "A's idle process was stopped for B");
    assert.equal(limit.live, 1);
    const again = (await runner.run("a", {})).structured as { pid: number };
    assert.notEqual(again.pid, first.pid, "A starts anew: its old process was retired");
    assert.equal(await alive(b.pid), false, "B's idle process was retired in turn");
  });
});

Deno.test("calls of one tool queued behind the cap take its process as it frees, without a restart", async () => {
  await withTools(1, ["a"], async (runner) => {
    const results = await Promise.all([1, 2, 3].map(() => runner.run("a", { ms: 50 })));
    const pids = new Set(results.map((r) => (r.structured as { pid: number }).pid));
    assert.equal(pids.size, 1, `one process served all three calls, got ${[...pids]}`);
  });
});

Deno.test("a call queued for a process slot times out with the run's timeout error, naming the flag", async () => {
  await withTools(1, ["hangs", "a"], async (runner) => {
    const limit = runner.moduleProcesses;
    const holder = runner.run("hangs", {}, { timeoutMs: 30_000 });
    holder.catch(() => {});
    await until("the hanging call holds the slot", () => limit.live === 1);
    const started = Date.now();
    const error = await failure(runner.run("a", {}, { timeoutMs: 400 }));
    assert.equal(error.code, "timeout");
    assert.equal(error.name, "RunTimeoutError");
    assert.match(
      error.message,
      /^tool "a" timed out after 400 ms: it waited \d+ ms for a module process slot \(all 1 held by module tools\); raise the cap with --max-module-processes N/,
    );
    assert.ok(Date.now() - started < 5000, "it gave up at its deadline");
    assert.equal(limit.waiting, 0, "it left the queue");
    assert.equal((await childrenOf(Deno.pid, COMM)).length, 1, "it never started a process");

    const controller = new AbortController();
    const cancelled = runner.run("a", {}, { signal: controller.signal });
    await until("the call waits", () => limit.waiting === 1);
    controller.abort(new Error("the caller gave up"));
    assert.equal((await failure(cancelled)).code, "cancelled");
    assert.equal(limit.waiting, 0, "the cancelled call left the queue");
    assert.equal(limit.live, 1);
  });
});

Deno.test("a module process that crashes frees its slot for the call waiting behind it", async () => {
  await withTools(1, ["crashesLater", "b"], async (runner) => {
    const limit = runner.moduleProcesses;
    const crash = runner.run("crashesLater", { ms: 300 });
    await until("the crashing tool holds the slot", () => limit.live === 1);
    const waiting = runner.run("b", {});
    await until("b waits", () => limit.waiting === 1);
    const error = await failure(crash);
    assert.equal(error.code, "execution");
    assert.match(error.message, /Deno\.exit\(9\)/);
    const b = (await waiting).structured as { tool: string };
    assert.equal(b.tool, "b");
    assert.equal(limit.live, 1);
  });
});

Deno.test("closing a module handler fails its calls, queued for a slot or running, at once", async () => {
  const limit = new ModuleProcessLimit(1);
  const hangs = moduleHandler(SLOTS, { export: "hangs", onLog: () => {}, processes: limit });
  const a = moduleHandler(SLOTS, { export: "a", onLog: () => {}, processes: limit });
  const runner = new Runner({ timeoutMs: 30_000 });
  runner.addLocalTool({ name: "hangs", inputSchema: { type: "object" } }, hangs);
  runner.addLocalTool({ name: "a", inputSchema: { type: "object" } }, a);
  try {
    const holder = runner.run("hangs", {});
    holder.catch(() => {});
    await until("the slot is held", () => limit.live === 1);
    const queued = runner.run("a", {});
    await until("a waits", () => limit.waiting === 1);
    await a.close();
    const error = await failure(queued);
    assert.equal(error.code, "execution");
    assert.match(error.message, /tool "a" failed: its handler was closed/);
    assert.equal(limit.waiting, 0);
    // Closing the handler of a call in progress fails that call at once too.
    await hangs.close();
    const stopped = await failure(holder);
    assert.equal(stopped.code, "execution");
    assert.match(
      stopped.message,
      /tool "hangs" failed: its handler was closed while the call ran$/,
    );
  } finally {
    await hangs.close();
    await a.close();
    await runner.close();
  }
  await until("the slot frees once the process has exited", () => limit.live === 0);
});

Deno.test("the cap is a whole number from 1 (default 16); anything else is refused", () => {
  assert.equal(DEFAULT_MAX_MODULE_PROCESSES, 16);
  assert.equal(new ModuleProcessLimit().max, 16);
  assert.equal(new Runner().moduleProcesses.max, 16);
  assert.equal(new Runner({ maxModuleProcesses: 3 }).moduleProcesses.max, 3);
  for (const bad of [0, -1, 1.5, NaN, Infinity, 70_000]) {
    assert.throws(
      () => new Runner({ maxModuleProcesses: bad }),
      (e: unknown) =>
        e instanceof RangeError &&
        /live module-tool processes must be a whole number from 1 to 65536, got/.test(e.message),
    );
  }
});

Deno.test("the limit serves waiting calls first come first served and hands an idle slot to its owner", async () => {
  const limit = new ModuleProcessLimit(1);
  const [x, y] = [{}, {}];
  const held = await limit.acquire(x);
  const order: string[] = [];
  const forY = limit.acquire(y).then((s) => (order.push("y"), s));
  const forX = limit.acquire(x).then((s) => (order.push("x"), s));
  // The head of the queue is y's: x's idle slot is not handed to x (behind y) but retired.
  assert.equal(held.handOver(), false);
  let retired = false;
  held.idle(() => (retired = true));
  assert.equal(retired, true, "the idle slot was retired for y");
  held.release();
  const ys = await forY;
  assert.deepEqual(order, ["y"]);
  // Now x heads the queue: y's slot is x's only after y's process exits.
  ys.release();
  const xs = await forX;
  assert.deepEqual(order, ["y", "x"]);
  const third = limit.acquire(x);
  assert.equal(xs.handOver(), true, "x's idle slot goes to x's waiting call as it is");
  assert.equal(await third, xs);
  xs.release();
  assert.equal(limit.live, 0);
  assert.equal(limit.waiting, 0);
});
