/**
 * The gateway: the served tools of a runner (and its chains and upstream
 * servers) with every call checked: arguments against the input schema before
 * anything runs, results against the output schema, a deadline and an output
 * cap per tool. Transport-neutral: `createMcpServer` puts it on the wire.
 *
 * @module
 */

import { DefaultValidator } from "../model/mod.ts";
import type { McpCallResult, Runner } from "../run/mod.ts";
import type { AccessOutcome } from "./access_log.ts";
import { buildCatalog } from "./catalog.ts";
import { scrubValue } from "./_scrub.ts";
import { callServed } from "./_gateway_call.ts";
import {
  DEFAULT_MAX_PARKED_CALLS,
  DEFAULT_REQUEST_STATE_TTL_MS,
  type GatewayCore,
  servedCapabilities,
} from "./_gateway_core.ts";
import { GatewayProtocolError, INVALID_PARAMS, namesOf } from "./_gateway_errors.ts";
import { forwardRequest } from "./_gateway_forward.ts";
import { ListWatch } from "./_gateway_watch.ts";
import type { CallContext, GatewayOptions } from "./_gateway_options.ts";
import { outcomeOf } from "./_gateway_results.ts";
import { ParkedCalls } from "./_parked_calls.ts";
import { RequestStateSeal } from "./_request_state.ts";
import type { UpstreamCapabilities, UpstreamMethod } from "./upstream.ts";

export type { CallContext, GatewayOptions } from "./_gateway_options.ts";
export { GatewayProtocolError } from "./_gateway_errors.ts";

/**
 * A manifest's tools, chains and upstream servers as one checked MCP surface.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Runner } from "@toolfoundation/core/run";
 * import { Gateway } from "@toolfoundation/core/serve";
 *
 * const runner = new Runner();
 * runner.addLocalTool({
 *   name: "add",
 *   inputSchema: {
 *     type: "object",
 *     properties: { a: { type: "number" }, b: { type: "number" } },
 *     required: ["a", "b"],
 *   },
 * }, (args) => ({ sum: (args.a as number) + (args.b as number) }));
 * const gateway = await Gateway.create(runner);
 * assert.deepEqual(gateway.listTools().map((t) => t.name), ["add"]);
 * const ok = await gateway.callTool("add", { a: 1, b: 2 }, { caller: "test" });
 * assert.deepEqual(ok.structuredContent, { sum: 3 });
 * const bad = await gateway.callTool("add", { a: 1 }, { caller: "test" });
 * assert.equal(bad.isError, true);
 * await gateway.close();
 * ```
 */
export class Gateway {
  readonly #core: GatewayCore;
  readonly #watch: ListWatch;

  private constructor(core: GatewayCore) {
    this.#core = core;
    this.#watch = new ListWatch([...core.upstreams.values()]);
  }

  /**
   * Builds the gateway: the catalog (a name clash throws here, at start) and
   * the capabilities of each upstream (an unreachable one offers only the
   * tools the runner registered for it).
   *
   * @param runner The runner whose registry holds the tools.
   * @param options Chains, prefixes, upstreams, limits and the access log.
   * @returns The gateway.
   * @throws {ServeError} `name_clash` when two tools would share a name.
   */
  static async create(runner: Runner, options: GatewayOptions = {}): Promise<Gateway> {
    const upstreams = options.upstreams ?? [];
    const tools = buildCatalog(runner.registry, {
      chains: options.chains,
      prefixes: options.prefixes,
      upstreams: new Set(upstreams.map((u) => u.name)),
    });
    const capabilities = new Map<string, UpstreamCapabilities>();
    await Promise.all(upstreams.map(async (u) => {
      try {
        capabilities.set(u.name, await u.capabilities(AbortSignal.timeout(30_000)));
      } catch {
        capabilities.set(u.name, {});
      }
    }));
    const seal = await RequestStateSeal.create(
      options.requestStateKey,
      options.requestStateTtlMs ?? DEFAULT_REQUEST_STATE_TTL_MS,
    );
    return new Gateway({
      runner,
      tools: new Map(tools.map((t) => [t.name, t])),
      upstreams: new Map(upstreams.map((u) => [u.name, u])),
      capabilities,
      options,
      validator: options.validator ?? new DefaultValidator(),
      routes: new Map(),
      seal,
      parked: new ParkedCalls(options.maxParkedCalls ?? DEFAULT_MAX_PARKED_CALLS),
    });
  }

