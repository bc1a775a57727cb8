/**
 * Errors of the agent-loop layer, each with a stable `code` from
 * {@linkcode LoopErrorCode} and its `cause` kept.
 *
 * Problems of one call (an unknown tool name, arguments that are not JSON,
 * arguments the schema rejects, a tool that fails) are not errors here: they
 * become results the model can act on. These errors are for the caller: a
 * response or stream that is not the provider's shape, a stream that ends in
 * the middle of a call, a retry budget that is used up. A step that was
 * cancelled is `ToolStepCancelledError`, declared with `runToolCalls` because
 * it carries the step's outcomes.
 *
 * @module
 */

import { ToolFoundationError } from "../model/mod.ts";
import type { RunErrorCode } from "../run/mod.ts";
import type { LoopFormat, ToolCall } from "./tool_call.ts";
import { type DetectedResponse, type ErrorProvider, FORMAT_SHAPES } from "./detect.ts";

/**
 * Every code an error of the loop layer can carry. `cancelled` is the
 * runner's code (see `RunErrorCode`): a cancelled step is reported with it.
 */
export type LoopErrorCode =
  | "invalid_response"
  | "wrong_format"
  | "provider_error"
  | "invalid_stream_event"
  | "incomplete_call"
  | "incomplete_stream"
  | "retry_budget_exhausted"
  | Extract<RunErrorCode, "cancelled">;

/**
 * Base class of every error of the loop layer.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { LoopError } from "@toolfoundation/core/loop";
 *
 * assert.equal(new LoopError("invalid_response", "no choices").code, "invalid_response");
 * ```
 */
export class LoopError extends ToolFoundationError {
  /** Stable, machine-readable code. */
  declare readonly code: LoopErrorCode;

  /**
   * Creates the instance.
   *
   * @param code Stable error code.
   * @param message What is wrong, where, how to fix it.
   * @param options The cause, if any.
   */
  constructor(code: LoopErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
  }
}

/**
 * A whole response is not the provider's documented shape (e.g. a Chat
 * Completions response without `choices`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { InvalidResponseError } from "@toolfoundation/core/loop";
 *
 * const error = new InvalidResponseError("openai", "/choices", "must be an array");
 * assert.equal(error.message, 'openai response: /choices must be an array');
 * ```
 */
export class InvalidResponseError extends LoopError {
  /** The format the response was read as. */
  readonly format: LoopFormat;
  /** JSON Pointer into the response. */
  readonly pointer: string;

  /**
   * Creates the instance.
   *
   * @param format The format.
   * @param pointer Where in the response.
   * @param detail What is wrong there.
   */
  constructor(format: LoopFormat, pointer: string, detail: string) {
    super("invalid_response", `${format} response: ${pointer || "/"} ${detail}`);
    this.format = format;
    this.pointer = pointer;
  }
}

/**
 * A response or stream event is recognisably of another provider format than
 * the one it is read as (e.g. an Anthropic message read as Chat
 * Completions): read as given, it would have "no tool calls" and the loop
 * would drop them. `found` says what it is; read it as `found.format`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { identifyResponse, WrongFormatError } from "@toolfoundation/core/loop";
 *
 * const found = identifyResponse({ type: "message", role: "assistant", content: [] })!;
 * const error = new WrongFormatError("openai", found);
 * assert.equal(error.code, "wrong_format");
 * assert.equal(error.found.format, "anthropic");
 * assert.match(error.message, /^expected an OpenAI Chat Completions response .*, found an Anthropic Messages response/);
 * ```
 */
export class WrongFormatError extends LoopError {
  /** The format it was read as. */
  readonly expected: LoopFormat;
  /** What it is. */
  readonly found: DetectedResponse;

  /**
   * Creates the instance.
   *
   * @param expected The format it was read as.
   * @param found What it is.
   * @param eventIndex For a stream: the event's position, from 0.
   */
  constructor(expected: LoopFormat, found: DetectedResponse, eventIndex?: number) {
    const where = eventIndex === undefined ? "" : `stream event ${eventIndex}: `;
    const hint = found.format === undefined
      ? ""
      : found.format === expected
      ? found.kind === "stream_event"
        ? "; it is a stream event: read it with an accumulator (createAccumulator, streamToolCalls)"
        : "; it is a whole response: read it with readToolCalls"
      : `; read it as ${JSON.stringify(found.format)}`;
    super(
      "wrong_format",
      `${where}expected ${
        eventIndex === undefined ? FORMAT_SHAPES[expected] : `an event of a ${expected} stream`
      }, found ${found.description}${hint}`,
    );
    this.expected = expected;
    this.found = found;
  }
}

/**
 * A provider's error body (`{"error": {...}}`, an Anthropic `type: "error"`
 * event, a failed Responses object) where a response was expected: the
 * request failed and there are no tool calls to read.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ProviderErrorResponseError, readToolCalls } from "@toolfoundation/core/loop";
 *
 * assert.throws(
 *   () => readToolCalls("anthropic", { type: "error", error: { type: "overloaded_error", message: "Overloaded" } }),
 *   (e: unknown) => e instanceof ProviderErrorResponseError && e.provider === "anthropic" && e.providerMessage === "Overloaded",
 * );
 * ```
 */
export class ProviderErrorResponseError extends LoopError {
  /** The format it was read as. */
  readonly expected: LoopFormat;
  /** The provider whose error body it is, when recognised. */
  readonly provider: ErrorProvider | undefined;
  /** The provider's message, when it has one. */
  readonly providerMessage: string | undefined;
  /** What it is. */
  readonly found: DetectedResponse;

