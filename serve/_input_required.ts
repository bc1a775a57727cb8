// Private: input-required results (2026-07-28) through the gateway. An
// upstream's result of type input_required goes to the client as is, its
// `requestState` replaced by a sealed one (see _request_state.ts); the
// client's retry (its `inputResponses` and that state) goes back to the
// upstream with the upstream's own state. An upstream's input requests are
// checked first: only the embedded requests the specification defines
// (elicitation/create, sampling/createMessage, roots/list) pass, and only so
// many rounds of them in one call.

import type { OpenedState, RequestStateSeal } from "./_request_state.ts";

/** The methods whose result may be input_required. */
export const INPUT_REQUIRED_METHODS: ReadonlySet<string> = new Set([
  "tools/call",
  "prompts/get",
  "resources/read",
]);

/** The embedded requests an input-required result may carry. */
const EMBEDDED = new Set(["elicitation/create", "sampling/createMessage", "roots/list"]);

/** What a client's retry carries. */
export interface InputRetry {
  /** The client's answers, by input-request key. */
  inputResponses?: Readonly<Record<string, unknown>>;
  /** The `requestState` serve sent, echoed. */
  requestState?: string;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Whether an upstream's result is an input-required one. */
export function isInputRequired(result: Record<string, unknown>): boolean {
  return result.resultType === "input_required";
}

/** What is wrong with an upstream's input-required result, or undefined when nothing is. */
export function inputRequiredProblem(result: Record<string, unknown>): string | undefined {
  const { inputRequests, requestState } = result;
  if (requestState !== undefined && typeof requestState !== "string") {
    return "its requestState is not a string";
  }
  if (inputRequests !== undefined && !isObject(inputRequests)) {
    return "its inputRequests is not an object";
  }
  const entries = Object.entries(inputRequests ?? {});
  if (entries.length === 0 && requestState === undefined) {
    return "it carries neither inputRequests nor a requestState";
  }
  for (const [key, entry] of entries) {
    if (!isObject(entry) || typeof entry.method !== "string") {
      return `its input request ${JSON.stringify(key)} is not a request object with a method`;
    }
    if (!EMBEDDED.has(entry.method)) {
      return `its input request ${JSON.stringify(key)} is ${
        JSON.stringify(entry.method)
      }, which is none of ${[...EMBEDDED].join(", ")}`;
    }
    if (entry.params !== undefined && !isObject(entry.params)) {
      return `the params of its input request ${JSON.stringify(key)} are not an object`;
    }
    if (entry.params === undefined && entry.method !== "roots/list") {
      return `its input request ${JSON.stringify(key)} (${entry.method}) has no params`;
    }
  }
  return undefined;
}

/** The binding of a sealed state: who asked, and what. */
export function bindingOf(caller: string, method: string, target: string): string {
  return `${caller}\0${method}\0${target}`;
}

/**
 * The upstream state and round of a client's retry (round 0 without a
 * state), and the params to send upstream: the request's own plus the
 * client's `inputResponses` and the upstream's `requestState`.
 *
 * @throws {RequestStateRefused} when the state is not one serve sealed for this binding.
 */
export async function openRetry(
  seal: RequestStateSeal,
  retry: InputRetry,
  binding: string,
  params: Record<string, unknown>,
): Promise<{ opened: OpenedState | undefined; params: Record<string, unknown> }> {
  const opened = retry.requestState === undefined
    ? undefined
    : await seal.open(retry.requestState, binding);
  return {
    opened,
    params: {
      ...params,
      ...(retry.inputResponses === undefined ? {} : { inputResponses: retry.inputResponses }),
      ...(opened?.state === undefined ? {} : { requestState: opened.state }),
    },
  };
}

/**
 * The input-required result the client gets for an upstream's: as received,
 * with a sealed `requestState` carrying the upstream's (and the round).
 *
 * @throws {InputRequiredInvalid} when the result is invalid or the rounds are used up.
 */
export async function relayInputRequired(
  seal: RequestStateSeal,
  result: Record<string, unknown>,
  options: {
    binding: string;
    upstream: string;
    round: number;
    maxRounds: number;
    /** The parked call the retry continues. */
    pending?: string;
  },
): Promise<Record<string, unknown>> {
  const problem = inputRequiredProblem(result);
  if (problem !== undefined) throw new InputRequiredInvalid(problem);
  const round = options.round + 1;
  if (round > options.maxRounds) {
    throw new InputRequiredInvalid(
      `it asked for input ${round} times in one call; the limit is ${options.maxRounds}`,
    );
  }
  const { requestState, ...rest } = result;
  return {
    ...rest,
    requestState: await seal.seal(
      {
        ...(requestState === undefined ? {} : { state: requestState as string }),
        upstream: options.upstream,
        round,
        ...(options.pending === undefined ? {} : { pending: options.pending }),
      },
      options.binding,
    ),
  };
}

/** An upstream's input-required result serve does not pass on (the message says why). */
export class InputRequiredInvalid extends Error {
  /** The stable code. */
  readonly code = "invalid_input_required";
  /**
   * Creates the instance.
   *
   * @param message What is wrong.
   */
  constructor(message: string) {
    super(message);
    this.name = "InputRequiredInvalid";
  }
}
