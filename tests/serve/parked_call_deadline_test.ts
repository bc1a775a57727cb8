// A 2026-07-28 client's call of a 2025-era upstream runs as a parked call
// (serve/_parked_calls.ts): its deadline is one timer, cleared when the call
// ends, that aborts the upstream's call with a TimeoutError, tells a
// deadline from the client's cancel, and leaves nothing pending.

import assert from "node:assert/strict";
import { ParkedCalls, stepParked } from "../../serve/_parked_calls.ts";
import type { RequestStateSeal } from "../../serve/_request_state.ts";
import type { Upstream, UpstreamCallContext } from "../../serve/upstream.ts";

/** An upstream whose `tools/call` does what `answer` does with the call's context. */
function upstream(
  answer: (context: UpstreamCallContext) => Promise<Record<string, unknown>>,
): Upstream {
  return {
    name: "up",
    capabilities: () => Promise.resolve({ tools: {} }),
    close: () => Promise.resolve(),
    request: (_method, _params, context) => answer(context as UpstreamCallContext),
  } as Upstream;
}

function step(up: Upstream, timeoutMs: number, signal?: AbortSignal) {
  return stepParked({
    calls: new ParkedCalls(8),
    seal: undefined as unknown as RequestStateSeal,
    upstream: up,
    params: { name: "t", arguments: {} },
    opened: undefined,
    binding: "caller tools/call t",
    context: { caller: "c", ...(signal === undefined ? {} : { signal }) },
    timeoutMs,
    maxRounds: 4,
  });
}

Deno.test("a parked call answered at once stops its deadline: the call's signal never fires after", async () => {
  const result = { content: [{ type: "text", text: "ok" }] };
  let seen: AbortSignal | undefined;
  const outcome = await step(
    upstream((context) => {
      seen = context.signal;
      return Promise.resolve(result);
    }),
    30,
  );
  assert.deepEqual(outcome, { kind: "done", result });
  await new Promise((resolve) => setTimeout(resolve, 90));
  assert.equal(seen?.aborted, false, "the deadline of an ended call fired");
});

Deno.test("a parked call past its deadline is aborted with a TimeoutError and reported as timed out", async () => {
  let reason: unknown;
  const outcome = await step(
    upstream((context) =>
      new Promise((_, reject) => {
        context.signal!.addEventListener("abort", () => {
          reason = context.signal!.reason;
          reject(reason);
        });
      })
    ),
    20,
  );
  assert.equal(outcome.kind, "failed");
  assert.equal(outcome.kind === "failed" && outcome.timedOut, true);
  assert.equal((reason as DOMException).name, "TimeoutError");
  await new Promise((resolve) => setTimeout(resolve, 0));
});

Deno.test("a parked call the client cancels is aborted with the client's reason, not as timed out", async () => {
  const client = new AbortController();
  let reason: unknown;
  const pending = step(
    upstream((context) =>
      new Promise((_, reject) => {
        context.signal!.addEventListener("abort", () => {
          reason = context.signal!.reason;
          reject(reason);
        });
      })
    ),
    60_000,
    client.signal,
  );
  const why = new Error("client went away");
  setTimeout(() => client.abort(why), 10);
  const outcome = await pending;
  assert.equal(outcome.kind, "failed");
  assert.equal(outcome.kind === "failed" && outcome.timedOut, false);
  assert.equal(reason, why);
  await new Promise((resolve) => setTimeout(resolve, 0));
});
