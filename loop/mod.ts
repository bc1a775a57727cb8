/**
 * The tool step of an agent loop, exactly, for OpenAI Chat Completions,
 * OpenAI Responses, Anthropic Messages and Gemini: read the tool calls of a
 * model's response (or stream), run them, and answer in the provider's
 * documented shape.
 *
 * - {@linkcode prepareTools} converts the tools for a request and keeps the
 *   name table and normalizers that read the calls back.
 * - {@linkcode readToolCalls} reads every call of a whole response, in order;
 *   {@linkcode createAccumulator} / {@linkcode streamToolCalls} read them from
 *   stream events as each completes; {@linkcode parseSse} turns the bytes of
 *   an event stream into events.
 * - {@linkcode runToolCalls} runs one response's calls on a `Runner`: a
 *   concurrency limit, outcomes in call order, an approval hook, a per-tool
 *   {@linkcode RetryBudget}, cancellation.
 * - {@linkcode answerToolCalls} turns outcomes into the provider's messages;
 *   failures are answers the model can act on ({@linkcode ToolFailure}).
 * - {@linkcode toolStep} does all three in one call.
 *
 * Problems of one call (unknown name, arguments that are not JSON or do not
 * match the schema, a failing tool, a denial) are answered to the model,
 * never thrown. Errors are for the caller (see {@linkcode LoopErrorCode}).
 *
 * @example A full step for OpenAI Chat Completions
 * ```ts
 * import assert from "node:assert/strict";
 * import { prepareTools, toolStep } from "@toolfoundation/core/loop";
 * import { Runner } from "@toolfoundation/core/run";
 *
 * const add = {
 *   name: "add",
 *   namespace: "math",
 *   inputSchema: {
 *     type: "object" as const,
 *     properties: { a: { type: "number" }, b: { type: "number" } },
 *     required: ["a", "b"],
 *   },
 * };
 * const runner = new Runner();
 * runner.addLocalTool(add, (args) => (args.a as number) + (args.b as number));
 * const prepared = prepareTools([add], "openai"); // request: { tools: prepared.requestTools }
 * const step = await toolStep(runner, {
 *   choices: [{
 *     message: {
 *       role: "assistant",
 *       content: null,
 *       tool_calls: [
 *         { id: "call_1", type: "function", function: { name: "math__add", arguments: '{"a":1,"b":2}' } },
 *         { id: "call_2", type: "function", function: { name: "math__add", arguments: '{"a":"x"}' } },
 *       ],
 *     },
 *     finish_reason: "tool_calls",
 *   }],
 * }, { format: "openai", prepared });
 * assert.deepEqual(step.messages[0], { role: "tool", tool_call_id: "call_1", content: "3" });
 * assert.equal(
 *   (step.messages[1] as { content: string }).content,
 *   '{"error":"invalid_arguments","message":"the arguments do not match the input schema of \\"math__add\\" (2 problems); fix them and call again","issues":[{"path":"/a","expected":"must be number, found string"},{"path":"/b","expected":"a value: the property is required"}]}',
 * );
 * await runner.close();
 * ```
 *
 * @module
 */

export {
  IncompleteCallError,
  IncompleteStreamError,
  InvalidResponseError,
  InvalidStreamEventError,
  LoopError,
  type LoopErrorCode,
  type PartialCall,
  ProviderErrorResponseError,
  RetryBudgetExhaustedError,
  WrongFormatError,
} from "./errors.ts";
export {
  describeValue,
  type DetectedResponse,
  detectFormat,
  type ErrorProvider,
  FORMAT_SHAPES,
  FORMAT_TITLES,
  identifyResponse,
} from "./detect.ts";
export {
  type CallProblem,
  LOOP_FORMATS,
  type LoopFormat,
  type ReadCallsOptions,
  type ToolCall,
  type ToolCallAccumulator,
} from "./tool_call.ts";
export {
  type GeminiRequestTool,
  type LoopRequestTools,
  type LoopToolDefinitions,
  type PreparedTools,
  prepareTools,
  type PrepareToolsOptions,
} from "./prepare.ts";
export { readToolCalls } from "./read.ts";
export { createAccumulator, streamToolCalls } from "./accumulator.ts";
export { parseSse } from "./sse.ts";
export {
  type ApprovalDecision,
  type ApprovalHook,
  type ApprovalRequest,
  type CallOutcome,
  runToolCalls,
  type RunToolCallsOptions,
  ToolStepCancelledError,
  type ToolStepRunner,
} from "./run_calls.ts";
export { RetryBudget, type RetryBudgetOptions } from "./retry_budget.ts";
export {
  type ArgumentIssue,
  failureJson,
  failureText,
  type ToolFailure,
  type ToolFailureCode,
} from "./failure.ts";
export { answerToolCalls } from "./answer.ts";
export type { AnswerOptions, ContentWarning, ToolAnswer } from "./tool_answer.ts";
export { type ToolStep, toolStep, type ToolStepOptions } from "./tool_step.ts";
// One folder per provider format.
export { readChatCompletionsCalls, type ReadChatCompletionsOptions } from "./openai_chat/read.ts";
export {
  ChatCompletionsAccumulator,
  type ChatCompletionsAccumulatorOptions,
} from "./openai_chat/accumulator.ts";
export { answerChatCompletions, type ChatToolMessage } from "./openai_chat/answer.ts";
export { readResponsesCalls } from "./openai_responses/read.ts";
export { ResponsesAccumulator } from "./openai_responses/accumulator.ts";
export {
  answerResponses,
  type ResponsesFunctionCallOutput,
  type ResponsesOutputContent,
} from "./openai_responses/answer.ts";
export { readAnthropicCalls } from "./anthropic/read.ts";
export { AnthropicAccumulator } from "./anthropic/accumulator.ts";
export {
  answerAnthropic,
  type AnthropicToolResult,
  type AnthropicToolResultContent,
  type AnthropicToolResultMessage,
} from "./anthropic/answer.ts";
export { readGeminiCalls, type ReadGeminiOptions } from "./gemini/read.ts";
export { GeminiAccumulator } from "./gemini/accumulator.ts";
export {
  answerGemini,
  type GeminiFunctionResponseContent,
  type GeminiFunctionResponsePart,
} from "./gemini/answer.ts";
