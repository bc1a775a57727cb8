/**
 * One lazy MCP client connection per server, reused, re-opened after a crash
 * (in the era found at the first connection, without a new probe). The SDK is
 * imported on first use only; stdio servers run over our own transport
 * (`_stdio.ts`), so the SDK's stdio module is never loaded. The runner loads
 * this module when it first lists or calls an MCP server.
 *
 * One deadline covers a whole run: connecting (spawn + initialize), listing
 * and the call. A server given a tool check (`checkTools`, e.g. against a
 * lock file) has its tools listed and checked on every connection after the
 * first one a listing opened (a crash, restart or new configuration opens
 * one): a changed tool's calls fail with the check's error, not run. Progress notifications of our requests are taken off the
 * transport before the SDK sees them, so none is lost when a server writes
 * progress and the result in one chunk.
 *
 * @module
 */

import { ExecutionError, OutputTooLargeError } from "../errors.ts";
import type { ToolContext } from "../local.ts";
import type { McpServerConfig } from "./config.ts";
import type {
  ElicitationHandler,
  McpListedTool,
  McpServerOptions,
  McpToolCheck,
  McpToolListing,
} from "./tools.ts";
import type { McpCallResult } from "../result.ts";
import { isUndelivered } from "./_stdio.ts";
import { checkCallResult, checkToolList, type McpPhase, McpTimeoutError } from "./_checks.ts";
import { openConnection, type Opening } from "./connection.ts";
import { listConnectionTools } from "./listing.ts";
import type { EraVerdict } from "./_era.ts";
import { closeConnection, type Connection, watch } from "./_lifecycle.ts";
import { callError, errorText, stderrHint } from "./_report.ts";
import { ANY_RESULT, NO_TIMEOUT, REQUEST_TIMEOUT } from "./_sdk.ts";
import { limited, waitForOpening } from "./_wait.ts";
import {
  callHeaders,
  excludeInvalidHeaderTools,
  HEADER_MISMATCH,
  type HeaderScans,
  isHeaderMismatch,
  largeHeadersHint,
  mirrorsHeaders,
} from "./_tool_headers.ts";

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
  /** Each server's tool check. */
  readonly #checks = new Map<string, McpToolCheck>();
  /** Servers whose tools are listed elsewhere (see {@linkcode McpServerOptions.listTools}). */
  readonly #listers = new Map<string, NonNullable<McpServerOptions["listTools"]>>();
  /** Servers a connection was opened to (the next one is checked). */
  readonly #connected = new Set<string>();
  /** Tools a check refused, by server, then by name on the server, with their error. */
  readonly #refused = new Map<string, Map<string, Error>>();
  /** Each server's `x-mcp-header` declarations, by tool, from its last listing. */
  readonly #scans = new Map<string, HeaderScans>();

  has(name: string): boolean {
    return this.#configs.has(name);
  }

  async add(name: string, config: McpServerConfig, options: McpServerOptions = {}): Promise<void> {
    this.#configs.set(name, config);
    if (options.checkTools === undefined) this.#checks.delete(name);
    else this.#checks.set(name, options.checkTools);
    if (options.listTools === undefined) this.#listers.delete(name);
    else this.#listers.set(name, options.listTools);
    this.#verdicts.delete(name);
    this.#scans.delete(name);
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
    inputSchema?: unknown,
    spentMs = 0,
  ): Promise<McpCallResult> {
    try {
      return await this.#call(name, toolName, args, ctx, timeoutMs, inputSchema, spentMs);
    } catch (error) {
      // A stdio server that exited between calls: the request never reached
      // it, so it is sent once more on a new connection (checked against the
      // lock like every reconnect), within the same deadline.
      if (!isUndelivered(error) || ctx.signal?.aborted) throw error;
      return await this.#call(name, toolName, args, ctx, timeoutMs, inputSchema, spentMs);
    }
  }

  async #call(
    name: string,
    toolName: string,
    args: Record<string, unknown>,
    ctx: ToolContext,
    timeoutMs: number,
    inputSchema: unknown,
    spentMs: number,
  ): Promise<McpCallResult> {
    // The deadline counts from when the caller started it (spentMs ago).
    const started = performance.now() - spentMs;
    const toolId = ctx.toolId;
    const connection = this.#usable(name) ??
      await this.#acquire(name, toolId, started, timeoutMs, ctx.signal, false).catch((error) => {
        throw error instanceof OutputTooLargeError && error.toolId === undefined
          ? new OutputTooLargeError(error.limitBytes, { toolId, cause: error })
          : error;
      });
    const refusal = this.#refused.get(name)?.get(toolName);
    if (refusal !== undefined) throw refusal;
    // The 2026-07-28 Streamable HTTP transport mirrors declared arguments into headers.
    const headersNow = (): Record<string, string> | undefined =>
      callHeaders(
        name,
        connection,
        toolName,
        args,
        this.#scans.get(name)?.get(toolName),
        inputSchema,
        toolId,
      );
    let headers = headersNow();
    const timeout = this.#remaining(name, toolId, started, timeoutMs, "call", connection);
    const token = `tf-${++connection.tokens}`;
    connection.progress.set(token, (params) => ctx.progress(params));
    const stop = new AbortController();
    const signal = ctx.signal;
    const onAbort = (): void => stop.abort(signal.reason);
    if (signal.aborted) stop.abort(signal.reason);
    else signal.addEventListener("abort", onAbort, { once: true });
    const send = (timeout: number): Promise<unknown> =>
      watch(
        connection,
        connection.client.request(
          {
            method: "tools/call",
            params: { name: toolName, arguments: args, _meta: { progressToken: token } },
          },
          ANY_RESULT,
          headers === undefined
            ? { signal: stop.signal, timeout }
            : { signal: stop.signal, timeout, headers },
        ),
      );
    let raw: unknown;
    try {
      try {
        raw = await send(timeout);
      } catch (error) {
        if (!isHeaderMismatch(error) || !mirrorsHeaders(connection)) throw error;
        // The server reads the tool's header declarations differently (our
        // listing is stale, or we had none): list again, then retry once with
        // the new listing's headers; a second refusal is the call's error.
        const relisting = await this.#relist(
          name,
          connection,
          stop.signal,
          this.#remaining(name, toolId, started, timeoutMs, "call", connection),
        ).then(() => undefined, (cause: unknown) => cause);
        const refusal = this.#refused.get(name)?.get(toolName);
        if (refusal !== undefined) throw refusal;
        headers = headersNow();
        try {
          raw = await send(this.#remaining(name, toolId, started, timeoutMs, "call", connection));
        } catch (second) {
          if (!isHeaderMismatch(second)) throw second;
          throw new ExecutionError(
            `MCP server ${JSON.stringify(name)}: tool ${
              JSON.stringify(toolName)
            }: the server refused the call twice for Mcp-Param headers that do not match its arguments (-32020), the second time after the tools were listed again${
              relisting === undefined ? "" : ` (that listing failed: ${errorText(relisting)})`
            }: ${
              errorText(second)
            }; the server's x-mcp-header declarations disagree with what it checks (fix the server)`,
            {
              toolId,
              cause: second,
              details: { server: name, tool: toolName, mcpCode: HEADER_MISMATCH },
            },
          );
        }
      }
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
      throw callError(name, connection, error, toolId, largeHeadersHint(headers));
    } finally {
      connection.progress.delete(token);
      signal.removeEventListener("abort", onAbort);
    }
    return checkCallResult(name, toolName, raw);
  }

  async listTools(
    name: string,
    options: { signal?: AbortSignal; timeoutMs?: number } = {},
  ): Promise<McpToolListing> {
    try {
      return await this.#listTools(name, options);
    } catch (error) {
      // As for a call: a listing that never reached an exited server is sent again.
      if (!isUndelivered(error) || options.signal?.aborted) throw error;
      return await this.#listTools(name, options);
    }
  }

  async #listTools(
    name: string,
    options: { signal?: AbortSignal; timeoutMs?: number },
  ): Promise<McpToolListing> {
    const started = performance.now();
    const timeoutMs = options.timeoutMs ?? 0;
    // Listed elsewhere (e.g. over serve's pooled connection): none opened here.
    const lister = this.#listers.get(name);
    if (lister !== undefined) return await lister(options.signal, timeoutMs);
    const connection = this.#usable(name) ??
      await this.#acquire(name, undefined, started, timeoutMs, options.signal, true);
    const listing = await listConnectionTools(name, connection, {
      signal: options.signal,
      timeoutMs,
      started,
    });
    this.#scans.set(name, listing.scans);
    return { tools: listing.tools, excluded: listing.excluded };
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
    // A stdio server that exited may not have reached the SDK's onclose yet.
    return ready !== undefined && !ready.closed && ready.lostError === undefined &&
        ready.stdio?.ended !== true
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

  /**
   * Waits for the server's connection, within what is left of the deadline;
   * a new one is checked unless it is the first and opened for a listing.
   */
  #acquire(
    name: string,
    toolId: string | undefined,
    started: number,
    timeoutMs: number,
    signal: AbortSignal | undefined,
    listing: boolean,
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
      const opened = openConnection(name, config, created, {
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
      const check = this.#checks.get(name);
      created.promise = check === undefined || (listing && !this.#connected.has(name))
        ? opened
        : opened.then((connection) => this.#check(name, connection, check, created.abort.signal));
      opening = created;
      this.#opening.set(name, created);
      created.promise.then((connection) => {
        created.settled = true;
        this.#connected.add(name);
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

  /**
   * Lists the tools again on an open connection (after a header mismatch):
   * the new declarations replace the old ones, and the server's check (if
   * any) sees the new listing, so a tool changed since the lock refuses its
   * calls as on a new connection.
   */
  async #relist(
    name: string,
    connection: Connection,
    signal: AbortSignal,
    timeout: number,
  ): Promise<void> {
    const tools: McpListedTool[] = [];
    let cursor: string | undefined;
    do {
      const page = connection.client.request(
        { method: "tools/list", params: cursor === undefined ? {} : { cursor } },
        ANY_RESULT,
        { signal, timeout },
      );
      const result = checkToolList(name, await watch(connection, page));
      tools.push(...result.tools);
      cursor = result.nextCursor;
    } while (cursor !== undefined);
    this.#scans.set(name, excludeInvalidHeaderTools(name, connection, tools).scans);
    const check = this.#checks.get(name);
    if (check === undefined) return;
    const refused = await check(tools, signal);
    if (refused.size === 0) return;
    const known = this.#refused.get(name) ?? new Map<string, Error>();
    for (const [tool, error] of refused) known.set(tool, error);
    this.#refused.set(name, known);
  }

  /**
   * Lists the tools on a new connection and runs the server's check; the
   * tools it refuses are refused from then on. A failed listing or check
   * closes the connection and fails the runs waiting for it.
   */
  async #check(
    name: string,
    connection: Connection,
    check: McpToolCheck,
    signal: AbortSignal,
  ): Promise<Connection> {
    const tools: McpListedTool[] = [];
    try {
      let cursor: string | undefined;
      do {
        const page = connection.client.request(
          { method: "tools/list", params: cursor === undefined ? {} : { cursor } },
          ANY_RESULT,
          { signal, timeout: NO_TIMEOUT },
        );
        const result = checkToolList(name, await watch(connection, page));
        tools.push(...result.tools);
        cursor = result.nextCursor;
      } while (cursor !== undefined);
    } catch (error) {
      await closeConnection(connection);
      throw callError(name, connection, error, undefined);
    }
    this.#scans.set(name, excludeInvalidHeaderTools(name, connection, tools).scans);
    let refused: ReadonlyMap<string, Error>;
    try {
      refused = await check(tools, signal);
    } catch (error) {
      await closeConnection(connection);
      throw error;
    }
    if (refused.size > 0) {
      const known = this.#refused.get(name) ?? new Map<string, Error>();
      for (const [tool, error] of refused) known.set(tool, error);
      this.#refused.set(name, known);
    }
    return connection;
  }
}
