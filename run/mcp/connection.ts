/**
 * One MCP client connection: opened with the SDK's v2 client over the
 * transport of `_transport.ts`, in the protocol era of `_era.ts`, with our
 * progress interception and loss detection (`_lifecycle.ts`); watched while
 * it lives and closed with its server's process group. The runner's pool
 * (`pool.ts`) and the serve gateway's upstreams open their connections here;
 * this module also gives them what they use with one (closing it, watching a
 * request, the texts of a failed server).
 *
 * @module
 */

import { OutputTooLargeError } from "../errors.ts";
import type { McpServerConfig } from "./config.ts";
import type { ElicitationHandler } from "./tools.ts";
import type { StdioTransport } from "./_stdio.ts";
import {
  closedOnProbe,
  connectOptions,
  type EraVerdict,
  livenessRequest,
  negotiation,
  protocolOf,
  verdictOf,
} from "./_era.ts";
import {
  closeConnection,
  type Connection,
  failInflight,
  interceptProgress,
  markLost,
} from "./_lifecycle.ts";
import { ANY_RESULT, loadSdk, PASS_THROUGH, type Sdk } from "./_sdk.ts";
import { createTransport } from "./_transport.ts";
import { bridgeModernResults } from "./_result_bridge.ts";
import { errorText, startError } from "./_report.ts";

export { closeConnection, type Connection, watch } from "./_lifecycle.ts";
export type { EraVerdict } from "./_era.ts";
export { callError, errorText, stderrHint } from "./_report.ts";
export { NO_TIMEOUT } from "./_sdk.ts";
export { completedResult } from "./_result_bridge.ts";

/** How long a liveness probe after an HTTP transport error may take. */
const PROBE_TIMEOUT_MS = 3000;

const CLIENT_INFO = { name: "toolfoundation", version: "0.1.0" };

/** A connection being opened, with the runs waiting for it. */
export interface Opening {
  /** Settles with the open connection, or with why it could not be opened. */
  promise: Promise<Connection>;
  /** How many runs wait for it (the last one to give up aborts it). */
  waiters: number;
  /** True once `promise` settled. */
  settled: boolean;
  /** Aborting it stops the opening at once. */
  abort: AbortController;
  /** The stdio transport, once created (its stderr explains a slow start). */
  stdio: StdioTransport | undefined;
}

/**
 * The client side of a connection beyond the runner's (serve's upstreams):
 * its name, capabilities, and handlers of the server's requests (sampling,
 * elicitation, roots) and notifications. Given, it replaces `onElicitation`.
 */
export interface ClientSide {
  /** The client's name and version, as the handshake gives them. */
  info: { name: string; version: string };
  /** The client's capabilities, as the handshake gives them. */
  capabilities: Record<string, unknown>;
  /** Answers a server-to-client request, by method; its signal aborts when the server cancels. */
  requests: Record<
    string,
    (params: Record<string, unknown> | undefined, signal: AbortSignal) => Promise<unknown>
  >;
  /** Receives a notification, by method (progress is delivered by token instead). */
  notifications: Record<string, (params: Record<string, unknown> | undefined) => void>;
}

/** What a pool gives a connection it opens. */
export interface OpenOptions {
  /** Answers the server's elicitation requests (without it, elicitation is not offered). */
  onElicitation: ElicitationHandler | undefined;
  /** Instead of `onElicitation`: the whole client side (see {@linkcode ClientSide}). */
  clientSide?: ClientSide;
  /** The era this server was found to speak before (no probe then). */
  prior: EraVerdict | undefined;
  /** The era an `auto` connection found, to remember. */
  onVerdict(verdict: EraVerdict): void;
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
  const protocol = protocolOf(name, config);
  const sdk = await loadSdk();
  opening.abort.signal.throwIfAborted();
  const prior = protocol === "auto" ? options.prior : undefined;
  let connection: Connection;
  try {
    connection = await attempt(sdk, name, config, opening, options, prior);
  } catch (error) {
    if (!(error instanceof ProbeClosed)) throw error;
    // The server exited on `server/discover` (some 2025-era SDKs do): start it
    // once more and speak 2025 with it.
    connection = await attempt(sdk, name, config, opening, options, { kind: "legacy" });
  }
  const verdict = protocol === "auto" ? verdictOf(connection.client) : undefined;
  if (verdict !== undefined) options.onVerdict(verdict);
  return connection;
}

/** A stdio server went away during the in-place era probe. */
class ProbeClosed extends Error {}

