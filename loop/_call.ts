// Private: one ToolCall from a provider's pieces (name, ID, argument text or value),
// through the adapter's parseToolCall (name table and normalizers).

import { parseToolCall, UnknownToolNameError } from "../adapter/mod.ts";
import type { CallProblem, LoopFormat, ReadCallsOptions, ToolCall } from "./tool_call.ts";

/** The pieces of a call as a provider sends them. */
export interface RawCall {
  index: number;
  id?: unknown;
  name?: unknown;
  /** OpenAI: the argument text. */
  text?: unknown;
  /** Anthropic, Gemini: the argument value. */
  value?: unknown;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return `a ${typeof value}`;
}

/** The provider call object parseToolCall recognises, with already-parsed arguments. */
function providerShape(format: LoopFormat, name: string, id: string | undefined, args: unknown) {
  switch (format) {
    case "openai":
      return { type: "function", id, function: { name, arguments: args } };
    case "openai-responses":
      return { type: "function_call", call_id: id, name, arguments: args };
    case "anthropic":
      return { type: "tool_use", id, name, input: args };
    case "gemini":
      return { functionCall: { name, id, args } };
  }
}

/** Builds a ToolCall; never throws: what is wrong becomes its `problem`. */
export function makeCall(format: LoopFormat, raw: RawCall, options?: ReadCallsOptions): ToolCall {
  const id = typeof raw.id === "string" && raw.id !== "" ? raw.id : undefined;
  const name = typeof raw.name === "string" ? raw.name : "";
  const call: ToolCall = { format, index: raw.index, name, arguments: undefined };
  if (id !== undefined) call.id = id;
  let problem: CallProblem | undefined;
  let args: unknown = raw.value;
  if (raw.text !== undefined) {
    const text = typeof raw.text === "string" ? raw.text : "";
    call.argumentsText = text;
    if (text.trim() === "") args = {};
    else {
      try {
        args = JSON.parse(text);
      } catch (error) {
        problem = {
          code: "invalid_json",
          message: `the arguments are not valid JSON (${
            (error as Error).message
          }); send one JSON object`,
        };
      }
    }
  } else if (args === undefined || args === null) args = {};
  if (problem === undefined && !isObject(args)) {
    problem = {
      code: "invalid_arguments",
      message: `the arguments must be a JSON object, got ${kindOf(args)}`,
    };
  }
  if (name === "") {
    call.problem = { code: "invalid_call", message: "the call has no tool name" };
    return call;
  }
  try {
    const parsed = parseToolCall(providerShape(format, name, id, problem ? {} : args), options);
    call.toolId = parsed.toolId;
    if (problem === undefined) call.arguments = parsed.arguments as Record<string, unknown>;
  } catch (error) {
    if (!(error instanceof UnknownToolNameError)) throw error;
    // The name is the first thing to repair; arguments that parsed are kept for the caller.
    if (problem === undefined && isObject(args)) call.arguments = args;
    problem = { code: "unknown_tool", message: `no tool is named ${JSON.stringify(name)}` };
  }
  if (problem !== undefined) call.problem = problem;
  return call;
}

export { isObject };
