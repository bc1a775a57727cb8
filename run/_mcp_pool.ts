// Private: one lazy MCP client connection per server, reused, re-opened after a
// crash. The SDK is imported on first use only.

// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/client/index"
import type * as ClientModule from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/client/stdio"
import type * as StdioModule from "@modelcontextprotocol/sdk/client/stdio.js";
// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/client/streamableHttp"
import type * as HttpModule from "@modelcontextprotocol/sdk/client/streamableHttp.js";
// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/types"
import type * as TypesModule from "@modelcontextprotocol/sdk/types.js";

import { RunTimeoutError } from "./cancellation_errors.ts";
import { RunError } from "./errors.ts";
import { ExecutionError } from "./execution_errors.ts";
import type { ToolContext } from "./local.ts";
import type { ElicitationHandler, McpListedTool, McpServerConfig } from "./mcp.ts";
import type { McpCallResult } from "./result.ts";
import { tail, TailBuffer } from "./_text.ts";

type Transport = StdioModule.StdioClientTransport | HttpModule.StreamableHTTPClientTransport;

interface Sdk {
  client: typeof ClientModule;
  stdio: typeof StdioModule;
  http: typeof HttpModule;
  types: typeof TypesModule;
}

let sdk: Promise<Sdk> | undefined;

/** Loads the MCP SDK once, on first use. */
export function loadSdk(): Promise<Sdk> {
  sdk ??= Promise.all([
    import("@modelcontextprotocol/sdk/client/index.js") as Promise<typeof ClientModule>,
    import("@modelcontextprotocol/sdk/client/stdio.js") as Promise<typeof StdioModule>,
    import("@modelcontextprotocol/sdk/client/streamableHttp.js") as Promise<typeof HttpModule>,
    import("@modelcontextprotocol/sdk/types.js") as Promise<typeof TypesModule>,
  ]).then(([client, stdio, http, types]) => ({ client, stdio, http, types }));
  sdk.catch(() => (sdk = undefined));
  return sdk;
}

/** The SDK's output-schema check (ajv, draft-07) is replaced by ours: accept everything here. */
const PASS_THROUGH = {
  getValidator: () => (input: unknown) => ({
    valid: true as const,
    data: input as never,
    errorMessage: undefined,
  }),
};

/** Largest delay `setTimeout` accepts: the SDK's own timer must never fire first. */
const NO_TIMEOUT = 2_147_483_647;
/** The SDK's error code for a request that ran out of time (also used when aborted). */
const REQUEST_TIMEOUT = -32001;
/** How long a liveness probe after an HTTP transport error may take. */
const PROBE_TIMEOUT_MS = 3000;

interface Connection {
  client: ClientModule.Client;
  transport: Transport;
  stderr: TailBuffer;
  closed: boolean;
  /** The SDK's schemas. */
  types: typeof TypesModule;
  /** Rejecters of the requests in flight, called when the connection is lost. */
  inflight: Set<(error: Error) => void>;
  /** Why the connection was lost, once it was. */
  lostError: Error | undefined;
}

const CLIENT_INFO = { name: "toolfoundation", version: "0.1.0" };

/** Connections to the configured MCP servers. */
export class McpPool {
  /** Answers servers' elicitation requests; without it the client does not offer elicitation. */
  onElicitation: ElicitationHandler | undefined;
  readonly #configs = new Map<string, McpServerConfig>();
  readonly #connections = new Map<string, Promise<Connection>>();
  /** Clients whose handshake is in progress. */
  readonly #opening = new Set<ClientModule.Client>();
  /** The open connections, for a call path without an extra await. */
  readonly #ready = new Map<string, Connection>();

  has(name: string): boolean {
    return this.#configs.has(name);
  }

  /** Whether a server's connection is open (calls then skip the connection phase). */
  ready(name: string): boolean {
    const ready = this.#ready.get(name);
    return ready !== undefined && !ready.closed && ready.lostError === undefined;
  }

  async add(name: string, config: McpServerConfig): Promise<void> {
    const open = this.#connections.get(name);
    this.#configs.set(name, config);
    if (open !== undefined) {
      this.#connections.delete(name);
      this.#ready.delete(name);
      await open.then((c) => closeConnection(c), () => undefined);
    }
  }

