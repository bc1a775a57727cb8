// Private: a gateway on the wire: a low-level MCP SDK `Server` whose handlers
// answer from the gateway, so `tools/list` carries every schema exactly as
// defined and calls pass progress, logging and server-to-client requests through.
// This is the edge of both transports: every result, error, notification and
// server-to-client request passes `gateway.scrub` (strings only) on its way out.

import {
  CLIENT_CAPABILITIES_META_KEY,
  ProtocolError,
  Server,
  type ServerContext,
} from "@modelcontextprotocol/server";
import { type CallContext, type Gateway, GatewayProtocolError } from "./gateway.ts";
import { inSpan, markToolError } from "./_telemetry.ts";

/** Options of {@linkcode createMcpServer}. */
export interface CreateMcpServerOptions {
  /** Who calls (the access log's `caller`; default `"stdio"`). */
  caller?: string;
  /** The transport, for telemetry (default `"pipe"`). */
  transport?: "pipe" | "tcp";
  /** The server's name in `serverInfo` (default `"toolfoundation"`). */
  name?: string;
  /** Its version (default `"0.1.0"`). */
  version?: string;
  /** Instructions for the model, sent in the initialize result. */
  instructions?: string;
  /**
   * Sends the gateway's list changes on this server's connection (a stdio
   * connection, a 2025-era session) until it closes. Default false: a
   * server of one request sends none.
   */
  passListChanges?: boolean;
}

type Params = Record<string, unknown>;

const INTERNAL_ERROR = -32603;
const INVALID_PARAMS = -32602;
const METHOD_NOT_FOUND = -32601;

/** Whether a negotiated version is of the stateless era (2026-07-28 or later), which has input-required results instead of server-to-client requests. */
function isModern(version: string | undefined): boolean {
  return version !== undefined && version >= "2026-07-28";
}

/**
 * The cache hint (SEP-2549) of `serve`'s own `tools/list` in the 2026-07-28
 * era: its catalog is fixed while it runs, so a minute; private, because a
 * deployment may put tools behind per-principal scopes.
 */
const TOOLS_LIST_CACHE_HINT = { ttlMs: 60_000, cacheScope: "private" } as const;

/**
 * The JSON-RPC error the SDK sends for a failure, its message and data
 * scrubbed (the SDK answers any other thrown value with its message and
 * `data` too, under the internal-error code, which is kept).
 */
export function protocolError(error: unknown, gateway: Gateway): ProtocolError {
  if (error instanceof GatewayProtocolError) {
    return new ProtocolError(error.code, gateway.redact(error.message));
  }
  const e = error as { code?: unknown; message?: unknown; data?: unknown };
  const code = Number.isSafeInteger(e?.code) ? e.code as number : INTERNAL_ERROR;
  const message = gateway.redact(String(e?.message ?? error ?? "Internal error"));
  return new ProtocolError(
    code,
    message,
    e?.data === undefined ? undefined : gateway.scrub(e.data),
  );
}

/**
 * What the client declared: the request's own envelope in the stateless
 * (2026-07-28) era, else its `initialize`; nothing for a stateless 2025
 * request (no initialize of its own), so an upstream is offered nothing.
 */
function clientCapabilities(ctx: ServerContext, server: Server): Readonly<Record<string, unknown>> {
  const envelope = (ctx.mcpReq as { envelope?: Record<string, unknown> }).envelope;
  const declared = envelope?.[CLIENT_CAPABILITIES_META_KEY] ?? server.getClientCapabilities();
  return typeof declared === "object" && declared !== null && !Array.isArray(declared)
    ? declared as Record<string, unknown>
    : {};
}

function callContext(
  ctx: ServerContext,
  caller: string,
  gateway: Gateway,
  server: Server,
): CallContext {
  const token = ctx.mcpReq._meta?.progressToken;
  const envelope = (ctx.mcpReq as { envelope?: unknown }).envelope;
  // A retry of an input-required result (2026-07-28), or a round of the
  // SDK's shim that answers one for a 2025-era client with server-to-client
  // requests: the SDK lifts both out of the params.
  const inputResponses = ctx.mcpReq.inputResponses;
  const requestState = ctx.mcpReq.requestState();
  if (requestState !== undefined && typeof requestState !== "string") {
    throw new GatewayProtocolError(INVALID_PARAMS, "Invalid or expired requestState: not a string");
  }
  // One answer to "which era does this client speak", for the upstream's era
  // and for how its input requests reach the client.
  const modern = envelope !== undefined || isModern(server.getNegotiatedProtocolVersion());
  return {
    caller,
    ...(inputResponses === undefined ? {} : { inputResponses }),
    ...(requestState === undefined ? {} : { requestState }),
    clientCapabilities: clientCapabilities(ctx, server),
    clientEra: modern ? "modern" : "legacy",
    signal: ctx.mcpReq.signal,
    ...(token === undefined ? {} : {
      onProgress: (p: { progress: number; total?: number; message?: string }) => {
        ctx.mcpReq.notify({
          method: "notifications/progress",
          params: gateway.scrub({ progressToken: token, ...p }),
        }).catch(() => {});
      },
    }),
    onNotification: async (n) => {
      if (n.method === "notifications/message") {
        const p = gateway.scrub(n.params ?? {});
        // deno-lint-ignore no-explicit-any
        await ctx.mcpReq.log(p.level as any, p.data, p.logger as string | undefined).catch(
          () => {},
        );
      }
    },
    onRequest: async (request) => {
      if (modern) {
        // Only a tool call turns them into an input-required result (the gateway does).
        throw Object.assign(
          new Error(
            `the client speaks MCP ${server.getNegotiatedProtocolVersion()}, which has no server-to-client requests; serve turns an upstream's ${request.method} into an input-required result during tools/call only`,
          ),
          { code: METHOD_NOT_FOUND },
        );
      }
      // deno-lint-ignore no-explicit-any
      const send = ctx.mcpReq.send as any;
      return await send(
        { method: request.method, params: gateway.scrub(request.params ?? {}) },
        request.signal === undefined ? undefined : { signal: request.signal },
      );
    },
  };
}

