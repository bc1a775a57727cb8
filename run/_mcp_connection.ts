// Private: opening one MCP client connection (SDK client over our stdio
// transport or the SDK's Streamable HTTP transport with our capped fetch),
// and what a connection needs while it lives: progress interception, requests
// that fail as soon as the connection is lost, and closing.

// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/client/index"
import type * as ClientModule from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/client/streamableHttp"
import type * as HttpModule from "@modelcontextprotocol/sdk/client/streamableHttp.js";
// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/types"
import type * as TypesModule from "@modelcontextprotocol/sdk/types.js";
// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/shared/transport"
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";

import { childEnv } from "./child_env.ts";
import { ExecutionError, OutputTooLargeError } from "./errors.ts";
import type { ElicitationHandler, McpServerConfig } from "./mcp.ts";
import { DEFAULT_MAX_OUTPUT_BYTES } from "./provider.ts";
import { StdioTransport } from "./_mcp_stdio.ts";
import { HttpBodies } from "./_mcp_http.ts";
import { errorText, startError } from "./_mcp_report.ts";

let client: Promise<{ client: typeof ClientModule; types: typeof TypesModule }> | undefined;
let http: Promise<typeof HttpModule> | undefined;

/** Loads the SDK's client once, on first use (the HTTP transport only when needed). */
function loadClient(): Promise<{ client: typeof ClientModule; types: typeof TypesModule }> {
  client ??= Promise.all([
    import("@modelcontextprotocol/sdk/client/index.js") as Promise<typeof ClientModule>,
    import("@modelcontextprotocol/sdk/types.js") as Promise<typeof TypesModule>,
  ]).then(([client, types]) => ({ client, types }));
  client.catch(() => (client = undefined));
  return client;
}

