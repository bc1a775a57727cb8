// Private: the results of the gateway's tool calls: a runner's result as an
// MCP result, an error as an `isError` result, and the access log's outcome
// of an error.

import { formatFailures, SchemaValidationError } from "../model/mod.ts";
import { type McpCallResult, type RunResult, ToolResultError } from "../run/mod.ts";
import type { AccessOutcome } from "./access_log.ts";

/** What a call ends with: the client's result and the access log's outcome. */
export interface CallOutcome {
  /** The MCP result (or an input-required one). */
  result: McpCallResult;
  /** The access log's outcome. */
  outcome: AccessOutcome;
}

/** The text of an error (a schema failure's every failure). */
export function detail(error: unknown): string {
  if (error instanceof SchemaValidationError) {
    return formatFailures(error.failures);
  }
  return error instanceof Error ? error.message : String(error);
}

/** An `isError` result with one text. */
export function errorResult(text: string): McpCallResult {
  return { content: [{ type: "text", text }], isError: true };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A runner's result as an MCP result (an MCP tool's own result as it came). */
export function fromRunResult(result: RunResult): McpCallResult {
  if (result.mcpResult !== undefined) return result.mcpResult;
  const value = result.structured;
  const text = typeof value === "string" ? value : JSON.stringify(value ?? null);
  return {
    content: [{ type: "text", text }],
    ...(isPlainObject(value) ? { structuredContent: value } : {}),
  };
}

/** The access log's outcome of an error. */
export function outcomeOf(error: unknown): AccessOutcome {
  const code = (error as { code?: unknown })?.code;
  if (code === "input_validation") return "invalid_arguments";
  if (code === "output_validation") return "invalid_output";
  if (code === "timeout" || code === "cancelled" || code === "tool_error") return code;
  if ((error as { name?: unknown })?.name === "TimeoutError") return "timeout";
  if ((error as { name?: unknown })?.name === "AbortError") return "cancelled";
  return "error";
}

/** A failed call: a tool's own error result as it came, anything else as an error text. */
export function failed(error: unknown): CallOutcome {
  return {
    result: (error as { mcpResult?: McpCallResult })?.mcpResult !== undefined &&
        error instanceof ToolResultError
      ? error.mcpResult as McpCallResult
      : errorResult((error as Error)?.message ?? String(error)),
    outcome: outcomeOf(error),
  };
}
