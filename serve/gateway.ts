/**
 * The gateway: the served tools of a runner (and its chains and upstream
 * servers) with every call checked: arguments against the input schema before
 * anything runs, results against the output schema, a deadline and an output
 * cap per tool. Transport-neutral: `createMcpServer` puts it on the wire.
 *
 * @module
 */

import {
  DefaultValidator,
  formatFailures,
  SchemaValidationError,
  type SchemaValidator,
} from "../model/mod.ts";
import {
  DEFAULT_MAX_OUTPUT_BYTES,
  InputValidationError,
  type McpCallResult,
  type Runner,
  type RunResult,
  ToolResultError,
} from "../run/mod.ts";
import type { AccessLogEntry, AccessOutcome } from "./access_log.ts";
import { buildCatalog, type ServeChain, type ServedTool } from "./catalog.ts";
import { scrubValue } from "./_scrub.ts";
import {
  bindingOf,
  INPUT_REQUIRED_METHODS,
  isInputRequired,
  openRetry,
  relayInputRequired,
} from "./_input_required.ts";
import { type OpenedState, RequestStateRefused, RequestStateSeal } from "./_request_state.ts";
import { ParkedCalls, type ParkedStep, stepParked } from "./_parked_calls.ts";
import type {
  Upstream,
  UpstreamCallContext,
  UpstreamCapabilities,
  UpstreamMethod,
  UpstreamNotification,
  UpstreamRequest,
} from "./upstream.ts";

/** Options of {@linkcode Gateway.create}. */
export interface GatewayOptions {
  /** Chains served as tools, by name. */
  chains?: Readonly<Record<string, ServeChain>>;
  /** A tool-name prefix per MCP server. */
  prefixes?: Readonly<Record<string, string>>;
  /** Upstream servers: their tool calls, resources, prompts and completions are forwarded. */
  upstreams?: readonly Upstream[];
  /** Validates forwarded calls (default: a `DefaultValidator`). */
  validator?: SchemaValidator;
  /** Default deadline of a call in ms (default 60 000). */
  timeoutMs?: number;
  /** Deadlines by tool ID (the manifest's `timeoutMs`). */
  toolTimeouts?: Readonly<Record<string, number>>;
  /** Largest result of a forwarded call, in bytes of JSON (default 10 MiB). */
  maxOutputBytes?: number;
  /** Largest result by tool ID (the manifest's `maxOutputBytes` of the tool or its server). */
  toolMaxOutputBytes?: Readonly<Record<string, number>>;
  /** Receives one entry per call (the access log). */
  onAccess?: (entry: AccessLogEntry) => void;
  /** Puts the arguments into access-log entries (default false). */
  logArgs?: boolean;
  /**
   * Scrubs secrets from a text (e.g. the CLI's redactor, which knows every
   * resolved variable and OAuth token). Applied where data leaves: to the
   * strings of every result, error and notification the transports send
   * ({@linkcode Gateway.scrub}), to access-log entries and to telemetry.
   * Default: nothing is scrubbed.
   */
  redact?: (text: string) => string;
  /**
   * The key that seals the `requestState` of input-required results
   * (2026-07-28) that serve passes from an upstream to the client: at least
   * 32 bytes (a string is UTF-8). Default: a random key of this process, so
   * a client's retry must reach the same process; instances behind one
   * address need the same key.
   */
  requestStateKey?: Uint8Array | string;
  /** How long a sealed `requestState` is accepted, in ms (default 600 000: ten minutes). */
  requestStateTtlMs?: number;
  /**
   * Input-required results one call may get from an upstream, counted in
   * the sealed state across the client's retries (default 10): an upstream
   * that asks for more gets the client an error result instead.
   */
  maxInputRounds?: number;
  /**
   * Tool calls of 2026-07-28 clients held open in this process while their
   * 2025-era upstream waits for the client's answer to a server-to-client
   * request (default 256); beyond it such a call ends with an error result.
   */
  maxParkedCalls?: number;
}