async function attempt(
  sdk: Sdk,
  name: string,
  config: McpServerConfig,
  opening: Opening,
  options: OpenOptions,
  prior: EraVerdict | undefined,
): Promise<Connection> {
  const abort = opening.abort.signal;
  abort.throwIfAborted();
  const { transport, stdio, bodies } = createTransport(sdk, name, config);
  const side = options.clientSide;
  const onElicitation = side === undefined ? options.onElicitation : undefined;
  const client = new sdk.Client(side?.info ?? CLIENT_INFO, {
    capabilities: side !== undefined
      ? side.capabilities
      : onElicitation === undefined
      ? {}
      : { elicitation: { form: { applyDefaults: true } } },
    jsonSchemaValidator: PASS_THROUGH,
    versionNegotiation: negotiation(protocolOf(name, config), config),
  });
  for (const [method, handle] of Object.entries(side?.requests ?? {})) {
    client.setRequestHandler(
      method as "elicitation/create",
      (request, ctx) => handle(request.params, ctx.mcpReq.signal) as never,
    );
  }
  for (const [method, handle] of Object.entries(side?.notifications ?? {})) {
    client.setNotificationHandler(
      method as "notifications/message",
      (notification) => handle(notification.params as Record<string, unknown> | undefined),
    );
  }
  if (onElicitation !== undefined) {
    client.setRequestHandler("elicitation/create", async (request, ctx) => {
      const params = request.params as Record<string, unknown>;
      const answer = await onElicitation({
        server: name,
        message: String(params.message ?? ""),
        requestedSchema: params.requestedSchema as Record<string, unknown> | undefined,
        params,
      }, ctx.mcpReq.signal);
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
  let connected = false;
  let oversized: OutputTooLargeError | undefined;
  const onOversize = (error: OutputTooLargeError): void => {
    if (connected) return failInflight(connection, error);
    // Too large during the handshake: the connection cannot be used.
    oversized ??= error;
    void closeConnection(connection);
  };
  if (stdio !== undefined) stdio.onoversize = onOversize;
  if (bodies !== undefined) bodies.onoversize = onOversize;
  client.onclose = () => {
    connection.closed = true;
    markLost(connection, new Error("connection closed"));
    bodies?.close();
    options.onLost(connection);
    if (stdio === undefined) options.onGone(connection);
    else stdio.finished.then(() => options.onGone(connection));
  };
  if (bodies !== undefined) {
    // A broken HTTP stream does not always close the client; probe the server
    // after a transport error and give up on the connection when it is gone.
    // An authorization failure is the server's answer, not a lost server: the
    // request it refused fails on its own (and may be authorized again).
    let probing = false;
    client.onerror = (error: Error) => {
      if (
        connection.closed || probing || !connected || error instanceof OutputTooLargeError ||
        isAuthorizationFailure(sdk, error)
      ) {
        return;
      }
      probing = true;
      // What the era has: `ping` (2025) or `server/discover` (2026-07-28, no `ping`).
      client.request(livenessRequest(client), ANY_RESULT, { timeout: PROBE_TIMEOUT_MS }).then(
        () => (probing = false),
        (cause: unknown) => {
          // Refused (401, 403, a login to finish): the server is there; the
          // requests it refused fail on their own.
          if (isAuthorizationFailure(sdk, cause)) return void (probing = false);
          markLost(
            connection,
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
    await client.connect(transport, connectOptions(abort, prior));
    abort.throwIfAborted();
    connected = true;
  } catch (error) {
    await closeConnection(connection);
    if (abort.aborted) throw abort.reason;
    if (oversized !== undefined) throw oversized;
    if (
      stdio !== undefined && prior === undefined && protocolOf(name, config) === "auto" &&
      closedOnProbe(error)
    ) {
      throw new ProbeClosed(errorText(error), { cause: error });
    }
    throw await startError(name, config, stdio, error);
  } finally {
    abort.removeEventListener("abort", onAbort);
  }
  interceptProgress(connection);
  bridgeModernResults(connection);
  return connection;
}

/** The codes of the runner's `AuthError` (run/auth). */
const AUTH_CODES: ReadonlySet<unknown> = new Set(["auth_login_required", "auth_failed"]);

/** Whether a transport error is an authorization failure (401, 403, a login needed). */
function isAuthorizationFailure(sdk: Sdk, error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current !== undefined && current !== null && depth < 6; depth++) {
    if (
      current instanceof sdk.UnauthorizedError || current instanceof sdk.OAuthError ||
      AUTH_CODES.has((current as { code?: unknown }).code) ||
      (current instanceof sdk.SdkHttpError &&
        (current.code === sdk.SdkErrorCode.ClientHttpAuthentication ||
          current.code === sdk.SdkErrorCode.ClientHttpForbidden))
    ) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
