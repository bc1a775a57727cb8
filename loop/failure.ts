/**
 * Failures as answers the model can act on: compact, deterministic, with the
 * argument paths and what each expected, the tool names that exist, or what
 * happened; never a stack trace, and secrets scrubbed by the caller's `redact`.
 *
 * @module
 */

import type { McpContentBlock } from "../run/mod.ts";
import type { ValidationFailure } from "../model/mod.ts";
import { escapePointerToken } from "../model/json_pointer.ts";
import type { RetryBudgetExhaustedError } from "./errors.ts";

/** One argument that does not match the input schema. */
export interface ArgumentIssue {
  /** JSON Pointer into the arguments (`/` for the whole object). */
  path: string;
  /** What the schema expected there, e.g. `must be number, found string`. */
  expected: string;
}

/** The kinds of failure a call can have. */
export type ToolFailureCode =
  | "unknown_tool"
  | "invalid_json"
  | "invalid_arguments"
  | "invalid_call"
  | "denied"
  | "timeout"
  | "tool_error"
  | "execution"
  | "invalid_result"
  | "output_too_large"
  | "not_permitted"
  | "unavailable"
  | "cancelled"
  | "retry_budget_exhausted";

/** Why a call failed, for the model (`code`, `message`, `issues`, `available`, `final`) and the caller. */
export interface ToolFailure {
  /** The kind. */
  code: ToolFailureCode;
  /** One compact, deterministic sentence or two for the model. */
  message: string;
  /** `invalid_arguments`: every argument that is wrong, sorted by path. */
  issues?: ArgumentIssue[];
  /** `unknown_tool`: the tool names that exist, sorted. */
  available?: string[];
  /** `tool_error`: the content the tool returned with its error. */
  content?: McpContentBlock[];
  /** The retry budget is used up: the model is told to stop calling the tool. */
  final?: boolean;
  /** The error the caller sees when the budget is used up. */
  exhausted?: RetryBudgetExhaustedError;
  /** The original error (for the caller; never sent to the model). */
  cause?: unknown;
}

/** At most this many argument issues are listed. */
export const MAX_ISSUES = 20;
const MAX_TEXT = 500;

/**
 * Text from an error for the model: secrets scrubbed, no stack trace, one line, at most 500
 * characters.
 */
export function cleanText(text: string, redact?: (text: string) => string): string {
  let out = redact === undefined ? text : redact(text);
  const stack = out.search(/\n\s+at /);
  if (stack >= 0) out = out.slice(0, stack);
  out = out.replace(/\s+/g, " ").trim();
  return out.length > MAX_TEXT ? `${out.slice(0, MAX_TEXT - 1)}…` : out;
}

/**
 * The argument issues of validation failures: a missing or extra property is
 * located at the property itself; sorted by path, then text; duplicates
 * dropped.
 */
export function argumentIssues(failures: readonly ValidationFailure[]): ArgumentIssue[] {
  const seen = new Set<string>();
  const issues: ArgumentIssue[] = [];
  for (const f of failures) {
    let path = f.instanceLocation;
    let expected = f.message;
    const property = /property '(.*)'$/.exec(f.message)?.[1];
    if (property !== undefined && f.keyword === "required") {
      path = `${path}/${escapePointerToken(property)}`;
      expected = "a value: the property is required";
    } else if (property !== undefined && f.keyword === "additionalProperties") {
      path = `${path}/${escapePointerToken(property)}`;
      expected = "nothing: the property is not allowed";
    }
    path ||= "/";
    if (expected.length > 200) expected = `${expected.slice(0, 199)}…`;
    const key = `${path}\0${expected}`;
    if (seen.has(key)) continue;
    seen.add(key);
    issues.push({ path, expected });
  }
  return issues.sort((a, b) =>
    a.path < b.path ? -1 : a.path > b.path ? 1 : a.expected < b.expected ? -1 : 1
  );
}

/**
 * The text the model gets for a failure: one compact JSON object,
 * `{"error", "message", "issues"?, "available"?, "final"?}`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { failureText } from "@toolfoundation/core/loop";
 *
 * assert.equal(
 *   failureText({ code: "unknown_tool", message: 'no tool is named "ad"', available: ["math__add"] }),
 *   '{"error":"unknown_tool","message":"no tool is named \\"ad\\"","available":["math__add"]}',
 * );
 * ```
 *
 * @param failure The failure.
 * @returns The JSON text.
 */
export function failureText(failure: ToolFailure): string {
  return JSON.stringify(failureJson(failure));
}

/**
 * The JSON object the model gets for a failure (Gemini takes it as is).
 *
 * @param failure The failure.
 * @returns `{"error", "message", "issues"?, "available"?, "final"?}`.
 */
export function failureJson(failure: ToolFailure): Record<string, unknown> {
  const out: Record<string, unknown> = { error: failure.code, message: failure.message };
  if (failure.issues !== undefined) out.issues = failure.issues.slice(0, MAX_ISSUES);
  if (failure.available !== undefined) out.available = failure.available;
  if (failure.final === true) out.final = true;
  return out;
}