/** The downstream side of one call. */
export interface CallContext {
  /** Who calls (for the access log, and upstreams' fair share of connections between callers). */
  caller: string;
  /**
   * A retry of an input-required result (2026-07-28): the client's answers,
   * by input-request key, passed to the upstream.
   */
  inputResponses?: Readonly<Record<string, unknown>>;
  /** A retry's `requestState`, as serve sealed it (opened here, the upstream's own sent on). */
  requestState?: string;
  /** Cancels the call. */
  signal?: AbortSignal;
  /** Sends progress to the client (only when it asked for progress). */
  onProgress?: (progress: { progress: number; total?: number; message?: string }) => void;
  /** Passes an upstream notification (logging) to the client. */
  onNotification?: (notification: UpstreamNotification) => void | Promise<void>;
  /** Passes an upstream's server-to-client request (sampling, elicitation) to the client. */
  onRequest?: (request: UpstreamRequest) => Promise<Record<string, unknown>>;
  /**
   * The capabilities the client declared (`{}` when unknown): upstreams are
   * offered the same sampling, elicitation and roots. Absent: all three, for
   * `onRequest` to answer.
   */
  clientCapabilities?: Readonly<Record<string, unknown>>;
  /**
   * The protocol era the downstream client speaks (`"modern"`: 2026-07-28).
   * An upstream that speaks both eras is spoken to in the same one, so that
   * what one era has and the other lacks (server-to-client requests during
   * a call, subscriptions) works as the client expects. Absent: the era the
   * upstream was found to speak. A `"modern"` client takes input-required
   * results and no server-to-client requests: a 2025-era upstream's
   * requests during a tool call then reach it as an input-required result,
   * the call parked in this process until the client's retry answers them
   * (within the tool's deadline); otherwise they go to `onRequest`.
   */
  clientEra?: "legacy" | "modern";
}

/** An MCP error the transport answers with a JSON-RPC error. */
export class GatewayProtocolError extends Error {
  /** The JSON-RPC error code. */
  readonly code: number;
  /**
   * Creates the instance.
   *
   * @param code The JSON-RPC error code.
   * @param message The message.
   */
  constructor(code: number, message: string) {
    super(message);
    this.name = "GatewayProtocolError";
    this.code = code;
  }
}

const INVALID_PARAMS = -32602;
const METHOD_NOT_FOUND = -32601;
const RESOURCE_NOT_FOUND = -32002;
/**
 * The upstream needs a client capability the client did not declare
 * (2026-07-28): passed on as the JSON-RPC error it is, not as a tool error,
 * so the client learns which capability to declare.
 */
const MISSING_CLIENT_CAPABILITY = -32021;
const INTERNAL_ERROR = -32603;
/** How long a sealed `requestState` is accepted by default (the SDK's own default for its codec). */
const DEFAULT_REQUEST_STATE_TTL_MS = 600_000;
/** Input-required results in one call by default (the SDK client's own cap of rounds). */
const DEFAULT_MAX_INPUT_ROUNDS = 10;
/** Calls parked for their client's input at most by default. */
const DEFAULT_MAX_PARKED_CALLS = 256;

/**
 * The error a retry with a `requestState` serve did not seal for it gets:
 * invalid params, a fixed text for the client (the specification's), the
 * reason in the message after it.
 */
function refusedState(error: RequestStateRefused): GatewayProtocolError {
  return Object.assign(
    new GatewayProtocolError(
      INVALID_PARAMS,
      `Invalid or expired requestState: ${error.message}; call again without inputResponses and requestState to start over`,
    ),
    { cause: error },
  );
}

function detail(error: unknown): string {
  if (error instanceof SchemaValidationError) {
    return formatFailures(error.failures);
  }
  return error instanceof Error ? error.message : String(error);
}

