// Running one response's calls: concurrency limit, call order, isolation of failures,
// the approval hook, cancellation, timeouts, clean failure texts and the retry budget.
import assert from "node:assert/strict";
import {
  answerToolCalls,
  type ApprovalRequest,
  readToolCalls,
  RetryBudget,
  RetryBudgetExhaustedError,
  runToolCalls,
  type ToolCall,
  toolStep,
  ToolStepCancelledError,
} from "../../loop/mod.ts";
import { Runner } from "../../run/mod.ts";
import { ADD, DELETE, scenarioRunner, scenarioTools } from "./_scenario.ts";

function anthropicCalls(...calls: Array<[string, unknown]>): ToolCall[] {
  return readToolCalls("anthropic", {
    content: calls.map(([name, input], i) => ({ type: "tool_use", id: `t${i}`, name, input })),
  }, scenarioTools("anthropic"));
}

Deno.test("at most `concurrency` calls run at once, and outcomes keep call order when they finish in reverse", async () => {
  const runner = new Runner();
  let running = 0;
  let peak = 0;
  const finished: number[] = [];
  runner.addLocalTool({ name: "wait", inputSchema: { type: "object" } }, async (args) => {
    running++;
    peak = Math.max(peak, running);
    // Later calls finish first: each waits for the ones after it in its batch.
    await new Promise((r) => setTimeout(r, (6 - (args.n as number)) * 15));
    running--;
    finished.push(args.n as number);
    return args.n;
  });
  const calls = readToolCalls("anthropic", {
    content: [0, 1, 2, 3, 4, 5].map((n) => ({
      type: "tool_use",
      id: `t${n}`,
      name: "wait",
      input: { n },
    })),
  });
  const outcomes = await runToolCalls(runner, calls, { concurrency: 2 });
  assert.equal(peak, 2);
  assert.notDeepEqual(finished, [0, 1, 2, 3, 4, 5]);
  assert.deepEqual(outcomes.map((o) => o.result?.structured), [0, 1, 2, 3, 4, 5]);
  assert.deepEqual(outcomes.map((o) => o.call.id), ["t0", "t1", "t2", "t3", "t4", "t5"]);
  await runner.close();
});

Deno.test("one call that throws, crashes or hangs past its deadline never discards the others", async () => {
  const runner = new Runner();
  runner.addLocalTool({ name: "ok", inputSchema: { type: "object" } }, () => "fine");
  runner.addLocalTool({ name: "boom", inputSchema: { type: "object" } }, () => {
    const error = new Error("disk on fire");
    error.stack = "Error: disk on fire\n    at secret (/home/me/app.ts:1:1)";
    throw error;
  });
  runner.addLocalTool(
    { name: "hang", inputSchema: { type: "object" } },
    (_a, ctx) =>
      new Promise((_, reject) =>
        ctx.signal.addEventListener("abort", () => reject(ctx.signal.reason))
      ),
  );
  const calls = readToolCalls("openai", {
    choices: [{
      message: {
        role: "assistant",
        tool_calls: ["ok", "boom", "hang", "ok"].map((name, i) => ({
          id: `c${i}`,
          type: "function",
          function: { name, arguments: "{}" },
        })),
      },
    }],
  });
  const outcomes = await runToolCalls(runner, calls, { timeoutMs: 50 });
  assert.deepEqual(outcomes.map((o) => o.status), ["ok", "failed", "failed", "ok"]);
  assert.equal(outcomes[1].failure?.code, "execution");
  assert.equal(outcomes[1].failure?.message, "the tool failed: disk on fire");
  assert.equal(outcomes[2].failure?.code, "timeout");
  assert.equal(
    outcomes[2].failure?.message,
    "the tool did not finish within 50 ms and was stopped",
  );
  const text = JSON.stringify(answerToolCalls("openai", outcomes).messages);
  assert.doesNotMatch(text, /app\.ts|\bat secret\b/);
  await runner.close();
});

Deno.test("failure texts for the model are scrubbed by `redact` and carry no stack trace", async () => {
  const runner = new Runner();
  runner.addLocalTool({ name: "leak", inputSchema: { type: "object" } }, () => {
    throw new Error("login failed for token sk-SECRET-123\n    at handler (file:///x.ts:3:9)");
  });
  const calls = readToolCalls("gemini", { parts: [{ functionCall: { name: "leak", args: {} } }] });
  const [outcome] = await runToolCalls(runner, calls, {
    redact: (t) => t.replaceAll("sk-SECRET-123", "[redacted]"),
  });
  assert.equal(outcome.failure?.message, "the tool failed: login failed for token [redacted]");
  await runner.close();
});