  async call(
    name: string,
    toolName: string,
    args: Record<string, unknown>,
    ctx: ToolContext,
    timeoutMs: number,
  ): Promise<McpCallResult> {
    const ready = this.#ready.get(name);
    const connection = ready !== undefined && !ready.closed && ready.lostError === undefined
      ? ready
      : await this.#connect(name);
    const request = connection.client.request(
      { method: "tools/call", params: { name: toolName, arguments: args } },
      connection.types.CallToolResultSchema,
      {
        signal: ctx.signal,
        onprogress: (progress: { progress: number; total?: number; message?: string }) =>
          ctx.progress(progress),
        timeout: timeoutMs > 0 && timeoutMs < NO_TIMEOUT ? timeoutMs : NO_TIMEOUT,
      },
    );
    try {
      return await watch(connection, request) as McpCallResult;
    } catch (error) {
      if (
        (error as { code?: unknown })?.code === REQUEST_TIMEOUT && !ctx.signal.aborted &&
        timeoutMs > 0 && timeoutMs < NO_TIMEOUT
      ) {
        throw new RunTimeoutError(timeoutMs, { cause: error });
      }
      throw this.#callError(name, connection, error);
    }
  }

  async listTools(name: string, signal?: AbortSignal): Promise<McpListedTool[]> {
    const connection = await this.#connect(name);
    const tools: McpListedTool[] = [];
    let cursor: string | undefined;
    do {
      const page = connection.client.request(
        { method: "tools/list", params: cursor === undefined ? {} : { cursor } },
        connection.types.ListToolsResultSchema,
        { signal },
      );
      let result: { tools: unknown[]; nextCursor?: string };
      try {
        result = await watch(connection, page) as { tools: unknown[]; nextCursor?: string };
      } catch (error) {
        throw this.#callError(name, connection, error);
      }
      tools.push(...(result.tools as McpListedTool[]));
      cursor = result.nextCursor;
    } while (cursor !== undefined);
    return tools;
  }

