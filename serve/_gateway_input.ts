// Private: the gateway's side of input-required results (2026-07-28): a
// client's retry opened against the seal (and the upstream that asked), a
// 2026-07-28 client's call to a 2025-era upstream stepped through the parked
// calls, and an upstream's input-required result relayed with its state
// sealed and its rounds counted.

import { DEFAULT_MAX_INPUT_ROUNDS, type GatewayCore, upstreamContextOf } from "./_gateway_core.ts";
import { refusedState } from "./_gateway_errors.ts";
import type { CallContext } from "./_gateway_options.ts";
import { openRetry, relayInputRequired } from "./_input_required.ts";
import { type ParkedStep, stepParked } from "./_parked_calls.ts";
import { type OpenedState, RequestStateRefused } from "./_request_state.ts";
import type { Upstream } from "./upstream.ts";

/** A client's retry, opened: the upstream's own state, and the params to send it. */
export interface OpenedRetry {
  /** The sealed state, opened (undefined for a first request). */
  opened: OpenedState | undefined;
  /** The params to send the upstream. */
  params: Record<string, unknown>;
}

/**
 * The params of a request to an upstream with a client's retry of an
 * input-required result: its `inputResponses`, and the upstream's own
 * state out of the sealed one (refused with invalid params when serve did
 * not seal it for this caller and target, or for another upstream).
 */
export async function openRetryOf(
  core: GatewayCore,
  context: CallContext,
  binding: string,
  params: Record<string, unknown>,
  upstream: string | undefined,
): Promise<OpenedRetry> {
  try {
    const retry = await openRetry(core.seal, context, binding, params);
    if (
      upstream !== undefined && retry.opened !== undefined && retry.opened.upstream !== upstream
    ) {
      throw new RequestStateRefused(
        `the requestState was issued by upstream server ${JSON.stringify(retry.opened.upstream)}`,
      );
    }
    return retry;
  } catch (error) {
    if (error instanceof RequestStateRefused) throw refusedState(error);
    throw error;
  }
}

/**
 * One request of a 2026-07-28 client's tool call: the upstream's result,
 * or its server-to-client requests as an input-required result (see
 * {@linkcode CallContext.clientEra}).
 */
export async function stepParkedCall(
  core: GatewayCore,
  upstream: Upstream,
  binding: string,
  retry: OpenedRetry,
  context: CallContext,
  timeoutMs: number,
  toolInputSchema?: unknown,
): Promise<ParkedStep> {
  try {
    return await stepParked({
      calls: core.parked,
      seal: core.seal,
      upstream,
      params: retry.params,
      opened: retry.opened,
      binding,
      context: {
        ...upstreamContextOf(context),
        ...(toolInputSchema === undefined ? {} : { toolInputSchema }),
        signal: context.signal,
        inputResponses: context.inputResponses,
      },
      timeoutMs,
      maxRounds: core.options.maxInputRounds ?? DEFAULT_MAX_INPUT_ROUNDS,
    });
  } catch (error) {
    if (error instanceof RequestStateRefused) throw refusedState(error);
    throw error;
  }
}

/** An upstream's input-required result as the client gets it (its state sealed, its rounds counted). */
export function relay(
  core: GatewayCore,
  raw: Record<string, unknown>,
  binding: string,
  upstream: string,
  opened: OpenedState | undefined,
): Promise<Record<string, unknown>> {
  return relayInputRequired(core.seal, raw, {
    binding,
    upstream,
    round: opened?.round ?? 0,
    maxRounds: core.options.maxInputRounds ?? DEFAULT_MAX_INPUT_ROUNDS,
  });
}
