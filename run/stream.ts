/**
 * Stream events (`progress`, `chunk`, `done`, `error`) and the serializable
 * form of errors that `error` events carry.
 *
 * @module
 */

import type { ToolBackend } from "../model/mod.ts";
import type { ProgressUpdate } from "./local.ts";
import type { RunResult } from "./result.ts";
import type { RunError } from "./errors.ts";

/** A progress report from the backend (local `ctx.progress`, MCP progress notifications). */
export interface ProgressEvent {
  /** Always `"progress"`. */
  kind: "progress";
  /** The tool ID. */
  toolId: string;
  /** The normalized report. */
  data: ProgressUpdate;
}

/** A partial result (a value a local handler or provider yielded). */
export interface ChunkEvent {
  /** Always `"chunk"`. */
  kind: "chunk";
  /** The tool ID. */
  toolId: string;
  /** The chunk. */
  data: unknown;
}

/** The run succeeded; always the last event. */
export interface DoneEvent {
  /** Always `"done"`. */
  kind: "done";
  /** The tool ID. */
  toolId: string;
  /** The result. */
  data: RunResult;
}

/** The run failed; always the last event. */
export interface ErrorEvent {
  /** Always `"error"`. */
  kind: "error";
  /** The tool ID. */
  toolId: string;
  /** The error in serializable form. */
  data: SerializedError;
  /** The error itself. */
  error: RunError;
}

/** One event of `Runner.runStream`: any number of progress and chunk events, then one done or error. */
export type StreamEvent = ProgressEvent | ChunkEvent | DoneEvent | ErrorEvent;

/** An error as plain JSON-compatible data (messages, codes and facts; no stack). */
export interface SerializedError {
  /** The class name. */
  name: string;
  /** The stable code, when the error has one. */
  code?: string;
  /** The message. */
  message: string;
  /** The tool ID, for run errors. */
  toolId?: string;
  /** The backend, for run errors that got as far as selecting one. */
  backend?: ToolBackend;
  /** Other public facts of the error (failures, details, content, timeout, result ...). */
  [field: string]: unknown;
  /** The cause, serialized the same way. */
  cause?: SerializedError | unknown;
}

const SKIP = new Set(["name", "message", "stack", "cause", "code", "toolId", "backend"]);

/** Sets an own property, even for a key like `__proto__` (data from servers may have one). */
function put(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

function plain(value: unknown, depth: number): unknown {
  if (value === null || typeof value !== "object") {
    return typeof value === "function" || typeof value === "symbol" || typeof value === "bigint"
      ? String(value)
      : value;
  }
  if (value instanceof Error) return serializeError(value, depth + 1);
  if (depth > 8) return "[too deep]";
  if (Array.isArray(value)) return value.map((v) => plain(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (v !== undefined) put(out, key, plain(v, depth + 1));
  }
  return out;
}

/**
 * Turns any error into plain data: name, code, message, tool ID, backend, its
 * public fields (failures, details, content, the result of an output-validation
 * error ...) and its cause chain.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { RunTimeoutError } from "@toolfoundation/core/run";
 * import { serializeError } from "./stream.ts";
 *
 * const data = serializeError(new RunTimeoutError(50, { toolId: "slow" }));
 * assert.equal(data.code, "timeout");
 * assert.equal(data.toolId, "slow");
 * assert.equal(data.timeoutMs, 50);
 * ```
 *
 * @param error Any thrown value.
 * @param depth Nesting depth already reached (causes stop at 8).
 * @returns The serializable form.
 */
export function serializeError(error: unknown, depth = 0): SerializedError {
  if (!(error instanceof Error)) {
    return { name: "Error", message: String(error) };
  }
  const e = error as Error & { code?: unknown; toolId?: unknown; backend?: unknown };
  const out: SerializedError = { name: e.name, message: e.message };
  if (typeof e.code === "string") out.code = e.code;
  if (typeof e.toolId === "string") out.toolId = e.toolId;
  if (e.backend !== undefined) out.backend = plain(e.backend, depth) as ToolBackend;
  for (const [key, value] of Object.entries(e)) {
    if (!SKIP.has(key) && value !== undefined) put(out, key, plain(value, depth));
  }
  if (e.cause !== undefined && depth < 8) out.cause = plain(e.cause, depth);
  return out;
}
