// Private: how a failure of an upstream MCP server reaches `serve`. A JSON-RPC
// error the upstream answered with passes through as it is (numeric `code`,
// `data`); anything else is a ServeError `upstream_unavailable` whose message
// says what the runner would say (the server's exit status and stderr tail
// when it went away, the cap a message exceeded), with the run error as cause.

import { callError, type Connection, errorText } from "../run/mcp/connection.ts";
import { ServeError } from "./errors.ts";

/** Whether an error is the upstream's own JSON-RPC error answer. */
export function isUpstreamError(error: unknown): boolean {
  return typeof (error as { code?: unknown })?.code === "number";
}

/**
 * The error `serve` reports for a failed request (or connect, without a
 * connection) to the upstream `name`.
 */
export function upstreamFailure(
  name: string,
  connection: Connection | undefined,
  error: unknown,
): Error {
  if (error instanceof ServeError || isUpstreamError(error)) return error as Error;
  const cause = connection === undefined ? error : callError(name, connection, error, undefined);
  return new ServeError(
    "upstream_unavailable",
    `upstream server ${JSON.stringify(name)} failed: ${errorText(cause)}`,
    { cause },
  );
}