Deno.test("the approval hook sees the tool, its annotations and frozen arguments; a denial tells the model why", async () => {
  const runner = scenarioRunner();
  const seen: ApprovalRequest[] = [];
  const calls = anthropicCalls(["math__add", { a: 1, b: 2 }], ["files__delete", { path: "/etc" }]);
  const outcomes = await runToolCalls(runner, calls, {
    approve: (request) => {
      seen.push(request);
      assert.throws(() => {
        (request.arguments as Record<string, unknown>).path = "/tmp";
      }, TypeError);
      return request.annotations?.destructiveHint === true
        ? { allow: false, reason: "deleting is not allowed in this session" }
        : true;
    },
  });
  assert.deepEqual(seen.map((r) => [r.toolId, r.tool.name, r.arguments]), [
    ["math:add", "add", { a: 1, b: 2 }],
    ["files:delete", "delete", { path: "/etc" }],
  ]);
  assert.deepEqual(seen[1].annotations, DELETE.annotations);
  assert.deepEqual(outcomes.map((o) => o.status), ["ok", "denied"]);
  const { messages } = answerToolCalls("anthropic", outcomes);
  assert.deepEqual((messages[0] as { content: unknown[] }).content[1], {
    type: "tool_result",
    tool_use_id: "t1",
    content:
      '{"error":"denied","message":"the call was not run: it was denied (deleting is not allowed in this session)"}',
    is_error: true,
  });
  await runner.close();
});

Deno.test("the approval hook is not asked for invalid arguments or unknown tools; a hook that throws denies", async () => {
  const runner = scenarioRunner();
  let asked = 0;
  const calls = anthropicCalls(["math__add", { a: "x" }], ["nope", {}], ["math__add", {
    a: 1,
    b: 1,
  }]);
  const outcomes = await runToolCalls(runner, calls, {
    approve: () => {
      asked++;
      throw new Error("approval service down");
    },
  });
  assert.equal(asked, 1);
  assert.deepEqual(outcomes.map((o) => o.failure?.code), [
    "invalid_arguments",
    "unknown_tool",
    "denied",
  ]);
  assert.match(outcomes[2].failure!.message, /the approval check failed/);
  assert.ok(outcomes[2].failure!.cause instanceof Error);
  await runner.close();
});

Deno.test("a tool that is registered but not offered in the request is an unknown tool", async () => {
  const runner = scenarioRunner();
  const prepared = scenarioTools("openai");
  const outcomes = await runToolCalls(
    runner,
    readToolCalls("openai", {
      choices: [{
        message: {
          role: "assistant",
          tool_calls: [{
            id: "c",
            type: "function",
            function: { name: "files__delete", arguments: '{"path":"/"}' },
          }],
        },
      }],
    }, prepared),
    { offered: ["math:add"], names: prepared.names },
  );
  assert.equal(outcomes[0].failure?.code, "unknown_tool");
  assert.deepEqual(outcomes[0].failure?.available, ["math__add"]);
  await runner.close();
});

Deno.test("aborting the signal cancels running calls and rejects with the outcomes that finished", async () => {
  const runner = new Runner();
  runner.addLocalTool({ name: "quick", inputSchema: { type: "object" } }, () => 1);
  runner.addLocalTool(
    { name: "slow", inputSchema: { type: "object" } },
    (_a, ctx) =>
      new Promise((_, reject) =>
        ctx.signal.addEventListener("abort", () => reject(ctx.signal.reason))
      ),
  );
  const controller = new AbortController();
  const calls = readToolCalls("anthropic", {
    content: ["quick", "slow", "slow"].map((name, i) => ({
      type: "tool_use",
      id: `t${i}`,
      name,
      input: {},
    })),
  });
  const pending = runToolCalls(runner, calls, { signal: controller.signal, concurrency: 2 });
  setTimeout(() => controller.abort(new Error("user pressed stop")), 30);
  const error = await pending.catch((e) => e);
  assert.ok(error instanceof ToolStepCancelledError, String(error));
  assert.equal(error.code, "cancelled");
  assert.deepEqual(error.outcomes.map((o) => o.call.id), ["t0"]);
  assert.equal((error.cause as Error).message, "user pressed stop");
  await assert.rejects(
    runToolCalls(runner, calls, { signal: AbortSignal.abort() }),
    ToolStepCancelledError,
  );
  await runner.close();
});

