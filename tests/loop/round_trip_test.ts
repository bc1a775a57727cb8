// Round trips: definitions converted → the fixture response read → calls run → the answer
// checked against the documented shapes (and against the fixture's result).
import assert from "node:assert/strict";
import { LOOP_FORMATS, type LoopFormat, readToolCalls, toolStep } from "../../loop/mod.ts";
import { fixtureJson, scenarioRunner, scenarioTools } from "./_scenario.ts";

const IDS: Record<LoopFormat, string[]> = {
  openai: ["call_add_ok", "call_add_bad", "call_unknown", "call_read"],
  "openai-responses": ["call_add_ok", "call_add_bad", "call_unknown", "call_read"],
  anthropic: ["toolu_add_ok", "toolu_add_bad", "toolu_unknown", "toolu_read"],
  gemini: ["fc_add_ok", "fc_add_bad", "fc_unknown", "fc_read"],
};

/** The provider names of the converted definitions, read from each format's own field. */
function definitionNames(format: LoopFormat, definitions: unknown[]): string[] {
  return definitions.map((d) => {
    const t = d as Record<string, unknown>;
    if (format === "openai") return (t.function as { name: string }).name;
    return t.name as string;
  });
}

for (const format of LOOP_FORMATS) {
  Deno.test(`${format}: converted definitions, the fixture response read, run and answered as documented`, async () => {
    const prepared = scenarioTools(format);
    const sep = format === "gemini" ? ":" : "__";
    assert.deepEqual(definitionNames(format, prepared.definitions), [
      `math${sep}add`,
      `files${sep}read`,
      `files${sep}delete`,
    ]);
    const { response } = await fixtureJson(format, "response.json");
    const calls = readToolCalls(format, response, prepared);
    assert.deepEqual(calls.map((c) => c.id), IDS[format]);
    assert.deepEqual(calls.map((c) => c.toolId), ["math:add", "math:add", undefined, "files:read"]);
    assert.deepEqual(calls.map((c) => c.problem?.code), [
      undefined,
      undefined,
      "unknown_tool",
      undefined,
    ]);

    const runner = scenarioRunner();
    try {
      const step = await toolStep(runner, response, { format, prepared });
      assert.deepEqual(step.outcomes.map((o) => o.status), ["ok", "failed", "failed", "failed"]);
      assert.deepEqual(step.outcomes.map((o) => o.failure?.code), [
        undefined,
        "invalid_arguments",
        "unknown_tool",
        "tool_error",
      ]);
      checkShape(format, step.messages, IDS[format]);
      const { messages } = await fixtureJson(format, "result.json");
      assert.deepEqual(step.messages, messages);
    } finally {
      await runner.close();
    }
  });
}

/** What each provider's reference says the answer looks like, checked field by field. */
function checkShape(format: LoopFormat, messages: unknown[], ids: string[]): void {
  const failed = [false, true, true, true];
  switch (format) {
    case "openai": {
      assert.equal(messages.length, 4);
      messages.forEach((m, i) => {
        assert.deepEqual(Object.keys(m as object).sort(), ["content", "role", "tool_call_id"]);
        const msg = m as { role: string; tool_call_id: string; content: unknown };
        assert.equal(msg.role, "tool");
        assert.equal(msg.tool_call_id, ids[i]);
        assert.equal(typeof msg.content, "string");
        assert.equal("error" in JSON.parse(msg.content as string), failed[i]);
      });
      return;
    }
    case "openai-responses": {
      assert.equal(messages.length, 4);
      messages.forEach((m, i) => {
        const item = m as { type: string; call_id: string; output: unknown };
        assert.deepEqual(Object.keys(item).sort(), ["call_id", "output", "type"]);
        assert.equal(item.type, "function_call_output");
        assert.equal(item.call_id, ids[i]);
        assert.equal(typeof item.output, "string");
      });
      return;
    }
    case "anthropic": {
      assert.equal(messages.length, 1);
      const message = messages[0] as { role: string; content: Array<Record<string, unknown>> };
      assert.equal(message.role, "user");
      assert.deepEqual(message.content.map((b) => b.type), Array(4).fill("tool_result"));
      assert.deepEqual(message.content.map((b) => b.tool_use_id), ids);
      assert.deepEqual(message.content.map((b) => b.is_error === true), failed);
      return;
    }
    case "gemini": {
      assert.equal(messages.length, 1);
      const content = messages[0] as {
        role: string;
        parts: Array<{ functionResponse: Record<string, unknown> }>;
      };
      assert.equal(content.role, "user");
      assert.deepEqual(content.parts.map((p) => p.functionResponse.id), ids);
      assert.deepEqual(content.parts.map((p) => p.functionResponse.name), [
        "math:add",
        "math:add",
        "math:multiply",
        "files:read",
      ]);
      for (const [i, p] of content.parts.entries()) {
        const response = p.functionResponse.response as Record<string, unknown>;
        assert.deepEqual(Object.keys(response), [failed[i] ? "error" : "output"]);
      }
      return;
    }
  }
}

Deno.test("gemini: a call without an id is answered without an id", async () => {
  const runner = scenarioRunner();
  try {
    const step = await toolStep(runner, {
      candidates: [{
        content: {
          role: "model",
          parts: [{ functionCall: { name: "math:add", args: { a: 1, b: 1 } } }],
        },
      }],
    }, { format: "gemini", prepared: scenarioTools("gemini") });
    assert.deepEqual(step.messages, [{
      role: "user",
      parts: [{ functionResponse: { name: "math:add", response: { output: { sum: 2 } } } }],
    }]);
  } finally {
    await runner.close();
  }
});

Deno.test("a response without tool calls gives no calls and nothing to answer", async () => {
  const runner = scenarioRunner();
  try {
    for (
      const [format, response] of [
        ["openai", {
          choices: [{ message: { role: "assistant", content: "done" }, finish_reason: "stop" }],
        }],
        ["openai-responses", { output: [{ type: "message", role: "assistant", content: [] }] }],
        ["anthropic", { role: "assistant", content: [{ type: "text", text: "done" }] }],
        ["gemini", { candidates: [{ content: { role: "model", parts: [{ text: "done" }] } }] }],
      ] as const
    ) {
      const step = await toolStep(runner, response, { format, prepared: scenarioTools(format) });
      assert.deepEqual([step.calls, step.messages], [[], []], format);
    }
  } finally {
    await runner.close();
  }
});