  async close(): Promise<void> {
    const open = [...this.#connections.values()];
    this.#connections.clear();
    this.#ready.clear();
    // Connections still opening are closed too: their handshake then fails at once.
    for (const client of this.#opening) client.close().catch(() => undefined);
    await Promise.all(open.map((p) => p.then((c) => closeConnection(c), () => undefined)));
  }

  #callError(name: string, connection: Connection, error: unknown): RunError {
    if (error instanceof RunError) return error;
    const code = (error as { code?: unknown })?.code;
    const stderr = connection.stderr.text().trim();
    const details: Record<string, unknown> = { server: name };
    if (typeof code === "number") details.mcpCode = code;
    if (stderr !== "") details.stderrTail = tail(stderr, 2000);
    const message = error instanceof Error ? error.message : String(error);
    const what = connection.closed || code === -32000
      ? `MCP server ${JSON.stringify(name)} closed the connection during the call (${message})`
      : `MCP server ${JSON.stringify(name)}: ${message}`;
    return new ExecutionError(
      stderr === "" ? what : `${what}; stderr: ${tail(stderr, 500)}`,
      { cause: error, details },
    );
  }

  #connect(name: string): Promise<Connection> {
    let pending = this.#connections.get(name);
    if (pending === undefined) {
      const config = this.#configs.get(name);
      if (config === undefined) {
        return Promise.reject(new ExecutionError(`no MCP server named ${JSON.stringify(name)}`));
      }
      const holder: { self?: Promise<Connection> } = {};
      pending = this.#open(name, config, holder);
      holder.self = pending;
      this.#connections.set(name, pending);
      pending.then((connection) => {
        if (this.#connections.get(name) === pending) this.#ready.set(name, connection);
      }, () => {
        if (this.#connections.get(name) === pending) this.#connections.delete(name);
      });
    }
    return pending;
  }

  async #open(
    name: string,
    config: McpServerConfig,
    holder: { self?: Promise<Connection> },
  ): Promise<Connection> {
    const { client: clientModule, stdio, http, types } = await loadSdk();
    const stderr = new TailBuffer(8192);
    let transport: Transport;
    if (config.transport === "stdio") {
      const t = new stdio.StdioClientTransport({
        command: config.command,
        args: config.args ?? [],
        env: config.env,
        cwd: config.cwd,
        stderr: "pipe",
      });
      t.stderr?.on("data", (chunk: Uint8Array) => stderr.push(chunk));
      transport = t;
    } else if (config.transport === "http") {
      transport = new http.StreamableHTTPClientTransport(new URL(config.url), {
        requestInit: config.headers === undefined ? undefined : { headers: config.headers },
      });
    } else {
      throw new ExecutionError(
        `MCP server ${JSON.stringify(name)}: unknown transport ${
          JSON.stringify((config as { transport?: unknown }).transport)
        }`,
      );
    }
    const onElicitation = this.onElicitation;
    const client = new clientModule.Client(CLIENT_INFO, {
      capabilities: onElicitation === undefined
        ? {}
        : { elicitation: { form: { applyDefaults: true } } },
      jsonSchemaValidator: PASS_THROUGH,
    });
    if (onElicitation !== undefined) {
      client.setRequestHandler(types.ElicitRequestSchema, async (
        request: { params: Record<string, unknown> },
        extra: { signal: AbortSignal },
      ) => {
        const params = request.params;
        const answer = await onElicitation({
          server: name,
          message: String(params.message ?? ""),
          requestedSchema: params.requestedSchema as Record<string, unknown> | undefined,
          params,
        }, extra.signal);
        return answer as never;
      });
    }
    const connection: Connection = {
      client,
      transport,
      stderr,
      closed: false,
      types,
      inflight: new Set(),
      lostError: undefined,
    };
    const markLost = (error: Error): void => {
      connection.lostError ??= error;
      for (const reject of connection.inflight) reject(error);
      connection.inflight.clear();
    };
    client.onclose = () => {
      connection.closed = true;
      markLost(new Error("connection closed"));
      const current = this.#connections.get(name);
      current?.then((c) => {
        if (c === connection && this.#connections.get(name) === current) {
          this.#connections.delete(name);
          this.#ready.delete(name);
        }
      }, () => undefined);
    };
    if (config.transport === "http") {
      // A broken HTTP stream does not always close the client; probe the server
      // after a transport error and give up on the connection when it is gone.
      let probing = false;
      client.onerror = (error: Error) => {
        if (connection.closed || probing || !connected) return;
        probing = true;
        client.ping({ timeout: PROBE_TIMEOUT_MS }).then(
          () => (probing = false),
          (cause: unknown) => {
            markLost(
              new Error(
                `the server is unreachable after a transport error (${error.message}): ${
                  cause instanceof Error ? cause.message : String(cause)
                }`,
              ),
            );
            connection.closed = true;
            if (this.#connections.get(name) === holder.self) {
              this.#connections.delete(name);
              this.#ready.delete(name);
            }
            client.close().catch(() => undefined);
          },
        );
      };
    }
    let connected = false;
    this.#opening.add(client);
    try {
      await client.connect(transport);
      connected = true;
    } catch (error) {
      await client.close().catch(() => undefined);
      const text = stderr.text().trim();
      throw new ExecutionError(
        `cannot connect to MCP server ${JSON.stringify(name)}: ${
          error instanceof Error ? error.message : String(error)
        }${text === "" ? "" : `; stderr: ${tail(text, 500)}`}`,
        { cause: error, details: { server: name, stderrTail: tail(text, 2000) } },
      );
    } finally {
      this.#opening.delete(client);
    }
    return connection;
  }
}

/** Settles with the request, or rejects as soon as the connection is lost. */
function watch<T>(connection: Connection, request: Promise<T>): Promise<T> {
  if (connection.lostError !== undefined) {
    request.catch(() => undefined);
    return Promise.reject(connection.lostError);
  }
  return new Promise<T>((resolve, reject) => {
    connection.inflight.add(reject);
    request.then(
      (value) => {
        connection.inflight.delete(reject);
        resolve(value);
      },
      (error) => {
        connection.inflight.delete(reject);
        reject(error);
      },
    );
  });
}

async function closeConnection(connection: Connection): Promise<void> {
  if (connection.closed) return;
  await connection.client.close().catch(() => undefined);
}