  /** What the served MCP server offers beyond tools, from its upstreams. */
  get capabilities(): {
    tools?: { listChanged?: boolean };
    resources?: { subscribe?: boolean; listChanged?: boolean };
    prompts?: { listChanged?: boolean };
    completions?: Record<string, never>;
  } {
    return servedCapabilities(
      [...this.#core.upstreams.values()].map((u) => ({
        capabilities: this.#core.capabilities.get(u.name) ?? {},
        watched: this.#watch.watches(u),
      })),
    );
  }

  /**
   * Listens for changes of the lists clients see: an upstream's tools,
   * prompts or resources it announces as changed (see
   * {@linkcode Upstream.watchLists}), passed on by the transports as
   * `list_changed` notifications (on `subscriptions/listen` streams in the
   * 2026-07-28 era). The first listener starts watching the upstreams that
   * announce changes (`listChanged` in their capabilities); close() ends it.
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import { Runner } from "@toolfoundation/core/run";
   * import { Gateway, type Upstream } from "@toolfoundation/core/serve";
   *
   * const upstream: Upstream = {
   *   name: "docs",
   *   capabilities: () => Promise.resolve({ prompts: { listChanged: true } }),
   *   request: () => Promise.resolve({ prompts: [] }),
   *   watchLists: (onChange, signal) => {
   *     onChange("prompts");
   *     return new Promise((resolve) => signal.addEventListener("abort", () => resolve()));
   *   },
   *   close: () => Promise.resolve(),
   * };
   * const gateway = await Gateway.create(new Runner(), { upstreams: [upstream] });
   * assert.deepEqual(gateway.capabilities.prompts, { listChanged: true });
   * const changed: string[] = [];
   * const stop = gateway.onListChanged((kind) => changed.push(kind));
   * assert.deepEqual(changed, ["prompts"]);
   * stop();
   * await gateway.close();
   * ```
   *
   * @param listener Gets the kind of each list that changed.
   * @returns What removes the listener.
   */
  onListChanged(listener: (kind: "tools" | "prompts" | "resources") => void): () => void {
    return this.#watch.listen(listener);
  }

  /**
   * Scrubs secrets from a text with the `redact` option (the text itself
   * without one).
   *
   * @param text The text.
   * @returns The text without secrets.
   */
  redact(text: string): string {
    return this.#core.options.redact === undefined ? text : this.#core.options.redact(text);
  }

  /**
   * A copy of a JSON value (a result, an error's data, a notification's
   * params) with the `redact` option applied to its strings only: keys,
   * numbers and structure stay. The transports apply it to everything they
   * send.
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import { Runner } from "@toolfoundation/core/run";
   * import { Gateway } from "@toolfoundation/core/serve";
   *
   * const redact = (text: string) => text.replaceAll("s3cr3t-value", "***");
   * const gateway = await Gateway.create(new Runner(), { redact });
   * assert.deepEqual(
   *   gateway.scrub({ content: [{ type: "text", text: "key s3cr3t-value" }], "s3cr3t-value": 1 }),
   *   { content: [{ type: "text", text: "key ***" }], "s3cr3t-value": 1 },
   * );
   * await gateway.close();
   * ```
   *
   * @param value The value.
   * @returns The scrubbed copy (the value itself without a `redact` option).
   */
  scrub<T>(value: T): T {
    const redact = this.#core.options.redact;
    return redact === undefined ? value : scrubValue(value, redact);
  }

  /** The served tools' definitions, exactly as registered (for `tools/list`). */
  listTools(): Record<string, unknown>[] {
    return [...this.#core.tools.values()].map((t) => ({ ...t.definition }));
  }

  /**
   * The served tools one call of `name` can run: the tool itself and, for a
   * chain, the served tool of each step (a step whose tool is not served
   * counts under its tool ID). A check that guards a tool by name (OAuth
   * scopes per tool) must require what every one of these requires, or a
   * chain would run a tool its caller may not call.
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import { Runner } from "@toolfoundation/core/run";
   * import { Gateway } from "@toolfoundation/core/serve";
   *
   * const runner = new Runner();
   * runner.addLocalTool({ name: "add", inputSchema: { type: "object" } }, () => 3);
   * const gateway = await Gateway.create(runner, {
   *   chains: { twice: { steps: [{ toolId: "add" }, { toolId: "add" }] } },
   * });
   * assert.deepEqual(gateway.toolsReachedBy("twice"), ["twice", "add"]);
   * assert.deepEqual(gateway.toolsReachedBy("add"), ["add"]);
   * assert.deepEqual(gateway.toolsReachedBy("missing"), []);
   * await gateway.close();
   * ```
   *
   * @param name The served name.
   * @returns The served names (the tool first, no repeats); empty for an unknown name.
   */
  toolsReachedBy(name: string): string[] {
    const served = this.#core.tools.get(name);
    if (served === undefined) return [];
    const out = new Set([name]);
    if (served.target.kind === "chain") {
      for (const step of served.target.steps) {
        const match = [...this.#core.tools.values()].find((t) =>
          t.target.kind !== "chain" && t.target.toolId === step.toolId
        );
        out.add(match?.name ?? step.toolId);
      }
    }
    return [...out];
  }

  /**
   * Calls a served tool. Invalid arguments, a tool error, a deadline or an
   * output problem are `isError` results; an unknown tool throws a
   * {@linkcode GatewayProtocolError} (JSON-RPC invalid params). An upstream
   * asking the client for input (2026-07-28) gives an input-required result
   * (`resultType: "input_required"`, `inputRequests`, a sealed
   * `requestState`, no `content`); the client's retry passes its answers and
   * that state in `context`, and a state serve did not seal for this caller
   * and tool throws a {@linkcode GatewayProtocolError} (invalid params).
   *
   * @param name The served name.
   * @param args The arguments.
   * @param context The caller, signal and the ways back to the client (and a retry's answers).
   * @returns The MCP result, or an input-required one.
   */
  async callTool(
    name: string,
    args: Record<string, unknown>,
    context: CallContext,
  ): Promise<McpCallResult> {
    const started = performance.now();
    let outcome: AccessOutcome = "ok";
    try {
      const served = this.#core.tools.get(name);
      if (served === undefined) {
        outcome = "unknown_tool";
        throw new GatewayProtocolError(
          INVALID_PARAMS,
          `Unknown tool: ${name}; tools: ${
            namesOf([...this.#core.tools.keys()])
          } (tools/list has them)`,
        );
      }
      const result = await callServed(this.#core, served, args, context);
      if (result.outcome !== "ok") outcome = result.outcome;
      return result.result;
    } catch (error) {
      if (outcome === "ok") outcome = outcomeOf(error);
      throw error;
    } finally {
      this.#core.options.onAccess?.(this.scrub({
        time: new Date().toISOString(),
        tool: name,
        durationMs: Math.round((performance.now() - started) * 1000) / 1000,
        outcome,
        caller: context.caller,
        ...(this.#core.options.logArgs ? { args } : {}),
      }));
    }
  }

  /**
   * Forwards a resources, prompts or completion request to the upstream that
   * owns it; lists merge every upstream's entries.
   *
   * @param method The method.
   * @param params Its parameters.
   * @param context The caller, signal and the ways back to the client.
   * @returns The result.
   */
  async forward(
    method: Exclude<UpstreamMethod, "tools/list" | "tools/call">,
    params: Record<string, unknown>,
    context: CallContext,
  ): Promise<Record<string, unknown>> {
    return await forwardRequest(this.#core, method, params, context);
  }

  /** Closes the runner and every upstream. */
  async close(): Promise<void> {
    this.#watch.close();
    this.#core.parked.abortAll(new Error("serve is closing"));
    await Promise.allSettled([
      this.#core.runner.close(),
      ...[...this.#core.upstreams.values()].map((u) => u.close()),
    ]);
  }
}
