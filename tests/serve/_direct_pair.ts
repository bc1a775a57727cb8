// Two HTTP handlers of one gateway, one with the direct path and one without
// (`directCalls: false`, the SDK's path), for the tests that compare the
// direct paths' answers with the SDK's byte for byte.

import { mcpBackend, type ToolObjectSchema } from "../../model/mod.ts";
import { Runner } from "../../run/mod.ts";
import { Server } from "@modelcontextprotocol/server";
import { createHttpHandler, Gateway, type HttpHandler, type Upstream } from "../../serve/mod.ts";

/** Options of {@linkcode handlerPair}. */
export interface HandlerPairOptions {
  /** The gateway's deadline of a call. */
  timeoutMs?: number;
  /** Calls in flight per client. */
  maxConcurrentPerClient?: number;
  /** Stateful sessions (`--sessions`). */
  sessions?: boolean;
}

/** The two handlers and what closes them. */
export interface HandlerPair {
  /** The handler with the direct path. */
  direct: HttpHandler;
  /** The handler without it (the SDK's path). */
  sdk: HttpHandler;
  /** Closes both handlers and the gateway. */
  close(): Promise<void>;
}

/**
 * A gateway serving `upstream`'s tools (named `up`, each with its input
 * schema from `schemas`) plus a local `add` tool, with a redactor that hides
 * `s3cr3t`, and its two handlers.
 */
export async function handlerPair(
  upstream: Upstream,
  schemas: Record<string, ToolObjectSchema>,
  options: HandlerPairOptions = {},
): Promise<HandlerPair> {
  const runner = new Runner();
  for (const [name, inputSchema] of Object.entries(schemas)) {
    runner.registry.add({ name, namespace: "up", inputSchema }, mcpBackend("up"));
  }
  runner.addLocalTool({
    name: "add",
    inputSchema: {
      type: "object",
      properties: { a: { type: "number" }, b: { type: "number" } },
      required: ["a", "b"],
    },
  }, (args) => ({ sum: (args.a as number) + (args.b as number) }));
  const gateway = await Gateway.create(runner, {
    upstreams: [upstream],
    redact: (text) => text.replaceAll("s3cr3t", "***"),
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
  });
  const limits = {
    ...(options.maxConcurrentPerClient === undefined
      ? {}
      : { maxConcurrentPerClient: options.maxConcurrentPerClient }),
    ...(options.sessions ? { sessions: true } : {}),
  };
  const direct = createHttpHandler(gateway, limits);
  const sdk = createHttpHandler(gateway, { ...limits, directCalls: false });
  return {
    direct,
    sdk,
    async close() {
      await direct.close();
      await sdk.close();
      await gateway.close();
    },
  };
}

/** The status, headers (but the length) and body of a handler's answer to `request`. */
export async function answerOf(
  handler: HttpHandler,
  request: Request,
): Promise<{ status: number; headers: [string, string][]; body: string }> {
  const response = await handler.fetch(request);
  return {
    status: response.status,
    headers: [...response.headers].filter(([k]) => k !== "content-length"),
    body: await response.text(),
  };
}

/** How many SDK servers were connected since {@linkcode countConnects}; disposing it stops counting. */
export interface ConnectCount extends Disposable {
  /** SDK servers connected so far (the SDK's path connects one per request; the direct path none). */
  readonly count: number;
}

/** Counts the SDK servers connected in this process until the result is disposed (`using`). */
export function countConnects(): ConnectCount {
  const connect = Server.prototype.connect;
  let count = 0;
  Server.prototype.connect = function (this: Server, ...args: Parameters<Server["connect"]>) {
    count++;
    return connect.apply(this, args);
  };
  return {
    get count() {
      return count;
    },
    [Symbol.dispose]() {
      Server.prototype.connect = connect;
    },
  };
}