  /**
   * Creates the instance.
   *
   * @param expected The format it was read as.
   * @param found The error body, as recognised.
   * @param eventIndex For a stream: the event's position, from 0.
   */
  constructor(expected: LoopFormat, found: DetectedResponse, eventIndex?: number) {
    const where = eventIndex === undefined ? "" : `stream event ${eventIndex}: `;
    super(
      "provider_error",
      `${where}${found.description} instead of a ${expected} response${
        found.message === undefined ? "" : `: ${JSON.stringify(found.message)}`
      }; the request failed, there are no tool calls`,
    );
    this.expected = expected;
    this.provider = found.provider;
    this.providerMessage = found.message;
    this.found = found;
  }
}

/**
 * A stream event is not the provider's documented shape, or contradicts the
 * events before it (more arguments for a call that is already complete).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { InvalidStreamEventError } from "@toolfoundation/core/loop";
 *
 * const error = new InvalidStreamEventError("anthropic", 3, "an event must be an object");
 * assert.equal(error.eventIndex, 3);
 * ```
 */
export class InvalidStreamEventError extends LoopError {
  /** The format of the stream. */
  readonly format: LoopFormat;
  /** The position of the event in the stream, from 0. */
  readonly eventIndex: number;

  /**
   * Creates the instance.
   *
   * @param format The format.
   * @param eventIndex The event's position.
   * @param detail What is wrong.
   */
  constructor(format: LoopFormat, eventIndex: number, detail: string) {
    super("invalid_stream_event", `${format} stream, event ${eventIndex}: ${detail}`);
    this.format = format;
    this.eventIndex = eventIndex;
  }
}

/** What is known of a call a stream did not finish. */
export interface PartialCall {
  /** The call's position among the response's tool calls. */
  index: number;
  /** The provider's call ID, when it was sent. */
  id?: string;
  /** The provider's tool name, when it was sent. */
  name?: string;
  /** The argument text received so far. */
  argumentsText: string;
}

/**
 * The stream ended while a call was still open. Names the call (index, ID,
 * name), keeps the argument text received so far and every call completed
 * before: nothing is lost.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { IncompleteCallError } from "@toolfoundation/core/loop";
 *
 * const error = new IncompleteCallError("openai", [{ index: 1, id: "call_2", name: "math__add", argumentsText: '{"a":' }], []);
 * assert.equal(error.code, "incomplete_call");
 * assert.match(error.message, /call 1 \(id "call_2", name "math__add", 5 characters/);
 * ```
 */
export class IncompleteCallError extends LoopError {
  /** The format of the stream. */
  readonly format: LoopFormat;
  /** Every call left open, by index. */
  readonly open: readonly PartialCall[];
  /** Every call the stream completed. */
  readonly completed: readonly ToolCall[];

  /**
   * Creates the instance.
   *
   * @param format The format.
   * @param open The calls left open.
   * @param completed The calls completed before the end.
   */
  constructor(format: LoopFormat, open: readonly PartialCall[], completed: readonly ToolCall[]) {
    const names = open.map((c) =>
      `call ${c.index} (${c.id === undefined ? "no id" : `id ${JSON.stringify(c.id)}`}, ${
        c.name === undefined ? "no name" : `name ${JSON.stringify(c.name)}`
      }, ${c.argumentsText.length} characters of arguments)`
    ).join("; ");
    super(
      "incomplete_call",
      `${format} stream ended in the middle of ${names}; ${completed.length} call(s) completed before`,
    );
    this.format = format;
    this.open = open;
    this.completed = completed;
  }
}

/**
 * A server-sent-event stream ended in the middle of an event whose data is
 * not complete JSON.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { IncompleteStreamError } from "@toolfoundation/core/loop";
 *
 * assert.equal(new IncompleteStreamError('{"type":').code, "incomplete_stream");
 * ```
 */
export class IncompleteStreamError extends LoopError {
  /** The start of the unfinished event's data (at most 200 characters). */
  readonly excerpt: string;

  /**
   * Creates the instance.
   *
   * @param data The unfinished data.
   */
  constructor(data: string) {
    const excerpt = data.length > 200 ? `${data.slice(0, 200)}…` : data;
    super(
      "incomplete_stream",
      `the event stream ended in the middle of an event (${data.length} characters of data that are not complete JSON)`,
    );
    this.excerpt = excerpt;
  }
}

/**
 * A tool failed as many times as its retry budget allows: the model was told
 * to stop, and the caller gets this error (in the step's `exhausted` list).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { RetryBudgetExhaustedError } from "@toolfoundation/core/loop";
 *
 * const error = new RetryBudgetExhaustedError("math__add", "math:add", 3, "invalid_arguments");
 * assert.equal(error.attempts, 3);
 * ```
 */
export class RetryBudgetExhaustedError extends LoopError {
  /** The provider name the model used. */
  readonly toolName: string;
  /** The canonical tool ID, when the name maps to one. */
  readonly toolId: string | undefined;
  /** Failed attempts counted. */
  readonly attempts: number;
  /** The code of the last failure. */
  readonly lastFailure: string;

  /**
   * Creates the instance.
   *
   * @param toolName The provider name.
   * @param toolId The canonical ID, if any.
   * @param attempts Failed attempts counted.
   * @param lastFailure The code of the last failure.
   * @param options The last failure's cause.
   */
  constructor(
    toolName: string,
    toolId: string | undefined,
    attempts: number,
    lastFailure: string,
    options?: { cause?: unknown },
  ) {
    super(
      "retry_budget_exhausted",
      `tool ${
        JSON.stringify(toolId ?? toolName)
      } failed ${attempts} time(s) in a row (last: ${lastFailure}); its retry budget is used up and the model was told to stop calling it`,
      options,
    );
    this.toolName = toolName;
    this.toolId = toolId;
    this.attempts = attempts;
    this.lastFailure = lastFailure;
  }
}
