/**
 * A full agent loop against a scripted fake model, for each provider format
 * (OpenAI Chat Completions, OpenAI Responses, Anthropic Messages, Gemini): no
 * network, no API key, no permissions.
 *
 *     deno run examples/agent_loop.ts            # all four formats
 *     deno run examples/agent_loop.ts anthropic  # one
 *
 * The fake model asks for two tools at once (one call with a wrong argument),
 * reads the answer, repairs the call, and then answers in text. The loop is
 * the same for every format: prepare the tools, send, `toolStep`, append, repeat.
 *
 * @module
 */

import { LOOP_FORMATS, type LoopFormat, prepareTools, RetryBudget, toolStep } from "../loop/mod.ts";
import type { Tool } from "../model/mod.ts";
import { Runner } from "../run/mod.ts";

const WEATHER: Tool = {
  name: "get",
  namespace: "weather",
  description: "Current temperature in a city.",
  inputSchema: {
    type: "object",
    properties: { city: { type: "string" } },
    required: ["city"],
    additionalProperties: false,
  },
  annotations: { readOnlyHint: true },
};

const ADD: Tool = {
  name: "add",
  namespace: "math",
  description: "Adds two numbers.",
  inputSchema: {
    type: "object",
    properties: { a: { type: "number" }, b: { type: "number" } },
    required: ["a", "b"],
    additionalProperties: false,
  },
  annotations: { readOnlyHint: true },
};

/** One scripted call: provider name, ID, arguments. */
type Call = { name: string; id: string; args: Record<string, unknown> };

/** A model response of `format` carrying `calls`, or else the final `text`. */
function modelResponse(format: LoopFormat, calls: Call[], text = ""): Record<string, unknown> {
  switch (format) {
    case "openai":
      return {
        choices: [{
          index: 0,
          message: calls.length === 0 ? { role: "assistant", content: text } : {
            role: "assistant",
            content: null,
            tool_calls: calls.map((c) => ({
              id: c.id,
              type: "function",
              function: { name: c.name, arguments: JSON.stringify(c.args) },
            })),
          },
          finish_reason: calls.length === 0 ? "stop" : "tool_calls",
        }],
      };
    case "openai-responses":
      return {
        output: calls.length === 0
          ? [{ type: "message", role: "assistant", content: [{ type: "output_text", text }] }]
          : calls.map((c) => ({
            type: "function_call",
            id: `fc_${c.id}`,
            call_id: c.id,
            name: c.name,
            arguments: JSON.stringify(c.args),
          })),
      };
    case "anthropic":
      return {
        role: "assistant",
        content: calls.length === 0
          ? [{ type: "text", text }]
          : calls.map((c) => ({ type: "tool_use", id: c.id, name: c.name, input: c.args })),
        stop_reason: calls.length === 0 ? "end_turn" : "tool_use",
      };
    case "gemini":
      return {
        candidates: [{
          content: {
            role: "model",
            parts: calls.length === 0
              ? [{ text }]
              : calls.map((c) => ({ functionCall: { id: c.id, name: c.name, args: c.args } })),
          },
          finishReason: "STOP",
        }],
      };
  }
}

/** The assistant turn to append to the conversation, in the format's own shape. */
function assistantTurn(format: LoopFormat, response: Record<string, unknown>): unknown[] {
  switch (format) {
    case "openai":
      return [(response.choices as Array<{ message: unknown }>)[0].message];
    case "openai-responses":
      return response.output as unknown[];
    case "anthropic":
      return [{ role: "assistant", content: response.content }];
    case "gemini":
      return [(response.candidates as Array<{ content: unknown }>)[0].content];
  }
}

/**
 * The scripted model: turn 1 calls both tools (with `a` as a string by
 * mistake); turn 2 reads the error about `/a` in the conversation and
 * repairs the call; turn 3 answers.
 */
function fakeModel(format: LoopFormat, conversation: unknown[], turn: number) {
  const names = prepareTools([WEATHER, ADD], format).names;
  const weather = names.toProvider("weather:get");
  const add = names.toProvider("math:add");
  if (turn === 0) {
    return modelResponse(format, [
      { name: weather, id: "call_1", args: { city: "Paris" } },
      { name: add, id: "call_2", args: { a: "2", b: 3 } },
    ]);
  }
  if (turn === 1) {
    // What the model sees: the answer to call_2 says which argument to fix.
    const seen = JSON.stringify(conversation.at(-1));
    if (!seen.includes("invalid_arguments") || !seen.includes("/a")) {
      throw new Error(`the model expected to be told to fix /a, got ${seen}`);
    }
    return modelResponse(format, [{ name: add, id: "call_3", args: { a: 2, b: 3 } }]);
  }
  const temp = /tempC[\\"]*:(\d+)/.exec(JSON.stringify(conversation))?.[1] ?? "?";
  return modelResponse(format, [], `It is ${temp} °C in Paris, and 2 + 3 = 5.`);
}

/** What one run of the loop did. */
export interface LoopTranscript {
  /** The format. */
  format: LoopFormat;
  /** One line per turn. */
  lines: string[];
  /** The model's final text. */
  answer: string;
  /** The whole conversation, in the format's shape. */
  conversation: unknown[];
}

/**
 * Runs the loop for one format against the fake model.
 *
 * @param format The provider format.
 * @returns The transcript.
 */
export async function runAgentLoop(format: LoopFormat): Promise<LoopTranscript> {
  const runner = new Runner();
  runner.addLocalTool(WEATHER, (args) => ({ city: args.city, tempC: 18 }));
  runner.addLocalTool(ADD, (args) => ({ sum: (args.a as number) + (args.b as number) }));
  // The request: `tools: prepared.requestTools`, next to the conversation.
  const prepared = prepareTools([WEATHER, ADD], format);
  const budget = new RetryBudget({ maxFailures: 3 });
  const conversation: unknown[] = [{ role: "user", content: "Weather in Paris, and 2 + 3?" }];
  const lines: string[] = [];
  try {
    for (let turn = 0; turn < 5; turn++) {
      const response = fakeModel(format, conversation, turn);
      conversation.push(...assistantTurn(format, response));
      const step = await toolStep(runner, response, { format, prepared, retryBudget: budget });
      if (step.calls.length === 0) {
        const answer = JSON.stringify(response).match(/It is [^"]+/)?.[0] ?? "";
        lines.push(`turn ${turn + 1}: the model answers: ${answer}`);
        return { format, lines, answer, conversation };
      }
      lines.push(
        `turn ${turn + 1}: ${
          step.outcomes.map((o) => `${o.call.name} → ${o.status === "ok" ? "ok" : o.failure!.code}`)
            .join(", ")
        }`,
      );
      conversation.push(...step.messages);
    }
    throw new Error("the model did not finish in 5 turns");
  } finally {
    await runner.close();
  }
}

if (import.meta.main) {
  const formats = Deno.args.length > 0 ? Deno.args as LoopFormat[] : LOOP_FORMATS;
  for (const format of formats) {
    const { lines } = await runAgentLoop(format);
    console.log(`${format}:`);
    for (const line of lines) console.log(`  ${line}`);
  }
}
