/**
 * One lazy MCP client connection per server, reused, re-opened after a crash
 * (in the era found at the first connection, without a new probe). The SDK is
 * imported on first use only; stdio servers run over our own transport
 * (`_stdio.ts`), so the SDK's stdio module is never loaded. The runner loads
 * this module when it first lists or calls an MCP server.
 *
 * One deadline covers a whole run: connecting (spawn + initialize), listing
 * and the call. Progress notifications of our requests are taken off the
 * transport before the SDK sees them, so none is lost when a server writes
 * progress and the result in one chunk.
 *
 * @module
 */

import { ExecutionError, OutputTooLargeError } from "../errors.ts";
import type { ToolContext } from "../local.ts";
import type { McpServerConfig } from "./config.ts";
import type { ElicitationHandler, McpListedTool } from "./tools.ts";
import type { McpCallResult } from "../result.ts";
import { checkCallResult, checkToolList, type McpPhase, McpTimeoutError } from "./_checks.ts";
import { openConnection, type Opening } from "./connection.ts";
import type { EraVerdict } from "./_era.ts";
import { closeConnection, type Connection, watch } from "./_lifecycle.ts";
import { callError, stderrHint } from "./_report.ts";
import { ANY_RESULT, NO_TIMEOUT, REQUEST_TIMEOUT } from "./_sdk.ts";
import { limited, waitForOpening } from "./_wait.ts";

/** Connections to the configured MCP servers. */
export class McpPool {
  /** Answers servers' elicitation requests; without it the client does not offer elicitation. */
  onElicitation: ElicitationHandler | undefined;
  readonly #configs = new Map<string, McpServerConfig>();
  readonly #opening = new Map<string, Opening>();
  /** The open connections, for a call path without an extra await. */
  readonly #ready = new Map<string, Connection>();
  /** Every connection not yet closed (opening, open, or lost but still shutting down). */
  readonly #live = new Set<Connection>();
  /** The era each `auto` server was found to speak, so a restart is not probed again. */
  readonly #verdicts = new Map<string, EraVerdict>();

  has(name: string): boolean {
    return this.#configs.has(name);
  }

  async add(name: string, config: McpServerConfig): Promise<void> {
    this.#configs.set(name, config);
    this.#verdicts.delete(name);
    const opening = this.#opening.get(name);
    const ready = this.#ready.get(name);
    this.#opening.delete(name);
    this.#ready.delete(name);
    opening?.abort.abort(new Error("the server was reconfigured"));
    await Promise.all([
      opening?.promise.catch(() => undefined),
      ready === undefined ? undefined : closeConnection(ready),
    ]);
  }

