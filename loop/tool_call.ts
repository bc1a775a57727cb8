/**
 * A tool call read from a model's response or stream, in canonical terms.
 *
 * @module
 */

import type { InputNormalizer, ToolNameMap } from "../adapter/mod.ts";

/**
 * The provider formats of the loop: OpenAI Chat Completions (`openai`),
 * OpenAI Responses (`openai-responses`), Anthropic Messages (`anthropic`) and
 * Gemini (`gemini`), named as the adapters name them.
 */
export type LoopFormat = "openai" | "openai-responses" | "anthropic" | "gemini";

/** The loop formats, in a fixed order. */
export const LOOP_FORMATS: readonly LoopFormat[] = [
  "openai",
  "openai-responses",
  "anthropic",
  "gemini",
];

/** Why a call cannot run as sent; it is answered to the model, not thrown. */
export interface CallProblem {
  /**
   * `unknown_tool`: the name maps to no tool of the request;
   * `invalid_json`: the arguments are not JSON;
   * `invalid_arguments`: the arguments are JSON but not an object;
   * `invalid_call`: the call has no name.
   */
  code: "unknown_tool" | "invalid_json" | "invalid_arguments" | "invalid_call";
  /** What is wrong, for the model and the caller. */
  message: string;
}

/** One tool call of a response, read into canonical terms. */
export interface ToolCall {
  /** The format it was read from. */
  format: LoopFormat;
  /** Its position among the response's tool calls, from 0 (the answer keeps this order). */
  index: number;
  /** The provider's call ID (`tool_call_id`, `call_id`, `tool_use` ID, Gemini `id`), when sent. */
  id?: string;
  /** The tool name as the model sent it. */
  name: string;
  /** The canonical tool ID, when the name maps to a tool of the request. */
  toolId?: string;
  /** The arguments, parsed and normalized; `undefined` when they are not a JSON object. */
  arguments: Record<string, unknown> | undefined;
  /** The argument text as sent, for providers that send text (OpenAI). */
  argumentsText?: string;
  /** Why the call cannot run, when it cannot. */
  problem?: CallProblem;
}

/** Options of every reader and accumulator: the request's name table and normalizers. */
export interface ReadCallsOptions {
  /**
   * The request's name table (from {@linkcode prepareTools} or the
   * conversion). Without it, names are decoded without a table, and hashed
   * names are unknown tools.
   */
  names?: ToolNameMap;
  /** Normalizers by canonical tool ID (from strict conversions): `null`s back to "absent". */
  normalizers?: Readonly<Record<string, InputNormalizer>>;
  /**
   * Streams only: the longest argument text of one call, in characters
   * (default 4194304); past it the accumulator throws `InvalidStreamEventError`.
   */
  maxArgumentChars?: number;
}

/** Collects a provider's stream events into tool calls. */
export interface ToolCallAccumulator {
  /** The format of the stream. */
  readonly format: LoopFormat;
  /**
   * Takes one event (an object, its JSON text, or an array of events that
   * arrived merged) and returns the calls it completed, in completion order.
   *
   * @param event The event(s).
   * @returns The calls completed by it.
   * @throws {InvalidStreamEventError} When an event is malformed or contradicts earlier ones.
   * @throws {WrongFormatError} When an event is recognisably of another format.
   * @throws {ProviderErrorResponseError} When an event is the provider's error (the request failed).
   * @throws {IncompleteCallError} When the provider says the output was cut off mid-call.
   */
  push(event: unknown): ToolCall[];
  /**
   * Ends the stream and returns the calls this completed.
   *
   * @returns The calls completed by the end.
   * @throws {IncompleteCallError} When a call is still open: names it, keeps every completed call.
   */
  end(): ToolCall[];
  /** Every call completed so far, by index. */
  readonly calls: readonly ToolCall[];
}