/** A low-level MCP server answering from a gateway (one per connection, or per request when stateless). */
export function createMcpServer(gateway: Gateway, options: CreateMcpServerOptions = {}): Server {
  const caller = options.caller ?? "stdio";
  const transport = options.transport ?? "pipe";
  const redact = (text: string) => gateway.redact(text);
  const server = new Server(
    { name: options.name ?? "toolfoundation", version: options.version ?? "0.1.0" },
    {
      capabilities: { tools: {}, logging: {}, ...gateway.capabilities },
      cacheHints: { "tools/list": TOOLS_LIST_CACHE_HINT },
      ...(options.instructions === undefined ? {} : { instructions: options.instructions }),
    },
  );
  const span = <T>(ctx: ServerContext, target: string | undefined, work: () => Promise<T>) =>
    inSpan({
      method: ctx.mcpReq.method,
      requestId: ctx.mcpReq.id,
      sessionId: ctx.sessionId,
      protocolVersion: server.getNegotiatedProtocolVersion(),
      transport,
      target,
    }, async () => {
      try {
        return gateway.scrub(await work());
      } catch (error) {
        throw protocolError(error, gateway);
      }
    }, redact);
  server.setRequestHandler("tools/list", (_request, ctx) =>
    // deno-lint-ignore no-explicit-any
    span(ctx, undefined, () => Promise.resolve({ tools: gateway.listTools() as any })));
  server.setRequestHandler("tools/call", (request, ctx) => {
    const params = request.params as Params;
    const name = String(params.name);
    return inSpan({
      method: "tools/call",
      requestId: ctx.mcpReq.id,
      sessionId: ctx.sessionId,
      protocolVersion: server.getNegotiatedProtocolVersion(),
      transport,
      target: name,
    }, async (s) => {
      try {
        const args = (params.arguments ?? {}) as Params;
        const result = await gateway.callTool(
          name,
          args,
          callContext(ctx, caller, gateway, server),
        );
        if (result.isError === true) markToolError(s, "tool_error");
        // deno-lint-ignore no-explicit-any
        return gateway.scrub(result) as any;
      } catch (error) {
        throw protocolError(error, gateway);
      }
    }, redact);
  });
  const forwarded = [
    ["resources", "resources/list"],
    ["resources", "resources/templates/list"],
    ["resources", "resources/read"],
    ["resources", "resources/subscribe"],
    ["resources", "resources/unsubscribe"],
    ["prompts", "prompts/list"],
    ["prompts", "prompts/get"],
    ["completions", "completion/complete"],
  ] as const;
  const offered = gateway.capabilities as Record<string, { subscribe?: boolean } | undefined>;
  for (const [capability, method] of forwarded) {
    if (offered[capability] === undefined) continue;
    if (method.endsWith("subscribe") && offered.resources?.subscribe !== true) continue;
    const handler = (request: { params?: Params }, ctx: ServerContext) =>
      span(
        ctx,
        undefined,
        () =>
          gateway.forward(method, request.params ?? {}, callContext(ctx, caller, gateway, server)),
      );
    // deno-lint-ignore no-explicit-any
    (server.setRequestHandler as any)(method, handler);
  }
  if (options.passListChanges === true) passListChanges(server, gateway);
  return server;
}

/** Sends the gateway's list changes on the server's connection until it closes. */
function passListChanges(server: Server, gateway: Gateway): void {
  const stop = gateway.onListChanged((kind) => {
    try {
      const sent = kind === "tools"
        ? server.sendToolListChanged()
        : kind === "prompts"
        ? server.sendPromptListChanged()
        : server.sendResourceListChanged();
      // Not connected (yet, or any more): nothing to tell.
      void Promise.resolve(sent).catch(() => {});
    } catch {
      // Not connected.
    }
  });
  const previous = server.onclose;
  server.onclose = () => {
    stop();
    previous?.();
  };
}
