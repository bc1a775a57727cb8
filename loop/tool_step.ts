/**
 * The tool step of an agent loop in one call: read a response's tool calls,
 * run them, and answer in the provider's format.
 *
 * @module
 */

import { answerToolCalls } from "./answer.ts";
import type { AnswerOptions, ContentWarning } from "./tool_answer.ts";
import type { RetryBudgetExhaustedError } from "./errors.ts";
import type { PreparedTools } from "./prepare.ts";
import { readToolCalls } from "./read.ts";
import {
  type CallOutcome,
  runToolCalls,
  type RunToolCallsOptions,
  type ToolStepRunner,
} from "./run_calls.ts";
import type { LoopFormat, ReadCallsOptions, ToolCall } from "./tool_call.ts";

/** Options of {@linkcode toolStep}. */
export interface ToolStepOptions extends RunToolCallsOptions, AnswerOptions, ReadCallsOptions {
  /** The provider format of the response. */
  format: LoopFormat;
  /** The request's prepared tools: supplies `names`, `normalizers` and `offered`. */
  prepared?: PreparedTools;
}

/** What one tool step did, and what to send back. */
export interface ToolStep {
  /** The calls read from the response, in order (empty: the model did not call a tool). */
  calls: ToolCall[];
  /** One outcome per call, in call order. */
  outcomes: CallOutcome[];
  /** The messages or items to append to the conversation (see `ToolAnswer.messages`). */
  messages: unknown[];
  /** Content blocks sent as text because the provider has no form for them. */
  warnings: ContentWarning[];
  /** Tools whose retry budget this step used up: the model was told to stop calling them. */
  exhausted: RetryBudgetExhaustedError[];
}

/**
 * Reads every tool call of `response`, runs them on `runner` (concurrency
 * limit, approval hook, retry budget, signal) and answers in the format's
 * documented shape.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { prepareTools, toolStep } from "@toolfoundation/core/loop";
 * import { Runner } from "@toolfoundation/core/run";
 *
 * const add = {
 *   name: "add",
 *   namespace: "math",
 *   inputSchema: { type: "object" as const, properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] },
 * };
 * const runner = new Runner();
 * runner.addLocalTool(add, (args) => ({ sum: (args.a as number) + (args.b as number) }));
 * const prepared = prepareTools([add], "anthropic");
 * const step = await toolStep(runner, {
 *   role: "assistant",
 *   content: [{ type: "tool_use", id: "toolu_1", name: "math__add", input: { a: 1, b: 2 } }],
 *   stop_reason: "tool_use",
 * }, { format: "anthropic", prepared });
 * assert.deepEqual(step.messages, [{
 *   role: "user",
 *   content: [{ type: "tool_result", tool_use_id: "toolu_1", content: '{"sum":3}' }],
 * }]);
 * await runner.close();
 * ```
 *
 * @param runner The runner holding the tools.
 * @param response The model's whole response.
 * @param options Format, prepared tools, and the options of running and answering.
 * @returns The calls, outcomes, messages, warnings and exhausted budgets.
 * @throws {InvalidResponseError} When the response is not of the format.
 * @throws {ToolStepCancelledError} When `signal` aborts.
 */
export async function toolStep(
  runner: ToolStepRunner,
  response: unknown,
  options: ToolStepOptions,
): Promise<ToolStep> {
  const prepared = options.prepared;
  const names = options.names ?? prepared?.names;
  const normalizers = options.normalizers ?? prepared?.normalizers;
  const calls = readToolCalls(options.format, response, { names, normalizers });
  const outcomes = await runToolCalls(runner, calls, {
    ...options,
    ...(names === undefined ? {} : { names }),
    ...(options.offered ?? prepared?.offered) === undefined
      ? {}
      : { offered: options.offered ?? prepared?.offered },
  });
  const answer = answerToolCalls(options.format, outcomes, options);
  return {
    calls,
    outcomes,
    messages: answer.messages,
    warnings: answer.warnings,
    exhausted: outcomes.flatMap((o) => o.failure?.exhausted ?? []),
  };
}