function loadHttp(): Promise<typeof HttpModule> {
  http ??= import("@modelcontextprotocol/sdk/client/streamableHttp.js") as Promise<
    typeof HttpModule
  >;
  http.catch(() => (http = undefined));
  return http;
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
export const NO_TIMEOUT = 2_147_483_647;
/** The SDK's error code for a request that ran out of time (also used when aborted). */
export const REQUEST_TIMEOUT = -32001;
/** How long a liveness probe after an HTTP transport error may take. */
const PROBE_TIMEOUT_MS = 3000;

/** Receives one progress notification's params. */
export type Progress = (params: { progress: number; total?: number; message?: string }) => void;

/** One open (or opening) client connection to a server. */
export interface Connection {
  client: ClientModule.Client;
  transport: Transport;
  stdio: StdioTransport | undefined;
  bodies: HttpBodies | undefined;
  closed: boolean;
  /** Rejecters of the requests in flight, called when the connection is lost. */
  inflight: Set<(error: Error) => void>;
  /** Why the connection was lost, once it was. */
  lostError: Error | undefined;
  /** Progress handlers of our requests in flight, by progress token. */
  progress: Map<string, Progress>;
  tokens: number;
}

/** A connection being opened, with the runs waiting for it. */
export interface Opening {
  promise: Promise<Connection>;
  waiters: number;
  settled: boolean;
  abort: AbortController;
  /** The stdio transport, once created (its stderr explains a slow start). */
  stdio: StdioTransport | undefined;
}

const CLIENT_INFO = { name: "toolfoundation", version: "0.1.0" };

/** What a pool gives a connection it opens. */
export interface OpenOptions {
  onElicitation: ElicitationHandler | undefined;
  /** A connection exists (it may hold a process). */
  onLive(connection: Connection): void;
  /** A connection can no longer be used. */
  onLost(connection: Connection): void;
  /** A connection is closed and its process gone. */
  onGone(connection: Connection): void;
}

/** Opens a connection: transport, client, handshake; the opening's abort stops it at once. */
export async function openConnection(
  name: string,
  config: McpServerConfig,
  opening: Opening,
  options: OpenOptions,
): Promise<Connection> {
  const abort = opening.abort.signal;
  const max = config.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
  const sdk = await loadClient();
  let transport: Transport;
  let stdio: StdioTransport | undefined;
  let bodies: HttpBodies | undefined;
  if (config.transport === "stdio") {
    stdio = new StdioTransport({
      command: config.command,
      args: config.args ?? [],
      env: childEnv({ env: config.env, inheritEnv: config.inheritEnv }),
      cwd: config.cwd,
      maxMessageBytes: max,
      redact: config.redact,
    });
    transport = stdio;
  } else if (config.transport === "http") {
    const httpModule = await loadHttp();
    bodies = new HttpBodies(max);
    transport = new httpModule.StreamableHTTPClientTransport(new URL(config.url), {
      requestInit: config.headers === undefined ? undefined : { headers: config.headers },
      fetch: bodies.fetch,
    });
  } else {
    throw new ExecutionError(
      `MCP server ${JSON.stringify(name)}: unknown transport ${
        JSON.stringify((config as { transport?: unknown }).transport)
      }`,
    );
  }
  abort.throwIfAborted();
  const onElicitation = options.onElicitation;
  const client = new sdk.client.Client(CLIENT_INFO, {
    capabilities: onElicitation === undefined
      ? {}
      : { elicitation: { form: { applyDefaults: true } } },
    jsonSchemaValidator: PASS_THROUGH,
  });
  if (onElicitation !== undefined) {
    client.setRequestHandler(sdk.types.ElicitRequestSchema, async (
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
    stdio,
    bodies,
    closed: false,
    inflight: new Set(),
    lostError: undefined,
    progress: new Map(),
    tokens: 0,
  };
  options.onLive(connection);
  const markLost = (error: Error): void => {
    connection.lostError ??= error;
    for (const reject of connection.inflight) reject(error);
    connection.inflight.clear();
  };
  const failInflight = (error: Error): void => {
    for (const reject of connection.inflight) reject(error);
    connection.inflight.clear();
  };
  let connected = false;
  let oversized: OutputTooLargeError | undefined;
  const onOversize = (error: OutputTooLargeError): void => {
    if (connected) return failInflight(error);
    // Too large during the handshake: the connection cannot be used.
    oversized ??= error;
    void closeConnection(connection);
  };
  if (stdio !== undefined) stdio.onoversize = onOversize;
  if (bodies !== undefined) bodies.onoversize = onOversize;
  client.onclose = () => {
    connection.closed = true;
    markLost(new Error("connection closed"));
    bodies?.close();
    options.onLost(connection);
    if (stdio === undefined) options.onGone(connection);
    else stdio.finished.then(() => options.onGone(connection));
  };
  if (bodies !== undefined) {
    // A broken HTTP stream does not always close the client; probe the server
    // after a transport error and give up on the connection when it is gone.
    let probing = false;
    client.onerror = (error: Error) => {
      if (connection.closed || probing || !connected || error instanceof OutputTooLargeError) {
        return;
      }
      probing = true;
      client.ping({ timeout: PROBE_TIMEOUT_MS }).then(
        () => (probing = false),
        (cause: unknown) => {
          markLost(
            new Error(
              `the server is unreachable after a transport error (${error.message}): ${
                errorText(cause)
              }`,
            ),
          );
          connection.closed = true;
          options.onLost(connection);
          closeConnection(connection);
        },
      );
    };
  } else {
    client.onerror = () => undefined; // garbage lines are counted by the transport
  }
  const onAbort = (): void => void (stdio?.kill() ?? closeConnection(connection));
  abort.addEventListener("abort", onAbort, { once: true });
  opening.stdio = stdio;
  try {
    await client.connect(transport, { signal: abort, timeout: NO_TIMEOUT });
    abort.throwIfAborted();
    connected = true;
  } catch (error) {
    await closeConnection(connection);
    if (abort.aborted) throw abort.reason;
    if (oversized !== undefined) throw oversized;
    throw await startError(name, config, stdio, error);
  } finally {
    abort.removeEventListener("abort", onAbort);
  }
  interceptProgress(connection);
  return connection;
}

/** Takes progress notifications of our requests off the transport, in order, before the SDK. */
function interceptProgress(connection: Connection): void {
  const transport = connection.transport;
  const deliver = transport.onmessage;
  if (deliver === undefined) return;
  const progress = connection.progress;
  transport.onmessage = (message, extra) => {
    if ((message as { method?: unknown }).method === "notifications/progress") {
      const params = (message as { params?: { progressToken?: unknown } }).params;
      const handler = progress.get(params?.progressToken as string);
      if (handler !== undefined) {
        handler(params as Parameters<Progress>[0]);
        return;
      }
    }
    deliver(message, extra);
  };
}

/** Settles with the request, or rejects as soon as the connection is lost. */
export function watch<T>(connection: Connection, request: Promise<T>): Promise<T> {
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

export async function closeConnection(connection: Connection): Promise<void> {
  if (!connection.closed) {
    connection.closed = true;
    await connection.client.close().catch(() => undefined);
  }
  connection.bodies?.close();
  // A stdio server's whole process group is gone once this settles.
  await connection.stdio?.close();
}
