// Private: one call of an upstream's tool through the gateway: the arguments
// checked here, then the call forwarded (for a 2026-07-28 client, stepped
// through the parked calls), and its result checked on the way back: the
// deadline, the output cap, an input-required result relayed with its state
// sealed, the output schema.

import { DEFAULT_MAX_OUTPUT_BYTES, InputValidationError, type McpCallResult } from "../run/mod.ts";
import type { ServedTarget, ServedTool } from "./catalog.ts";
import { type GatewayCore, upstreamContextOf } from "./_gateway_core.ts";
import { GatewayProtocolError, MISSING_CLIENT_CAPABILITY } from "./_gateway_errors.ts";
import { openRetryOf, relay, stepParkedCall } from "./_gateway_input.ts";
import type { CallContext } from "./_gateway_options.ts";
import { type CallOutcome, detail, errorResult, failed } from "./_gateway_results.ts";
import { bindingOf, isInputRequired } from "./_input_required.ts";
import { callDeadline, utf8LengthOver } from "./_call_deadline.ts";

/** Forwards one call of an upstream's tool and checks what comes back. */
export async function callUpstreamTool(
  core: GatewayCore,
  served: ServedTool,
  target: Extract<ServedTarget, { kind: "upstream" }>,
  args: Record<string, unknown>,
  context: CallContext,
  timeoutMs: number,
): Promise<CallOutcome> {
  // Forwarded to an upstream: check here, then pass everything through.
  try {
    await core.validator.validateInput(served.tool, args);
  } catch (failure) {
    return failed(new InputValidationError(target.toolId, args, detail(failure)));
  }
  const upstream = core.upstreams.get(target.server)!;
  const binding = bindingOf(context.caller, "tools/call", served.name);
  const params = { name: target.upstreamName, arguments: args };
  // A first call (no retry's state or answers) is forwarded as it is.
  const retry = context.requestState === undefined && context.inputResponses === undefined
    ? { opened: undefined, params }
    : await openRetryOf(core, context, binding, params, upstream.name);
  // A 2026-07-28 client's call runs under the parked call's deadline (it can
  // outlive this request); a 2025-era client's under this one.
  const deadline = context.clientEra === "modern"
    ? undefined
    : callDeadline(timeoutMs, context.signal);
  let raw: Record<string, unknown>;
  let timedOut = false;
  try {
    if (context.clientEra === "modern") {
      const step = await stepParkedCall(
        core,
        upstream,
        binding,
        retry,
        context,
        timeoutMs,
        served.tool.inputSchema,
      );
      if (step.kind === "input") {
        return { result: step.result as McpCallResult, outcome: "input_required" };
      }
      if (step.kind === "failed") {
        timedOut = step.timedOut;
        throw step.error;
      }
      raw = step.result;
    } else {
      raw = await upstream.request(
        "tools/call",
        retry.params,
        {
          ...upstreamContextOf(context),
          toolInputSchema: served.tool.inputSchema,
          signal: deadline!.signal,
        },
      );
    }
  } catch (error) {
    // A retry naming a call that is not parked here: invalid params, like any refused state.
    if (error instanceof GatewayProtocolError) throw error;
    if (deadline?.expired === true || timedOut) {
      return {
        result: errorResult(
          `tool ${JSON.stringify(served.name)} timed out after ${timeoutMs} ms`,
        ),
        outcome: "timeout",
      };
    }
    if (context.signal?.aborted) {
      return failed(Object.assign(new Error("cancelled"), { name: "AbortError" }));
    }
    // -32021 is a 2026-07-28 error: a 2025-era client gets it as a tool error.
    if (
      (error as { code?: unknown })?.code === MISSING_CLIENT_CAPABILITY &&
      context.clientEra === "modern"
    ) throw error;
    return failed(error);
  } finally {
    deadline?.clear();
  }
  const result = raw as McpCallResult;
  const max = core.options.toolMaxOutputBytes?.[target.toolId] ?? core.options.maxOutputBytes ??
    DEFAULT_MAX_OUTPUT_BYTES;
  const size = utf8LengthOver(JSON.stringify(result), max);
  if (size !== undefined) {
    return {
      result: errorResult(
        `the result of tool ${JSON.stringify(served.name)} is ${size} bytes; the limit is ${max}`,
      ),
      outcome: "error",
    };
  }
  if (isInputRequired(raw)) {
    try {
      const relayed = await relay(core, raw, binding, upstream.name, retry.opened);
      return { result: relayed as McpCallResult, outcome: "input_required" };
    } catch (error) {
      return {
        result: errorResult(
          `upstream server ${JSON.stringify(upstream.name)} answered tool ${
            JSON.stringify(served.name)
          } with an input-required result that is not passed on: ${(error as Error).message}`,
        ),
        outcome: "error",
      };
    }
  }
  if (result.isError === true) return { result, outcome: "tool_error" };
  if (served.tool.outputSchema !== undefined) {
    try {
      await core.validator.validateOutput(served.tool, result.structuredContent);
    } catch (failure) {
      return {
        result: errorResult(
          `the result of tool ${JSON.stringify(served.name)} does not match its output schema: ${
            detail(failure)
          }`,
        ),
        outcome: "invalid_output",
      };
    }
  }
  return { result, outcome: "ok" };
}
