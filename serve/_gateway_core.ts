// Private: what the gateway's parts share (its runner, catalog, upstreams
// and their capabilities, the routes learnt from lists, the requestState
// seal and the parked calls), and the upstream side of a downstream call.

import type { Runner } from "../run/mod.ts";
import type { SchemaValidator } from "../model/mod.ts";
import type { ServedTool } from "./catalog.ts";
import type { ParkedCalls } from "./_parked_calls.ts";
import type { RequestStateSeal } from "./_request_state.ts";
import type { CallContext, GatewayOptions } from "./_gateway_options.ts";
import type { Upstream, UpstreamCallContext, UpstreamCapabilities } from "./upstream.ts";

/** How long a sealed `requestState` is accepted by default (the SDK's own default for its codec). */
export const DEFAULT_REQUEST_STATE_TTL_MS = 600_000;
/** Input-required results in one call by default (the SDK client's own cap of rounds). */
export const DEFAULT_MAX_INPUT_ROUNDS = 10;
/** Calls parked for their client's input at most by default. */
export const DEFAULT_MAX_PARKED_CALLS = 256;

/** The state of one gateway, shared by its parts. */
export interface GatewayCore {
  /** The runner whose registry holds the tools. */
  readonly runner: Runner;
  /** The served tools by served name. */
  readonly tools: Map<string, ServedTool>;
  /** The upstreams by name. */
  readonly upstreams: Map<string, Upstream>;
  /** What each upstream offers (`{}` for one that could not be asked). */
  readonly capabilities: Map<string, UpstreamCapabilities>;
  /** The gateway's options. */
  readonly options: GatewayOptions;
  /** Validates calls. */
  readonly validator: SchemaValidator;
  /** The upstream that listed a resource or prompt, by `kind\0id`. */
  readonly routes: Map<string, string>;
  /** Seals the `requestState` of input-required results. */
  readonly seal: RequestStateSeal;
  /** Calls of 2026-07-28 clients held open for their client's input. */
  readonly parked: ParkedCalls;
}

/** What the served MCP server offers beyond its tools' calls. */
export interface ServedCapabilities {
  /** Tools' `listChanged`, when an upstream watched announces changes of its tools. */
  tools?: { listChanged?: boolean };
  /** Resources (and `subscribe`, `listChanged`). */
  resources?: { subscribe?: boolean; listChanged?: boolean };
  /** Prompts (and `listChanged`). */
  prompts?: { listChanged?: boolean };
  /** Completions. */
  completions?: Record<string, never>;
}

/**
 * What the served MCP server offers beyond its tools' calls, from its
 * upstreams' capabilities: a list is announced as changing (`listChanged`)
 * when an upstream that can be watched (`watched`) announces it.
 */
export function servedCapabilities(
  upstreams: Iterable<{ capabilities: UpstreamCapabilities; watched: boolean }>,
): ServedCapabilities {
  const all = [...upstreams];
  const changing = (kind: "tools" | "prompts" | "resources") =>
    all.some((u) => u.watched && u.capabilities[kind]?.listChanged === true);
  const out: ServedCapabilities = {};
  if (changing("tools")) out.tools = { listChanged: true };
  if (all.some((u) => u.capabilities.resources)) {
    out.resources = {
      ...(all.some((u) => u.capabilities.resources?.subscribe) ? { subscribe: true } : {}),
      ...(changing("resources") ? { listChanged: true } : {}),
    };
  }
  if (all.some((u) => u.capabilities.prompts)) {
    out.prompts = changing("prompts") ? { listChanged: true } : {};
  }
  if (all.some((u) => u.capabilities.completions)) out.completions = {};
  return out;
}

/** The upstream side of a downstream call (its signal left to the caller). */
export function upstreamContextOf(context: CallContext): UpstreamCallContext {
  return {
    caller: context.caller,
    returnInputRequired: true,
    ...(context.onProgress === undefined ? {} : { onProgress: context.onProgress }),
    ...(context.onNotification === undefined ? {} : { onNotification: context.onNotification }),
    ...(context.onRequest === undefined ? {} : { onRequest: context.onRequest }),
    ...(context.clientCapabilities === undefined
      ? {}
      : { clientCapabilities: context.clientCapabilities }),
    ...(context.clientEra === undefined ? {} : { clientEra: context.clientEra }),
  };
}
