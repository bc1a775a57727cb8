// Private: what to say about a stdio server that failed: its exit status, the
// lines it wrote that were not JSON-RPC, its stderr tail, and what its stderr
// says is missing (a certificate, a variable).

import { ExecutionError, OutputTooLargeError, PermissionDeniedError, RunError } from "../errors.ts";
import type { McpServerConfig } from "./config.ts";
import { tail } from "../output/text.ts";
import type { StdioTransport } from "./_stdio.ts";
import type { Connection } from "./_lifecycle.ts";
import { CONNECTION_CLOSED } from "./_sdk.ts";
import { startHints } from "../process/start_hints.ts";

/** How long to wait for a failed server's exit status and last stderr. */
const EXIT_REPORT_MS = 1000;

/** The message of anything thrown. */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Garbage lines, stderr tail and what is missing, of a stdio server; undefined when none. */
export function stderrHint(stdio: StdioTransport | undefined): string | undefined {
  if (stdio === undefined) return undefined;
  const parts: string[] = [];
  if (stdio.garbage > 0) {
    parts.push(
      `the server wrote ${stdio.garbage} line(s) that are not JSON-RPC (first: ${
        JSON.stringify(stdio.firstGarbage)
      })`,
    );
  }
  const text = stdio.stderr.text().trim();
  if (text !== "") parts.push(`stderr: ${tail(text, 500)}`);
  if (text !== "") parts.push(...startHints(text, stdio.env, { who: "server" }).hints);
  return parts.length === 0 ? undefined : parts.join("; ");
}

/** The stderr tail of a stdio server for a message (also put in `details`); "" when none. */
export function stderrOnly(
  stdio: StdioTransport | undefined,
  details: Record<string, unknown>,
): string {
  const text = stdio?.stderr.text().trim() ?? "";
  if (text === "") return "";
  details.stderrTail = tail(text, 2000);
  return `stderr: ${tail(text, 500)}`;
}

/** Exit status, garbage, stderr tail and diagnosis of a stdio server, for messages. */
export function serverReport(
  stdio: StdioTransport | undefined,
  details: Record<string, unknown>,
): string {
  if (stdio === undefined) return "";
  const parts: string[] = [];
  if (stdio.exit !== undefined) {
    details.exitCode = stdio.exit.code;
    if (stdio.exit.signal !== null) details.signal = stdio.exit.signal;
    parts.push(
      stdio.exit.signal === null
        ? `the server exited with code ${stdio.exit.code}`
        : `the server was ended by ${stdio.exit.signal}`,
    );
  }
  const text = stdio.stderr.text().trim();
  if (text !== "") details.stderrTail = tail(text, 2000);
  const hint = stderrHint(stdio);
  if (hint !== undefined) parts.push(hint);
  return parts.join("; ");
}

/** Why a server could not be connected to: spawn error, exit code, stderr, what is missing. */
export async function startError(
  name: string,
  config: McpServerConfig,
  stdio: StdioTransport | undefined,
  error: unknown,
): Promise<RunError> {
  const errorName = (error as { name?: unknown })?.name;
  if (errorName === "NotCapable" || errorName === "PermissionDenied") {
    return new PermissionDeniedError(
      `cannot start MCP server ${JSON.stringify(name)}: ${errorText(error)}`,
      { cause: error },
    );
  }
  if (errorName === "NotFound" && config.transport === "stdio") {
    return new ExecutionError(
      `cannot start MCP server ${JSON.stringify(name)}: program ${
        JSON.stringify(config.command)
      } not found`,
      { cause: error, details: { server: name } },
    );
  }
  if (stdio !== undefined) {
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      stdio.finished,
      new Promise((resolve) => (timer = setTimeout(resolve, EXIT_REPORT_MS))),
    ]);
    clearTimeout(timer);
  }
  const details: Record<string, unknown> = { server: name };
  const report = serverReport(stdio, details);
  if (error instanceof RunError) return error;
  return new ExecutionError(
    `cannot connect to MCP server ${JSON.stringify(name)}: ${errorText(error)}${
      report === "" ? "" : `; ${report}`
    }`,
    { cause: error, details },
  );
}

/** A failed request as a run error: the server's exit and stderr when it went away, and `hint`. */
export function callError(
  name: string,
  connection: Connection,
  error: unknown,
  toolId: string | undefined,
  hint?: string,
): RunError {
  if (error instanceof OutputTooLargeError) {
    return new OutputTooLargeError(error.limitBytes, { toolId, cause: error });
  }
  if (error instanceof RunError) return error;
  const code = (error as { code?: unknown })?.code;
  const details: Record<string, unknown> = { server: name };
  if (typeof code === "number") details.mcpCode = code;
  const lost = connection.closed || code === CONNECTION_CLOSED;
  const what = lost
    ? `MCP server ${JSON.stringify(name)} closed the connection during the call (${
      errorText(error)
    })`
    : `MCP server ${JSON.stringify(name)}: ${errorText(error)}`;
  const report = [
    lost ? serverReport(connection.stdio, details) : stderrOnly(connection.stdio, details),
    hint ?? "",
  ].filter((part) => part !== "").join("; ");
  return new ExecutionError(report === "" ? what : `${what}; ${report}`, {
    cause: error,
    details,
  });
}
