// Private: the tool-call reader of the OpenAI Responses API:
// `{type: "function_call", call_id, name, arguments}` (arguments as JSON text).

import type { ToolCallReading } from "../adapter.ts";
import { parseArguments } from "../openai/_tool_call.ts";

/** Reads a Responses `function_call` item. */
export function readResponsesCall(call: Record<string, unknown>): ToolCallReading | undefined {
  if (call.type !== "function_call") return undefined;
  return { name: call.name, callId: call.call_id, arguments: parseArguments(call.arguments) };
}
