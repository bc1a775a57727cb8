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
import { StdioLineTransport } from "./_stdio_lines.ts";

/** The default cap on one message (one line) on stdin: 4 MiB, the HTTP body limit. */
export const DEFAULT_MAX_MESSAGE_BYTES: number = 4 * 1024 * 1024;

/** Options of {@linkcode serveStdio}. */
export interface ServeStdioOptions extends Omit<CreateMcpServerOptions, "caller" | "transport"> {
  /**
   * The most bytes of one message (one line) on stdin (default
   * {@linkcode DEFAULT_MAX_MESSAGE_BYTES}). A longer line is answered at once
   * with a JSON-RPC error (id null, code -32600) and skipped up to its newline;
   * the next line is served.
   */
  maxMessageBytes?: number;
  /** How the error for a line over the cap says to raise it (e.g. `raise it with --max-body-bytes N`). */
  raiseHint?: string;
}

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
 * @param options Server info and the message cap.
 * @returns The running server.
 */
export function serveStdio(gateway: Gateway, options: ServeStdioOptions = {}): StdioServing {
  const { maxMessageBytes, raiseHint, ...server } = options;
  const transport = new StdioLineTransport(process.stdin, process.stdout, {
    maxMessageBytes: maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES,
    ...(raiseHint === undefined ? {} : { raiseHint }),
  });
  const handle = sdkServeStdio(
    () =>
      createMcpServer(gateway, {
        ...server,
        caller: "stdio",
        transport: "pipe",
        passListChanges: true,
      }),
    { transport, onerror: () => {} },
  );
  const finished = new Promise<void>((resolve) => {
    process.stdin.once("end", () => resolve());
    process.stdin.once("close", () => resolve());
  });
  return { finished, close: () => handle.close() };
}
