import assert from "node:assert/strict";
import { type ChainStreamEvent, Runner } from "../../run/mod.ts";

function chainRunner() {
  const runner = new Runner();
  const any = { type: "object" as const };
  const seen: Record<string, unknown>[] = [];
  runner.addLocalTool({ name: "start", inputSchema: any }, (args) => {
    seen.push(args);
    return { value: (args.value as number | undefined) ?? 1 };
  });
  runner.addLocalTool({ name: "double", inputSchema: any }, (args) => {
    seen.push(args);
    return { value: (args.previous as { value: number }).value * 2 };
  });
  runner.addLocalTool({ name: "fail", inputSchema: any }, () => {
    throw new Error("step broke");
  });
  runner.addLocalTool({ name: "slow", inputSchema: any }, async function* (_a, ctx) {
    ctx.progress(1);
    yield "tick";
    await new Promise((r) => setTimeout(r, 200));
    return "late";
  });
  return { runner, seen };
}

Deno.test("runChain with usePrevious feeds each step the previous structured result", async () => {
  const { runner } = chainRunner();
  const chain = await runner.runChain([
    { toolId: "start", args: { value: 3 } },
    { toolId: "double", usePrevious: true },
    { toolId: "double", usePrevious: true },
  ]);
  assert.equal(chain.ok, true);
  assert.deepEqual(chain.structured, { value: 12 });
  assert.equal(chain.steps.length, 3);
  assert.deepEqual(chain.steps[1].args, { previous: { value: 3 } });
  assert.equal(chain.failed, undefined);
});

Deno.test("runChain never mutates the caller's args and overwrites an existing previous on a copy", async () => {
  const { runner, seen } = chainRunner();
  const args = { previous: { value: 100 }, keep: true };
  const chain = await runner.runChain([
    { toolId: "start" },
    { toolId: "double", args, usePrevious: true },
  ]);
  assert.deepEqual(args, { previous: { value: 100 }, keep: true });
  assert.deepEqual(seen[1], { previous: { value: 1 }, keep: true });
  assert.deepEqual(chain.structured, { value: 2 });
});

Deno.test("runChain stops at the first failure and returns every step so far with the failing index", async () => {
  const { runner, seen } = chainRunner();
  const chain = await runner.runChain([
    { toolId: "start" },
    { toolId: "fail", usePrevious: true },
    { toolId: "double", usePrevious: true },
  ]);
  assert.equal(chain.ok, false);
  assert.equal(chain.steps.length, 2);
  assert.equal(chain.failed?.index, 1);
  assert.equal(chain.failed?.error?.code, "execution");
  assert.equal(chain.failed?.error?.toolId, "fail");
  assert.deepEqual(chain.steps[0].result?.structured, { value: 1 });
  assert.deepEqual(chain.structured, { value: 1 });
  assert.equal(seen.length, 1, "the step after the failure never ran");
  assert.deepEqual(chain.notRun, [{ index: 2, toolId: "double" }]);
});

Deno.test("runChain reports no steps not run when it succeeds, and every later step when the first fails", async () => {
  const { runner } = chainRunner();
  const ok = await runner.runChain([{ toolId: "start" }, { toolId: "double", usePrevious: true }]);
  assert.deepEqual(ok.notRun, []);
  const failed = await runner.runChain([
    { toolId: "fail" },
    { toolId: "start" },
    { toolId: "double", usePrevious: true },
  ]);
  assert.equal(failed.failed?.index, 0);
  assert.equal(failed.failed?.toolId, "fail");
  assert.match(String(failed.failed?.error?.message), /step broke/);
  assert.deepEqual(failed.steps.length, 1);
  assert.deepEqual(failed.notRun, [{ index: 1, toolId: "start" }, { index: 2, toolId: "double" }]);
});

Deno.test("runChain applies per-step deadlines, a step's own overriding the chain's", async () => {
  const { runner } = chainRunner();
  const chain = await runner.runChain([
    { toolId: "slow", timeoutMs: 1000 },
    { toolId: "slow" },
  ], { timeoutMs: 20 });
  assert.equal(chain.steps[0].result?.structured, "late");
  assert.equal(chain.failed?.index, 1);
  assert.equal(chain.failed?.error?.code, "timeout");
  await runner.close();
});

Deno.test("runChain with an unknown tool fails that step with tool_not_found", async () => {
  const { runner } = chainRunner();
  const chain = await runner.runChain([{ toolId: "nope" }]);
  assert.equal(chain.failed?.error?.code, "tool_not_found");
});

Deno.test("runChainStream emits step started and finished events around each step's events", async () => {
  const { runner } = chainRunner();
  const events: ChainStreamEvent[] = [];
  for await (const e of runner.runChainStream([{ toolId: "start" }, { toolId: "slow" }])) {
    events.push(e);
  }
  assert.deepEqual(
    events.map((e) => `${e.kind}@${e.index}`),
    [
      "step_started@0",
      "step_finished@0",
      "step_started@1",
      "progress@1",
      "chunk@1",
      "step_finished@1",
      "done@1",
    ],
  );
  const done = events.at(-1)!;
  if (done.kind === "done") assert.equal(done.data.structured, "late");
});

Deno.test("runChainStream ends with one error event carrying the chain so far", async () => {
  const { runner } = chainRunner();
  const events: ChainStreamEvent[] = [];
  for await (const e of runner.runChainStream([{ toolId: "start" }, { toolId: "fail" }])) {
    events.push(e);
  }
  const last = events.at(-1)!;
  assert.equal(last.kind, "error");
  if (last.kind === "error") {
    assert.equal(last.index, 1);
    assert.equal(last.data.code, "execution");
    assert.equal(last.chain.steps.length, 2);
    assert.deepEqual(last.chain.notRun, []);
  }
  assert.equal(events.filter((e) => e.kind === "done" || e.kind === "error").length, 1);
});

Deno.test("runChainStream cancels the running step when the consumer breaks out", async () => {
  const { runner } = chainRunner();
  for await (const e of runner.runChainStream([{ toolId: "slow" }, { toolId: "start" }])) {
    if (e.kind === "chunk") break;
  }
  await runner.close();
});