Deno.test("the retry budget: the Nth failure in a row is final and visible to the caller; later calls do not run", async () => {
  const runner = scenarioRunner();
  const prepared = scenarioTools("openai");
  const budget = new RetryBudget({ maxFailures: 2 });
  const bad = (id: string) => ({
    choices: [{
      message: {
        role: "assistant",
        tool_calls: [{
          id,
          type: "function",
          function: { name: "math__add", arguments: '{"a":"x"}' },
        }],
      },
    }],
  });
  const first = await toolStep(runner, bad("c1"), {
    format: "openai",
    prepared,
    retryBudget: budget,
  });
  assert.deepEqual(first.exhausted, []);
  assert.equal(first.outcomes[0].failure?.final, undefined);
  const second = await toolStep(runner, bad("c2"), {
    format: "openai",
    prepared,
    retryBudget: budget,
  });
  assert.equal(second.exhausted.length, 1);
  assert.ok(second.exhausted[0] instanceof RetryBudgetExhaustedError);
  assert.equal(second.exhausted[0].code, "retry_budget_exhausted");
  assert.equal(second.exhausted[0].toolId, "math:add");
  assert.equal(second.exhausted[0].attempts, 2);
  const answer = JSON.parse((second.messages[0] as { content: string }).content);
  assert.equal(answer.final, true);
  assert.match(answer.message, /retry budget of this tool is used up; do not call it again/);
  // A third call, even a valid one, is not run.
  let ran = false;
  runner.addLocalTool(ADD, () => (ran = true));
  const third = await toolStep(runner, {
    choices: [{
      message: {
        role: "assistant",
        tool_calls: [{
          id: "c3",
          type: "function",
          function: { name: "math__add", arguments: '{"a":1,"b":1}' },
        }],
      },
    }],
  }, { format: "openai", prepared, retryBudget: budget });
  assert.equal(ran, false);
  assert.equal(third.outcomes[0].failure?.code, "retry_budget_exhausted");
  await runner.close();
});

Deno.test("the retry budget: a success resets the count, and counting follows call order, not finishing order", async () => {
  const runner = new Runner();
  runner.addLocalTool({ name: "flaky", inputSchema: { type: "object" } }, async (args) => {
    await new Promise((r) => setTimeout(r, args.ok ? 40 : 1));
    if (!args.ok) throw new Error("nope");
    return "ok";
  });
  const budget = new RetryBudget({ maxFailures: 2 });
  // fail, ok (finishes last), fail: the success between resets the count, so nothing is final.
  const calls = readToolCalls("anthropic", {
    content: [false, true, false].map((ok, i) => ({
      type: "tool_use",
      id: `t${i}`,
      name: "flaky",
      input: { ok },
    })),
  });
  const outcomes = await runToolCalls(runner, calls, { retryBudget: budget });
  assert.deepEqual(outcomes.map((o) => o.failure?.final), [undefined, undefined, undefined]);
  assert.equal(budget.failures("flaky"), 1);
  await runner.close();
});

Deno.test("a call with invalid JSON or non-object arguments is answered without running", async () => {
  const runner = scenarioRunner();
  const calls = readToolCalls("openai", {
    choices: [{
      message: {
        role: "assistant",
        tool_calls: [
          { id: "c0", type: "function", function: { name: "math__add", arguments: '{"a":1,' } },
          { id: "c1", type: "function", function: { name: "math__add", arguments: "[1,2]" } },
        ],
      },
    }],
  }, scenarioTools("openai"));
  const outcomes = await runToolCalls(runner, calls);
  assert.deepEqual(outcomes.map((o) => o.failure?.code), ["invalid_json", "invalid_arguments"]);
  assert.match(
    outcomes[0].failure!.message,
    /^the arguments are not valid JSON \(.+\); send one JSON object; the call was not run$/,
  );
  assert.equal(
    outcomes[1].failure!.message,
    "the arguments must be a JSON object, got an array; the call was not run",
  );
  await runner.close();
});
