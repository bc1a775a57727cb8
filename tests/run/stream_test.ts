import assert from "node:assert/strict";
import { Runner, type StreamEvent } from "../../run/mod.ts";
import { serializeError } from "../../run/stream.ts";

function streamingRunner() {
  const runner = new Runner();
  const stopped: unknown[] = [];
  runner.addLocalTool({ name: "count", inputSchema: { type: "object" } }, async function* (a, ctx) {
    const n = (a.n as number | undefined) ?? 3;
    for (let i = 1; i <= n; i++) {
      ctx.progress({ progress: i, total: n });
      yield i;
    }
    return { total: n };
  });
  runner.addLocalTool(
    { name: "forever", inputSchema: { type: "object" } },
    async function* (_a, ctx) {
      ctx.signal.addEventListener("abort", () => stopped.push(ctx.signal.reason));
      for (let i = 0;; i++) {
        yield i;
        await new Promise((r) => setTimeout(r, 5));
      }
    },
  );
  runner.addLocalTool({ name: "fail", inputSchema: { type: "object" } }, () => {
    throw new Error("bad");
  });
  return { runner, stopped };
}

async function collect(events: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
  const out: StreamEvent[] = [];
  for await (const event of events) out.push(event);
  return out;
}

Deno.test("runStream of a local generator emits progress and chunks in order, then exactly one done", async () => {
  const { runner } = streamingRunner();
  const events = await collect(runner.runStream("count", { n: 2 }));
  assert.deepEqual(events.map((e) => e.kind), ["progress", "chunk", "progress", "chunk", "done"]);
  assert.deepEqual(events[0], {
    kind: "progress",
    toolId: "count",
    data: { progress: 1, total: 2 },
  });
  assert.deepEqual(events[1].data, 1);
  const done = events.at(-1)!;
  assert.equal(done.kind, "done");
  if (done.kind === "done") assert.deepEqual(done.data.structured, { total: 2 });
});

Deno.test("runStream of a failing run ends with one serializable error event", async () => {
  const { runner } = streamingRunner();
  for (const id of ["fail", "missing"]) {
    const events = await collect(runner.runStream(id, {}));
    const last = events.at(-1)!;
    assert.equal(events.filter((e) => e.kind === "done" || e.kind === "error").length, 1);
    assert.equal(last.kind, "error");
    if (last.kind !== "error") continue;
    const wire = JSON.parse(JSON.stringify(last.data));
    assert.equal(wire.code, last.error.code);
    assert.equal(wire.toolId, id);
  }
});

Deno.test("runStream with an invalid input reports input_validation failures as data", async () => {
  const runner = new Runner();
  runner.addLocalTool({
    name: "t",
    inputSchema: { type: "object", required: ["q"] },
  }, () => 1);
  const events = await collect(runner.runStream("t", {}));
  assert.equal(events.length, 1);
  const [event] = events;
  assert.equal(event.kind, "error");
  if (event.kind === "error") {
    assert.equal(event.data.code, "input_validation");
    assert.equal((event.data.failures as { keyword: string }[])[0].keyword, "required");
  }
});

Deno.test("runStream cancels the run when the consumer breaks out of the loop", async () => {
  const { runner, stopped } = streamingRunner();
  let seen = 0;
  for await (const event of runner.runStream("forever", {})) {
    if (event.kind === "chunk" && ++seen === 3) break;
  }
  assert.equal(stopped.length, 1);
  assert.equal((stopped[0] as { code?: string }).code, "cancelled");
  await runner.close();
});

Deno.test("runStream ends with a cancelled error when the caller's signal aborts", async () => {
  const { runner } = streamingRunner();
  const controller = new AbortController();
  const events: StreamEvent[] = [];
  for await (const event of runner.runStream("forever", {}, { signal: controller.signal })) {
    events.push(event);
    if (events.length === 2) controller.abort();
  }
  const last = events.at(-1)!;
  assert.equal(last.kind, "error");
  if (last.kind === "error") assert.equal(last.data.code, "cancelled");
  await runner.close();
});

Deno.test("runStream ends with a timeout error when the deadline passes", async () => {
  const { runner } = streamingRunner();
  const events = await collect(runner.runStream("forever", {}, { timeoutMs: 30 }));
  const last = events.at(-1)!;
  assert.equal(last.kind, "error");
  if (last.kind === "error") assert.equal(last.data.code, "timeout");
  assert.ok(events.some((e) => e.kind === "chunk"));
  await runner.close();
});

Deno.test("serializeError keeps code, facts and the cause chain as plain data", () => {
  const inner = new TypeError("inner");
  const data = serializeError(Object.assign(new Error("outer", { cause: inner }), { extra: 1n }));
  assert.equal(data.message, "outer");
  assert.equal(data.extra, "1");
  assert.deepEqual(data.cause, { name: "TypeError", message: "inner" });
  assert.deepEqual(serializeError("text"), { name: "Error", message: "text" });
});
