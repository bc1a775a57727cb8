// Private: the gateway's requests other than tools: resources, prompts and
// completions forwarded to the upstream that owns them (learnt from the
// lists, which merge every upstream's entries and cache hints).

import { type GatewayCore, upstreamContextOf } from "./_gateway_core.ts";
import {
  GatewayProtocolError,
  INTERNAL_ERROR,
  INVALID_PARAMS,
  METHOD_NOT_FOUND,
  RESOURCE_NOT_FOUND,
} from "./_gateway_errors.ts";
import { openRetryOf, relay } from "./_gateway_input.ts";
import type { CallContext } from "./_gateway_options.ts";
import { bindingOf, INPUT_REQUIRED_METHODS, isInputRequired } from "./_input_required.ts";
import type { UpstreamCallContext, UpstreamMethod } from "./upstream.ts";

/**
 * Forwards a resources, prompts or completion request to the upstream that
 * owns it; lists merge every upstream's entries.
 */
export async function forwardRequest(
  core: GatewayCore,
  method: Exclude<UpstreamMethod, "tools/list" | "tools/call">,
  params: Record<string, unknown>,
  context: CallContext,
): Promise<Record<string, unknown>> {
  const upstreamContext = { ...upstreamContextOf(context), signal: context.signal };
  const offering = (key: "resources" | "prompts" | "completions") =>
    [...core.upstreams.values()].filter((u) => core.capabilities.get(u.name)?.[key]);
  const list = async (
    key: "resources" | "resourceTemplates" | "prompts",
    kind: "resources" | "prompts",
  ) => {
    const items: unknown[] = [];
    const results: Record<string, unknown>[] = [];
    for (const upstream of offering(kind)) {
      const result = await upstream.request(method, {}, upstreamContext);
      results.push(result);
      for (const item of (result[key] as Record<string, unknown>[] | undefined) ?? []) {
        const id = String(item.uri ?? item.uriTemplate ?? item.name);
        core.routes.set(`${kind}\0${id}`, upstream.name);
        items.push(item);
      }
    }
    return { [key]: items, ...mergedCacheHints(results) };
  };
  switch (method) {
    case "resources/list":
      return await list("resources", "resources");
    case "resources/templates/list":
      return await list("resourceTemplates", "resources");
    case "prompts/list":
      return await list("prompts", "prompts");
    case "resources/read":
    case "prompts/get":
      return await forwardInputCapable(core, method, params, context, upstreamContext);
    case "resources/subscribe":
    case "resources/unsubscribe":
      return (await routed(core, "resources", String(params.uri), method, params, upstreamContext))
        .result;
    case "completion/complete": {
      const ref = params.ref as { type?: string; name?: string; uri?: string } | undefined;
      const kind = ref?.type === "ref/prompt" ? "prompts" : "resources";
      const key = ref?.type === "ref/prompt" ? ref?.name : ref?.uri;
      const owner = core.routes.get(`${kind}\0${key}`) ?? offering("completions")[0]?.name;
      const upstream = owner === undefined ? undefined : core.upstreams.get(owner);
      if (upstream === undefined) return { completion: { values: [], hasMore: false } };
      return await upstream.request(method, params, upstreamContext);
    }
  }
}

/**
 * `prompts/get` or `resources/read`, whose result may be input-required:
 * a client's retry goes to the upstream that asked (named in the sealed
 * state), with the upstream's own state.
 */
async function forwardInputCapable(
  core: GatewayCore,
  method: "prompts/get" | "resources/read",
  params: Record<string, unknown>,
  context: CallContext,
  upstreamContext: UpstreamCallContext,
): Promise<Record<string, unknown>> {
  const kind = method === "prompts/get" ? "prompts" : "resources";
  const key = String(method === "prompts/get" ? params.name : params.uri);
  const binding = bindingOf(context.caller, method, key);
  const retry = await openRetryOf(core, context, binding, params, undefined);
  const answered = await routed(
    core,
    kind,
    key,
    method,
    retry.params,
    upstreamContext,
    retry.opened?.upstream,
  );
  if (!INPUT_REQUIRED_METHODS.has(method) || !isInputRequired(answered.result)) {
    return answered.result;
  }
  try {
    return await relay(core, answered.result, binding, answered.upstream, retry.opened);
  } catch (error) {
    throw new GatewayProtocolError(
      INTERNAL_ERROR,
      `upstream server ${JSON.stringify(answered.upstream)} answered ${method} of ${
        JSON.stringify(key)
      } with an input-required result that is not passed on: ${(error as Error).message}`,
    );
  }
}

/**
 * Sends a request about one resource or prompt to the upstream that listed
 * it (or `pinned`), else to each upstream offering the kind until one
 * answers.
 */
async function routed(
  core: GatewayCore,
  kind: "resources" | "prompts",
  key: string,
  method: UpstreamMethod,
  params: Record<string, unknown>,
  context: UpstreamCallContext,
  pinned?: string,
): Promise<{ result: Record<string, unknown>; upstream: string }> {
  const owner = pinned ?? core.routes.get(`${kind}\0${key}`);
  const known = owner === undefined ? undefined : core.upstreams.get(owner);
  const candidates = known !== undefined
    ? [known]
    : [...core.upstreams.values()].filter((u) => core.capabilities.get(u.name)?.[kind]);
  let last: unknown;
  for (const upstream of candidates) {
    try {
      return { result: await upstream.request(method, params, context), upstream: upstream.name };
    } catch (error) {
      last = error;
    }
  }
  if (last !== undefined && candidates.length === 1) throw last;
  if (candidates.length === 0) {
    throw new GatewayProtocolError(METHOD_NOT_FOUND, `no upstream server offers ${kind}`);
  }
  throw last ?? new GatewayProtocolError(
    kind === "resources" ? RESOURCE_NOT_FOUND : INVALID_PARAMS,
    `${kind === "resources" ? "resource" : "prompt"} ${JSON.stringify(key)} not found`,
  );
}

/**
 * The cache hints (SEP-2549) of a list merged from several upstreams' lists:
 * the shortest `ttlMs`, and `cacheScope` "public" only when every list is
 * public. A hint that one list lacks is left out (the transport then sends
 * the safe default: not cached, private).
 */
function mergedCacheHints(
  results: readonly Record<string, unknown>[],
): { ttlMs?: number; cacheScope?: "public" | "private" } {
  if (results.length === 0) return {};
  const ttls = results.map((r) => r.ttlMs);
  const scopes = results.map((r) => r.cacheScope);
  const out: { ttlMs?: number; cacheScope?: "public" | "private" } = {};
  if (ttls.every((t) => Number.isSafeInteger(t) && (t as number) >= 0)) {
    out.ttlMs = Math.min(...ttls as number[]);
  }
  if (scopes.every((s) => s === "public" || s === "private")) {
    out.cacheScope = scopes.every((s) => s === "public") ? "public" : "private";
  }
  return out;
}
