// Private: a 2025-era upstream's server-to-client requests (elicitation,
// sampling, roots) during a tool call of a 2026-07-28 client, which has no
// server-to-client requests: the call is parked in this process, the client
// gets its requests as an input-required result, and its retry answers them
// and resumes the call. Unlike everything else serve does in the 2026 era,
// this keeps state between two requests of the client (the upstream's call
// is open meanwhile): the retry must reach the same process, within the
// tool's deadline, which runs from the first request.

import { type CallDeadline, callDeadline } from "./_call_deadline.ts";
import { relayInputRequired } from "./_input_required.ts";
import { type OpenedState, RequestStateRefused, type RequestStateSeal } from "./_request_state.ts";
import type { Upstream, UpstreamCallContext, UpstreamRequest } from "./upstream.ts";

/** One server-to-client request of the upstream, waiting for the client's answer. */
interface Outstanding {
  request: UpstreamRequest;
  answer(response: Record<string, unknown>): void;
}

/** What a parked call did next. */
export type ParkedEvent =
  | { kind: "requests"; requests: ReadonlyMap<string, UpstreamRequest> }
  | { kind: "done"; result: Record<string, unknown> }
  | { kind: "failed"; error: unknown };

/** A tool call whose upstream asks the client for input with server-to-client requests. */
export class ParkedCall {
  #id: string | undefined;
  readonly #outstanding = new Map<string, Outstanding>();
  #count = 0;
  #end: ParkedEvent | undefined;
  #wake: (() => void) | undefined;
  /** Cancels the upstream call. */
  readonly abort: AbortController = new AbortController();
  /**
   * Ends the upstream call at the tool's deadline (from the first request);
   * its timer is cleared when the call ends.
   */
  deadline: CallDeadline | undefined;
  /** A request of the client is waiting on it. */
  busy = false;
  /** The client's request waiting on it: the upstream's progress and logging go there. */
  context: UpstreamCallContext | undefined;

  /** Its ID in the sealed state (made when first asked: most calls are never parked). */
  get id(): string {
    return this.#id ??= crypto.randomUUID();
  }

  /** Whether it has an ID (it may be parked). */
  get named(): boolean {
    return this.#id !== undefined;
  }

  /**
   * Starts the upstream call; `onRequest` is what the upstream's requests go
   * through while it runs.
   */
  start(
    run: (
      onRequest: (request: UpstreamRequest) => Promise<Record<string, unknown>>,
    ) => Promise<Record<string, unknown>>,
    onEnd: () => void,
  ): void {
    run((request) => this.#ask(request)).then(
      (result) => this.#finish({ kind: "done", result }),
      (error) => this.#finish({ kind: "failed", error }),
    ).finally(onEnd);
  }

