/**
 * Serving a gateway over stdin/stdout (newline-delimited JSON-RPC), both
 * protocol eras.
 *
 * @module
 */

import process from "node:process";
import { serveStdio as sdkServeStdio } from "@modelcontextprotocol/server/stdio";
import type { Gateway } from "./gateway.ts";
import { createMcpServer, type CreateMcpServerOptions } from "./_mcp_server.ts";

/** Options of {@linkcode serveStdio}. */
export type ServeStdioOptions = Omit<CreateMcpServerOptions, "caller" | "transport">;

/** A running stdio server. */
export interface StdioServing {
  /** Settles when standard input ends (the client went away). */
  readonly finished: Promise<void>;
  /** Stops serving. */
  close(): Promise<void>;
}

/**
 * Serves the gateway on the process's stdin/stdout until stdin ends.
 *
 * @example
 * ```ts ignore
 * import { serveStdio } from "@toolfoundation/core/serve";
 *
 * const serving = serveStdio(gateway);
 * await serving.finished;
 * await gateway.close();
 * ```
 *
 * @param gateway The gateway.
 * @param options Server info.
 * @returns The running server.
 */
export function serveStdio(gateway: Gateway, options: ServeStdioOptions = {}): StdioServing {
  const handle = sdkServeStdio(
    () => createMcpServer(gateway, { ...options, caller: "stdio", transport: "pipe" }),
    { onerror: () => {} },
  );
  const finished = new Promise<void>((resolve) => {
    process.stdin.once("end", () => resolve());
    process.stdin.once("close", () => resolve());
  });
  return { finished, close: () => handle.close() };
}
