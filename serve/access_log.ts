/**
 * The access log: one JSON line per tool call (tool, duration, outcome,
 * caller; the arguments only when asked for). Never a token.
 *
 * @module
 */

/** How a served call ended, as the access log records it. */
export type AccessOutcome =
  | "ok"
  | "input_required"
  | "tool_error"
  | "invalid_arguments"
  | "invalid_output"
  | "unknown_tool"
  | "timeout"
  | "cancelled"
  | "error";

/** One access-log entry. */
export interface AccessLogEntry {
  /** ISO time the call ended. */
  time: string;
  /** The served tool name. */
  tool: string;
  /** Wall time in ms. */
  durationMs: number;
  /** How it ended. */
  outcome: AccessOutcome;
  /** Who called: the token's subject, the client's address, or `stdio`. */
  caller: string;
  /** The arguments (only with `logArgs`). */
  args?: unknown;
}

/**
 * Formats an entry as one JSON line (with the trailing newline).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { accessLogLine } from "@toolfoundation/core/serve";
 *
 * const line = accessLogLine({
 *   time: "2026-11-24T10:00:00.000Z",
 *   tool: "add",
 *   durationMs: 3,
 *   outcome: "ok",
 *   caller: "stdio",
 * });
 * assert.equal(JSON.parse(line).tool, "add");
 * assert.ok(line.endsWith("\n"));
 * ```
 *
 * @param entry The entry.
 * @returns The line.
 */
export function accessLogLine(entry: AccessLogEntry): string {
  return JSON.stringify({ event: "tool_call", ...entry }) + "\n";
}