function errorResult(text: string): McpCallResult {
  return { content: [{ type: "text", text }], isError: true };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function fromRunResult(result: RunResult): McpCallResult {
  if (result.mcpResult !== undefined) return result.mcpResult;
  const value = result.structured;
  const text = typeof value === "string" ? value : JSON.stringify(value ?? null);
  return {
    content: [{ type: "text", text }],
    ...(isPlainObject(value) ? { structuredContent: value } : {}),
  };
}

function outcomeOf(error: unknown): AccessOutcome {
  const code = (error as { code?: unknown })?.code;
  if (code === "input_validation") return "invalid_arguments";
  if (code === "output_validation") return "invalid_output";
  if (code === "timeout" || code === "cancelled" || code === "tool_error") return code;
  if ((error as { name?: unknown })?.name === "TimeoutError") return "timeout";
  if ((error as { name?: unknown })?.name === "AbortError") return "cancelled";
  return "error";
}

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
  readonly #runner: Runner;
  readonly #tools: Map<string, ServedTool>;
  readonly #upstreams: Map<string, Upstream>;
  readonly #capabilities: Map<string, UpstreamCapabilities>;
  readonly #options: GatewayOptions;
  readonly #validator: SchemaValidator;
  readonly #routes = new Map<string, string>();
  readonly #seal: RequestStateSeal;
  readonly #parked: ParkedCalls;

  private constructor(
    runner: Runner,
    tools: ServedTool[],
    capabilities: Map<string, UpstreamCapabilities>,
    options: GatewayOptions,
    seal: RequestStateSeal,
  ) {
    this.#seal = seal;
    this.#parked = new ParkedCalls(options.maxParkedCalls ?? DEFAULT_MAX_PARKED_CALLS);
    this.#runner = runner;
    this.#tools = new Map(tools.map((t) => [t.name, t]));
    this.#upstreams = new Map((options.upstreams ?? []).map((u) => [u.name, u]));
    this.#capabilities = capabilities;
    this.#options = options;
    this.#validator = options.validator ?? new DefaultValidator();
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
    return new Gateway(runner, tools, capabilities, options, seal);
  }

  /** What the served MCP server offers beyond tools, from its upstreams. */
  get capabilities(): {
    resources?: { subscribe?: boolean };
    prompts?: Record<string, never>;
    completions?: Record<string, never>;
  } {
    const all = [...this.#capabilities.values()];
    const out: {
      resources?: { subscribe?: boolean };
      prompts?: Record<string, never>;
      completions?: Record<string, never>;
    } = {};
    if (all.some((c) => c.resources)) {
      out.resources = all.some((c) => c.resources?.subscribe) ? { subscribe: true } : {};
    }
    if (all.some((c) => c.prompts)) out.prompts = {};
    if (all.some((c) => c.completions)) out.completions = {};
    return out;
  }

  /**
   * Scrubs secrets from a text with the `redact` option (the text itself
   * without one).
   *
   * @param text The text.
   * @returns The text without secrets.
   */
  redact(text: string): string {
    return this.#options.redact === undefined ? text : this.#options.redact(text);
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
    const redact = this.#options.redact;
    return redact === undefined ? value : scrubValue(value, redact);
  }

  /** The served tools' definitions, exactly as registered (for `tools/list`). */
  listTools(): Record<string, unknown>[] {
    return [...this.#tools.values()].map((t) => ({ ...t.definition }));
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
    const served = this.#tools.get(name);
    if (served === undefined) return [];
    const out = new Set([name]);
    if (served.target.kind === "chain") {
      for (const step of served.target.steps) {
        const match = [...this.#tools.values()].find((t) =>
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
      const served = this.#tools.get(name);
      if (served === undefined) {
        outcome = "unknown_tool";
        throw new GatewayProtocolError(
          INVALID_PARAMS,
          `Unknown tool: ${name}; tools: ${namesOf([...this.#tools.keys()])} (tools/list has them)`,
        );
      }
      const result = await this.#call(served, args, context);
      if (result.outcome !== "ok") outcome = result.outcome;
      return result.result;
    } catch (error) {
      if (outcome === "ok") outcome = outcomeOf(error);
      throw error;
    } finally {
      this.#options.onAccess?.(this.scrub({
        time: new Date().toISOString(),
        tool: name,
        durationMs: Math.round((performance.now() - started) * 1000) / 1000,
        outcome,
        caller: context.caller,
        ...(this.#options.logArgs ? { args } : {}),
      }));
    }
  }

  async #call(
    served: ServedTool,
    args: Record<string, unknown>,
    context: CallContext,
  ): Promise<{ result: McpCallResult; outcome: AccessOutcome }> {
    const target = served.target;
    const timeoutMs =
      (target.kind === "chain" ? undefined : this.#options.toolTimeouts?.[target.toolId]) ??
        this.#options.timeoutMs ?? 60_000;
    const fail = (error: unknown) => ({
      result: (error as { mcpResult?: McpCallResult })?.mcpResult !== undefined &&
          error instanceof ToolResultError
        ? error.mcpResult as McpCallResult
        : errorResult((error as Error)?.message ?? String(error)),
      outcome: outcomeOf(error),
    });
    if (target.kind !== "upstream" && context.requestState !== undefined) {
      throw refusedState(
        new RequestStateRefused(`tool ${JSON.stringify(served.name)} never asks for input`),
      );
    }
    if (target.kind === "runner") {
      try {
        const result = await this.#runner.run(target.toolId, args, {
          signal: context.signal,
          timeoutMs,
          ...(context.onProgress === undefined ? {} : { onProgress: context.onProgress }),
        });
        return { result: fromRunResult(result), outcome: "ok" };
      } catch (error) {
        return fail(error);
      }
    }
    if (target.kind === "chain") {
      try {
        await this.#validator.validateInput(served.tool, args);
      } catch (failure) {
        return fail(new InputValidationError(served.name, args, detail(failure)));
      }
      const steps = target.steps.map((s, i) =>
        i === 0 ? { ...s, args: { ...(s.args ?? {}), ...args } } : s
      );
      const chain = await this.#runner.runChain(steps, { signal: context.signal, timeoutMs });
      if (!chain.ok) {
        const failed = chain.failed!;
        return fail(
          Object.assign(
            new Error(
              `chain ${
                JSON.stringify(served.name)
              } failed at step ${failed.index} (${failed.toolId}): ${failed.error?.message}`,
            ),
            { code: failed.error?.code },
          ),
        );
      }
      const last = chain.steps.at(-1)?.result;
      return { result: last === undefined ? { content: [] } : fromRunResult(last), outcome: "ok" };
    }
    // Forwarded to an upstream: check here, then pass everything through.
    try {
      await this.#validator.validateInput(served.tool, args);
    } catch (failure) {
      return fail(new InputValidationError(target.toolId, args, detail(failure)));
    }
    const upstream = this.#upstreams.get(target.server)!;
    const binding = bindingOf(context.caller, "tools/call", served.name);
    const retry = await this.#openRetry(
      context,
      binding,
      { name: target.upstreamName, arguments: args },
      upstream.name,
    );
    const deadline = AbortSignal.timeout(timeoutMs);
    const signal = context.signal === undefined
      ? deadline
      : AbortSignal.any([context.signal, deadline]);
    let raw: Record<string, unknown>;
    let timedOut = false;
    try {
      if (context.clientEra === "modern") {
        const step = await this.#stepParked(upstream, binding, retry, context, timeoutMs);
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
          { ...this.#upstreamContext(context), signal },
        );
      }
    } catch (error) {
      // A retry naming a call that is not parked here: invalid params, like any refused state.
      if (error instanceof GatewayProtocolError) throw error;
      if (deadline.aborted || timedOut) {
        return {
          result: errorResult(
            `tool ${JSON.stringify(served.name)} timed out after ${timeoutMs} ms`,
          ),
          outcome: "timeout",
        };
      }
      if (context.signal?.aborted) {
        return fail(Object.assign(new Error("cancelled"), { name: "AbortError" }));
      }
      // -32021 is a 2026-07-28 error: a 2025-era client gets it as a tool error.
      if (
        (error as { code?: unknown })?.code === MISSING_CLIENT_CAPABILITY &&
        context.clientEra === "modern"
      ) throw error;
      return fail(error);
    }
    const result = raw as McpCallResult;
    const max = this.#options.toolMaxOutputBytes?.[target.toolId] ?? this.#options.maxOutputBytes ??
      DEFAULT_MAX_OUTPUT_BYTES;
    const size = new TextEncoder().encode(JSON.stringify(result)).length;
    if (size > max) {
      return {
        result: errorResult(
          `the result of tool ${JSON.stringify(served.name)} is ${size} bytes; the limit is ${max}`,
        ),
        outcome: "error",
      };
    }
    if (isInputRequired(raw)) {
      try {
        const relayed = await this.#relay(raw, binding, upstream.name, retry.opened);
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
        await this.#validator.validateOutput(served.tool, result.structuredContent);
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

  /**
   * The params of a request to an upstream with a client's retry of an
   * input-required result: its `inputResponses`, and the upstream's own
   * state out of the sealed one (refused with invalid params when serve did
   * not seal it for this caller and target, or for another upstream).
   */
  async #openRetry(
    context: CallContext,
    binding: string,
    params: Record<string, unknown>,
    upstream: string | undefined,
  ): Promise<{ opened: OpenedState | undefined; params: Record<string, unknown> }> {
    try {
      const retry = await openRetry(this.#seal, context, binding, params);
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
  async #stepParked(
    upstream: Upstream,
    binding: string,
    retry: { opened: OpenedState | undefined; params: Record<string, unknown> },
    context: CallContext,
    timeoutMs: number,
  ): Promise<ParkedStep> {
    try {
      return await stepParked({
        calls: this.#parked,
        seal: this.#seal,
        upstream,
        params: retry.params,
        opened: retry.opened,
        binding,
        context: {
          ...this.#upstreamContext(context),
          signal: context.signal,
          inputResponses: context.inputResponses,
        },
        timeoutMs,
        maxRounds: this.#options.maxInputRounds ?? DEFAULT_MAX_INPUT_ROUNDS,
      });
    } catch (error) {
      if (error instanceof RequestStateRefused) throw refusedState(error);
      throw error;
    }
  }

  /** An upstream's input-required result as the client gets it (its state sealed, its rounds counted). */
  #relay(
    raw: Record<string, unknown>,
    binding: string,
    upstream: string,
    opened: OpenedState | undefined,
  ): Promise<Record<string, unknown>> {
    return relayInputRequired(this.#seal, raw, {
      binding,
      upstream,
      round: opened?.round ?? 0,
      maxRounds: this.#options.maxInputRounds ?? DEFAULT_MAX_INPUT_ROUNDS,
    });
  }

  #upstreamContext(context: CallContext): UpstreamCallContext {
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
    const upstreamContext = { ...this.#upstreamContext(context), signal: context.signal };
    const offering = (key: "resources" | "prompts" | "completions") =>
      [...this.#upstreams.values()].filter((u) => this.#capabilities.get(u.name)?.[key]);
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
          this.#routes.set(`${kind}\0${id}`, upstream.name);
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
        return await this.#forwardInputCapable(method, params, context, upstreamContext);
      case "resources/subscribe":
      case "resources/unsubscribe":
        return (await this.#routed(
          "resources",
          String(params.uri),
          method,
          params,
          upstreamContext,
        ))
          .result;
      case "completion/complete": {
        const ref = params.ref as { type?: string; name?: string; uri?: string } | undefined;
        const kind = ref?.type === "ref/prompt" ? "prompts" : "resources";
        const key = ref?.type === "ref/prompt" ? ref?.name : ref?.uri;
        const owner = this.#routes.get(`${kind}\0${key}`) ?? offering("completions")[0]?.name;
        const upstream = owner === undefined ? undefined : this.#upstreams.get(owner);
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
  async #forwardInputCapable(
    method: "prompts/get" | "resources/read",
    params: Record<string, unknown>,
    context: CallContext,
    upstreamContext: UpstreamCallContext,
  ): Promise<Record<string, unknown>> {
    const kind = method === "prompts/get" ? "prompts" : "resources";
    const key = String(method === "prompts/get" ? params.name : params.uri);
    const binding = bindingOf(context.caller, method, key);
    const retry = await this.#openRetry(context, binding, params, undefined);
    const answered = await this.#routed(
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
      return await this.#relay(answered.result, binding, answered.upstream, retry.opened);
    } catch (error) {
      throw new GatewayProtocolError(
        INTERNAL_ERROR,
        `upstream server ${JSON.stringify(answered.upstream)} answered ${method} of ${
          JSON.stringify(key)
        } with an input-required result that is not passed on: ${(error as Error).message}`,
      );
    }
  }

  async #routed(
    kind: "resources" | "prompts",
    key: string,
    method: UpstreamMethod,
    params: Record<string, unknown>,
    context: UpstreamCallContext,
    pinned?: string,
  ): Promise<{ result: Record<string, unknown>; upstream: string }> {
    const owner = pinned ?? this.#routes.get(`${kind}\0${key}`);
    const known = owner === undefined ? undefined : this.#upstreams.get(owner);
    const candidates = known !== undefined
      ? [known]
      : [...this.#upstreams.values()].filter((u) => this.#capabilities.get(u.name)?.[kind]);
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

  /** Closes the runner and every upstream. */
  async close(): Promise<void> {
    this.#parked.abortAll(new Error("serve is closing"));
    await Promise.allSettled([
      this.#runner.close(),
      ...[...this.#upstreams.values()].map((u) => u.close()),
    ]);
  }
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

/** The most names an error lists before it says how many there are. */
const MAX_NAMES_LISTED = 50;

/** Names sorted and joined, at most {@linkcode MAX_NAMES_LISTED} ("none" for none). */
function namesOf(names: readonly string[]): string {
  if (names.length === 0) return "none";
  const sorted = [...names].sort();
  return sorted.length <= MAX_NAMES_LISTED
    ? sorted.join(", ")
    : `${sorted.slice(0, MAX_NAMES_LISTED).join(", ")}, ... (${sorted.length} in all)`;
}