  async call(
    name: string,
    toolName: string,
    args: Record<string, unknown>,
    ctx: ToolContext,
    timeoutMs: number,
  ): Promise<McpCallResult> {
    const started = performance.now();
    const toolId = ctx.toolId;
    const connection = this.#usable(name) ??
      await this.#acquire(name, toolId, started, timeoutMs, ctx.signal).catch((error) => {
        throw error instanceof OutputTooLargeError && error.toolId === undefined
          ? new OutputTooLargeError(error.limitBytes, { toolId, cause: error })
          : error;
      });
    const timeout = this.#remaining(name, toolId, started, timeoutMs, "call", connection);
    const token = `tf-${++connection.tokens}`;
    connection.progress.set(token, (params) => ctx.progress(params));
    const stop = new AbortController();
    const signal = ctx.signal;
    const onAbort = (): void => stop.abort(signal.reason);
    if (signal.aborted) stop.abort(signal.reason);
    else signal.addEventListener("abort", onAbort, { once: true });
    const request = connection.client.request(
      {
        method: "tools/call",
        params: { name: toolName, arguments: args, _meta: { progressToken: token } },
      },
      ANY_RESULT,
      { signal: stop.signal, timeout },
    );
    let raw: unknown;
    try {
      raw = await watch(connection, request);
    } catch (error) {
      // Given up on by us (connection lost, message too large), not settled by
      // the SDK: tell the SDK (and the server) to drop the request.
      if (error === connection.lostError || error instanceof OutputTooLargeError) {
        stop.abort(error);
      }
      if (
        (error as { code?: unknown })?.code === REQUEST_TIMEOUT && !signal.aborted &&
        limited(timeoutMs)
      ) {
        throw new McpTimeoutError(timeoutMs, "call", name, { toolId, cause: error });
      }
      throw callError(name, connection, error, toolId);
    } finally {
      connection.progress.delete(token);
      signal.removeEventListener("abort", onAbort);
    }
    return checkCallResult(name, toolName, raw);
  }

  async listTools(
    name: string,
    options: { signal?: AbortSignal; timeoutMs?: number } = {},
  ): Promise<McpListedTool[]> {
    const started = performance.now();
    const timeoutMs = options.timeoutMs ?? 0;
    const connection = this.#usable(name) ??
      await this.#acquire(name, undefined, started, timeoutMs, options.signal);
    const tools: McpListedTool[] = [];
    let cursor: string | undefined;
    do {
      const timeout = this.#remaining(name, undefined, started, timeoutMs, "list", connection);
      const page = connection.client.request(
        { method: "tools/list", params: cursor === undefined ? {} : { cursor } },
        ANY_RESULT,
        { signal: options.signal, timeout },
      );
      let result: { tools: McpListedTool[]; nextCursor?: string };
      try {
        result = checkToolList(name, await watch(connection, page));
      } catch (error) {
        if (
          (error as { code?: unknown })?.code === REQUEST_TIMEOUT && !options.signal?.aborted &&
          limited(timeoutMs)
        ) {
          throw new McpTimeoutError(timeoutMs, "list", name, { cause: error });
        }
        throw callError(name, connection, error, undefined);
      }
      tools.push(...result.tools);
      cursor = result.nextCursor;
    } while (cursor !== undefined);
    return tools;
  }

  async close(): Promise<void> {
    const openings = [...this.#opening.values()];
    for (const opening of openings) opening.abort.abort(new Error("the runner was closed"));
    this.#opening.clear();
    this.#ready.clear();
    await Promise.all([
      ...openings.map((opening) => opening.promise.catch(() => undefined)),
      ...[...this.#live].map(closeConnection),
    ]);
  }

  #usable(name: string): Connection | undefined {
    const ready = this.#ready.get(name);
    return ready !== undefined && !ready.closed && ready.lostError === undefined
      ? ready
      : undefined;
  }

  /** The SDK timeout for the next request: what is left of the run's deadline. */
  #remaining(
    name: string,
    toolId: string | undefined,
    started: number,
    timeoutMs: number,
    phase: McpPhase,
    connection: Connection,
  ): number {
    if (!limited(timeoutMs)) return NO_TIMEOUT;
    const left = Math.ceil(timeoutMs - (performance.now() - started));
    if (left <= 0) {
      throw new McpTimeoutError(timeoutMs, phase, name, {
        toolId,
        hint: stderrHint(connection.stdio),
      });
    }
    return left;
  }

  /** Waits for the server's connection, within what is left of the deadline. */
  #acquire(
    name: string,
    toolId: string | undefined,
    started: number,
    timeoutMs: number,
    signal: AbortSignal | undefined,
  ): Promise<Connection> {
    const config = this.#configs.get(name);
    if (config === undefined) {
      return Promise.reject(new ExecutionError(`no MCP server named ${JSON.stringify(name)}`));
    }
    let opening = this.#opening.get(name);
    if (opening === undefined) {
      const created: Opening = {
        promise: Promise.resolve(undefined as never),
        waiters: 0,
        settled: false,
        abort: new AbortController(),
        stdio: undefined,
      };
      created.promise = openConnection(name, config, created, {
        onElicitation: this.onElicitation,
        prior: this.#verdicts.get(name),
        onVerdict: (verdict) => {
          if (this.#configs.get(name) === config) this.#verdicts.set(name, verdict);
        },
        onLive: (connection) => this.#live.add(connection),
        onLost: (connection) => {
          if (this.#ready.get(name) === connection) this.#ready.delete(name);
        },
        onGone: (connection) => this.#live.delete(connection),
      });
      opening = created;
      this.#opening.set(name, created);
      created.promise.then((connection) => {
        created.settled = true;
        if (this.#opening.get(name) === created) {
          this.#opening.delete(name);
          this.#ready.set(name, connection);
        } else {
          closeConnection(connection);
        }
      }, () => {
        created.settled = true;
        if (this.#opening.get(name) === created) this.#opening.delete(name);
      });
    }
    return waitForOpening(opening, { server: name, toolId, started, timeoutMs, signal });
  }
}