  /** The upstream's requests the client has not answered, by input-request key. */
  get outstanding(): ReadonlyMap<string, UpstreamRequest> {
    return new Map([...this.#outstanding].map(([key, o]) => [key, o.request]));
  }

  /** Whether the call ended. */
  get ended(): boolean {
    return this.#end !== undefined;
  }

  /** Answers the upstream's requests the client answered; returns how many. */
  answer(responses: Readonly<Record<string, unknown>> | undefined): number {
    let answered = 0;
    for (const [key, outstanding] of [...this.#outstanding]) {
      const response = responses?.[key];
      if (typeof response !== "object" || response === null || Array.isArray(response)) continue;
      this.#outstanding.delete(key);
      outstanding.answer(response as Record<string, unknown>);
      answered++;
    }
    return answered;
  }

  /**
   * Waits until the call ends or the upstream asks something the client has
   * not answered. `signal` (the client's request) cancels the call.
   */
  async next(signal: AbortSignal | undefined): Promise<ParkedEvent> {
    const onAbort = () => this.abort.abort(signal!.reason);
    if (signal?.aborted) onAbort();
    else signal?.addEventListener("abort", onAbort, { once: true });
    try {
      while (this.#end === undefined && this.#outstanding.size === 0) {
        await new Promise<void>((resolve) => (this.#wake = resolve));
      }
    } finally {
      signal?.removeEventListener("abort", onAbort);
    }
    return this.#end ?? { kind: "requests", requests: this.outstanding };
  }

  #ask(request: UpstreamRequest): Promise<Record<string, unknown>> {
    const key = `${request.method}#${++this.#count}`;
    return new Promise((resolve, reject) => {
      this.#outstanding.set(key, { request, answer: resolve });
      request.signal?.addEventListener("abort", () => {
        // The upstream gave up on its request: it is no longer the client's to answer.
        if (this.#outstanding.delete(key)) reject(request.signal!.reason);
      }, { once: true });
      this.#wake?.();
    });
  }

  #finish(event: ParkedEvent): void {
    this.#end = event;
    this.#outstanding.clear();
    this.#wake?.();
  }
}

/** The parked calls of this process, by ID, at most `max`. */
export class ParkedCalls {
  readonly #calls = new Map<string, ParkedCall>();
  readonly #max: number;

  constructor(max: number) {
    this.#max = max;
  }

  /** Whether another call may be parked. */
  get full(): boolean {
    return this.#calls.size >= this.#max;
  }

  /** The limit. */
  get max(): number {
    return this.#max;
  }

  park(call: ParkedCall): void {
    this.#calls.set(call.id, call);
  }

  get(id: string): ParkedCall | undefined {
    return this.#calls.get(id);
  }

  delete(id: string): void {
    this.#calls.delete(id);
  }

  /** Cancels every parked call (serve is closing). */
  abortAll(reason: unknown): void {
    for (const call of this.#calls.values()) call.abort.abort(reason);
    this.#calls.clear();
  }
}

/** What one request of a 2026-07-28 client gets from a tool call of an upstream. */
export type ParkedStep =
  | { kind: "input"; result: Record<string, unknown> }
  | { kind: "done"; result: Record<string, unknown> }
  | { kind: "failed"; error: unknown; timedOut: boolean };

/** What {@linkcode stepParked} needs. */
export interface ParkedStepOptions {
  calls: ParkedCalls;
  seal: RequestStateSeal;
  upstream: Upstream;
  /** The tools/call params to send (a retry's included). */
  params: Record<string, unknown>;
  /** The sealed state of the client's retry, opened. */
  opened: OpenedState | undefined;
  binding: string;
  /** The client's side: its answers, its signal, its progress and logging. */
  context: UpstreamCallContext & { inputResponses?: Readonly<Record<string, unknown>> };
  timeoutMs: number;
  maxRounds: number;
}

/**
 * Runs a tool call of a 2026-07-28 client on an upstream, or continues the
 * parked one the client's retry names: the upstream's result, or its
 * server-to-client requests as an input-required result (the call parked).
 *
 * @throws {RequestStateRefused} when the retry names a call that is not parked here.
 */
export async function stepParked(options: ParkedStepOptions): Promise<ParkedStep> {
  const { calls, opened, context } = options;
  let call: ParkedCall;
  if (opened?.pending !== undefined) {
    const found = calls.get(opened.pending);
    if (found === undefined || found.ended) {
      throw new RequestStateRefused(
        "the call it continues is no longer running in this serve process (it ended or timed out, or another instance started it)",
      );
    }
    if (found.busy) {
      throw new RequestStateRefused("another request is continuing the same call");
    }
    call = found;
    call.answer(context.inputResponses);
  } else {
    call = new ParkedCall();
    // One timer, cleared when the call ends (not one left pending for the
    // whole deadline, as AbortSignal.timeout would), and one signal.
    const deadline = callDeadline(options.timeoutMs, call.abort.signal);
    call.deadline = deadline;
    const signal = deadline.signal;
    const relay: UpstreamCallContext = {
      ...(context.caller === undefined ? {} : { caller: context.caller }),
      ...(context.clientCapabilities === undefined
        ? {}
        : { clientCapabilities: context.clientCapabilities }),
      returnInputRequired: true,
      ...(context.toolInputSchema === undefined
        ? {}
        : { toolInputSchema: context.toolInputSchema }),
      signal,
      onProgress: (progress) => call.context?.onProgress?.(progress),
      onNotification: (notification) => call.context?.onNotification?.(notification),
    };
    call.start(
      (onRequest) =>
        options.upstream.request("tools/call", options.params, { ...relay, onRequest }),
      () => {
        deadline.clear();
        if (call.named) calls.delete(call.id);
      },
    );
  }
  call.busy = true;
  call.context = context;
  let event: ParkedEvent;
  try {
    event = await call.next(context.signal);
  } finally {
    call.busy = false;
    call.context = undefined;
  }
  if (event.kind === "done") return event;
  if (event.kind === "failed") {
    return { kind: "failed", error: event.error, timedOut: call.deadline?.expired === true };
  }
  const inputRequests = Object.fromEntries(
    [...event.requests].map((
      [key, r],
    ) => [key, { method: r.method, params: withoutToken(r.params) }]),
  );
  try {
    if (calls.get(call.id) === undefined && calls.full) {
      throw new Error(
        `serve holds ${calls.max} calls waiting for their clients' input; try again later`,
      );
    }
    const result = await relayInputRequired(
      options.seal,
      { resultType: "input_required", inputRequests },
      {
        binding: options.binding,
        upstream: options.upstream.name,
        round: opened?.round ?? 0,
        maxRounds: options.maxRounds,
        pending: call.id,
      },
    );
    calls.park(call);
    return { kind: "input", result };
  } catch (error) {
    call.abort.abort(error);
    return { kind: "failed", error, timedOut: false };
  }
}

/** A request's params without the upstream hop's progress token (not the client's). */
function withoutToken(params: Record<string, unknown> | undefined): Record<string, unknown> {
  const meta = params?._meta as Record<string, unknown> | undefined;
  if (params === undefined) return {};
  if (typeof meta !== "object" || meta === null || !("progressToken" in meta)) return params;
  const { progressToken: _, ...rest } = meta;
  const { _meta: __, ...body } = params;
  return Object.keys(rest).length === 0 ? body : { ...body, _meta: rest };
}
