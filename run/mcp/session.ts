/**
 * A direct session with one MCP server for what is not a tool call: a
 * liveness check, resources (list, templates, read) and prompts (list, get
 * with arguments).
 * It connects the same way the runner does (same transports, child
 * environment policy, message cap and process-group shutdown), and returns
 * results whole, as the server sent them (text, images, embedded resources).
 *
 * @module
 */

import { ExecutionError, RunTimeoutError } from "../errors.ts";
import type { McpServerConfig } from "./config.ts";
import { ANY_RESULT } from "./_sdk.ts";
import { openConnection, type Opening } from "./connection.ts";
import { livenessRequest } from "./_era.ts";
import { closeConnection, type Connection, watch } from "./_lifecycle.ts";

/** Options of {@linkcode McpSession.open} and of each request. */
export interface McpSessionOptions {
  /** Cancels. */
  signal?: AbortSignal;
  /** Deadline in ms (default 60000). */
  timeoutMs?: number;
}

/**
 * An open session with one server; close it when done.
 *
 * @example
 * ```ts ignore
 * import { McpSession } from "@toolfoundation/core/run";
 *
 * const session = await McpSession.open("everything", {
 *   transport: "stdio",
 *   command: "npx",
 *   args: ["-y", "@modelcontextprotocol/server-everything@2026.8.31"],
 * });
 * console.log(await session.request("resources/list"));
 * await session.close();
 * ```
 */
export class McpSession {
  readonly #name: string;
  readonly #connection: Connection;

  private constructor(name: string, connection: Connection) {
    this.#name = name;
    this.#connection = connection;
  }

  /**
   * Connects and initializes.
   *
   * @param name The server's name (for messages).
   * @param config How to reach it.
   * @param options Signal and deadline of connecting.
   * @returns The session.
   * @throws {ExecutionError} When it cannot connect.
   * @throws {RunTimeoutError} When the deadline passes.
   */
  static async open(
    name: string,
    config: McpServerConfig,
    options: McpSessionOptions = {},
  ): Promise<McpSession> {
    const timeoutMs = options.timeoutMs ?? 60_000;
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(new Error("deadline")), timeoutMs);
    const onAbort = () => abort.abort(options.signal?.reason);
    options.signal?.addEventListener("abort", onAbort, { once: true });
    const opening = { waiters: 1, settled: false, abort, stdio: undefined } as Opening;
    const live = new Set<Connection>();
    try {
      const promise = openConnection(name, config, opening, {
        onElicitation: undefined,
        prior: undefined,
        onVerdict: () => {},
        onLive: (c) => live.add(c),
        onLost: () => {},
        onGone: (c) => live.delete(c),
      });
      opening.promise = promise;
      const connection = await promise;
      return new McpSession(name, connection);
    } catch (error) {
      await Promise.all([...live].map((c) => closeConnection(c).catch(() => {})));
      if (abort.signal.aborted && !options.signal?.aborted) {
        throw new RunTimeoutError(timeoutMs, { toolId: `${name} (connect)`, cause: error });
      }
      throw error instanceof ExecutionError ? error : new ExecutionError(
        `MCP server ${JSON.stringify(name)}: ${(error as Error)?.message ?? error}`,
        { cause: error },
      );
    } finally {
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", onAbort);
    }
  }

  /**
   * Sends one request and returns its result as sent (`resources/list`,
   * `resources/templates/list`, `resources/read`, `prompts/list`,
   * `prompts/get`, `ping`, ...).
   *
   * @param method The MCP method.
   * @param params Its parameters.
   * @param options Signal and deadline.
   * @returns The result.
   * @throws {ExecutionError} When the server answers with an error or the connection fails.
   */
  async request(
    method: string,
    params: Record<string, unknown> = {},
    options: McpSessionOptions = {},
  ): Promise<Record<string, unknown>> {
    const c = this.#connection;
    try {
      return await watch(
        c,
        c.client.request({ method, params }, ANY_RESULT, {
          signal: options.signal,
          timeout: options.timeoutMs ?? 60_000,
        }) as Promise<Record<string, unknown>>,
      );
    } catch (error) {
      throw new ExecutionError(
        `MCP server ${JSON.stringify(this.#name)}: ${method}: ${
          (error as Error)?.message ?? error
        }`,
        { cause: error },
      );
    }
  }

  /**
   * Asks the server whether it is there, with what its protocol era has:
   * `ping` in the 2025 era, `server/discover` in 2026-07-28 (which has no
   * `ping`).
   *
   * @param options Signal and deadline.
   * @returns The method sent.
   * @throws {ExecutionError} When the server answers with an error or the connection fails.
   */
  async ping(options: McpSessionOptions = {}): Promise<"ping" | "server/discover"> {
    const { method } = livenessRequest(this.#connection.client);
    await this.request(method, {}, options);
    return method;
  }

  /**
   * Every page of a list request (`resources/list`, `prompts/list`, ...), merged.
   *
   * @param method The list method.
   * @param key The result's array field (`resources`, `resourceTemplates`, `prompts`).
   * @param options Signal and deadline (of each page).
   * @returns Every item.
   */
  async list(method: string, key: string, options: McpSessionOptions = {}): Promise<unknown[]> {
    const out: unknown[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 1000; page++) {
      const result = await this.request(method, cursor === undefined ? {} : { cursor }, options);
      if (Array.isArray(result[key])) out.push(...result[key] as unknown[]);
      cursor = typeof result.nextCursor === "string" ? result.nextCursor : undefined;
      if (cursor === undefined) break;
    }
    return out;
  }

  /** Closes the connection (and stops a stdio server's process group). */
  async close(): Promise<void> {
    await closeConnection(this.#connection);
  }
}
