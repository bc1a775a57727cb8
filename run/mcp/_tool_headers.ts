// Private: where the custom headers of `_param_headers.ts` apply: on a
// Streamable HTTP connection in the 2026-07-28 era only (stdio has no
// headers; the 2025 era has no such rule). There a listed tool whose
// `x-mcp-header` declarations are invalid is left out of the listing, loudly
// (its name and the reason, as a skipped tool), and every call of a tool with
// declarations carries its `Mcp-Param-*` headers. The declarations come from
// the pool's last listing of the server, else from the schema the caller holds
// (a tool the manifest or a lock file declared). When the server refuses a
// call because its headers do not match (-32020, `HeaderMismatch`: our copy of
// the tool's declarations is stale, or we had none), the pool lists the tools
// again and retries the call once with headers built from the new listing, as
// the specification advises and the SDK's `callTool` does; a second mismatch
// is the call's error (no loop).

import { ExecutionError } from "../errors.ts";
import type { Connection } from "./_lifecycle.ts";
import type { McpListedTool } from "./tools.ts";
import {
  type HeaderScan,
  HeaderValueError,
  paramHeaders,
  scanHeaderDeclarations,
} from "./_param_headers.ts";

/** The scan of each listed tool, by its name on the server. */
export type HeaderScans = Map<string, HeaderScan>;

/** Whether a connection sends custom headers: Streamable HTTP in the 2026-07-28 era. */
export function mirrorsHeaders(connection: Connection): boolean {
  return connection.bodies !== undefined && connection.client.getProtocolEra() === "modern";
}

/** The error a tool with invalid declarations is left out with (and its calls fail with). */
function invalidToolError(
  server: string,
  tool: string,
  reason: string,
  toolId?: string,
): ExecutionError {
  return new ExecutionError(
    `MCP server ${JSON.stringify(server)}: tool ${
      JSON.stringify(tool)
    } is left out: its inputSchema has an invalid x-mcp-header declaration (${reason}); over Streamable HTTP in protocol 2026-07-28 it cannot be called correctly, so clients must not use it (fix the declaration on the server)`,
    { toolId, details: { server, tool, reason } },
  );
}

/** The listed tools without those whose declarations are invalid (when the connection mirrors). */
export function excludeInvalidHeaderTools(
  server: string,
  connection: Connection,
  tools: McpListedTool[],
): { tools: McpListedTool[]; excluded: { name: string; error: Error }[]; scans: HeaderScans } {
  const scans: HeaderScans = new Map();
  const kept: McpListedTool[] = [];
  const excluded: { name: string; error: Error }[] = [];
  const mirrors = mirrorsHeaders(connection);
  for (const tool of tools) {
    const scan = scanHeaderDeclarations(tool.inputSchema);
    scans.set(tool.name, scan);
    if (mirrors && !scan.valid) {
      excluded.push({ name: tool.name, error: invalidToolError(server, tool.name, scan.reason) });
    } else {
      kept.push(tool);
    }
  }
  return { tools: kept, excluded, scans };
}

/**
 * The `Mcp-Param-*` headers of one call, or `undefined` when it sends none;
 * throws an `ExecutionError` for a tool with invalid declarations or an
 * argument with no header form.
 */
export function callHeaders(
  server: string,
  connection: Connection,
  tool: string,
  args: Record<string, unknown>,
  listed: HeaderScan | undefined,
  inputSchema: unknown,
  toolId: string | undefined,
): Record<string, string> | undefined {
  if (!mirrorsHeaders(connection)) return undefined;
  const scan = listed ??
    (inputSchema === undefined ? undefined : scanHeaderDeclarations(inputSchema));
  if (scan === undefined) return undefined;
  if (!scan.valid) throw invalidToolError(server, tool, scan.reason, toolId);
  if (scan.declarations.length === 0) return undefined;
  try {
    const headers = paramHeaders(scan.declarations, args);
    return Object.keys(headers).length === 0 ? undefined : headers;
  } catch (error) {
    if (!(error instanceof HeaderValueError)) throw error;
    throw new ExecutionError(
      `MCP server ${JSON.stringify(server)}: tool ${JSON.stringify(tool)}: ${error.message}`,
      {
        toolId,
        cause: error,
        details: { server, tool, header: error.header, argument: error.path },
      },
    );
  }
}

/** The JSON-RPC error code of a header that does not match the body (`HeaderMismatch`). */
export const HEADER_MISMATCH = -32020;

/** Whether a failed request was refused for a header that does not match its body. */
export function isHeaderMismatch(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === HEADER_MISMATCH;
}

/** Header bytes above which a failed call names its `Mcp-Param-*` headers (a common proxy limit). */
const LARGE_HEADERS_BYTES = 8 * 1024;

/**
 * What to add to the error of a failed call that carried large headers:
 * servers and proxies refuse request headers past their limit (often with an
 * empty 400 or 431), which otherwise reads as an unexplained transport error.
 */
export function largeHeadersHint(headers: Record<string, string> | undefined): string | undefined {
  if (headers === undefined) return undefined;
  const sizes = Object.entries(headers).map(([name, value]) =>
    [name, name.length + value.length] as const
  );
  const total = sizes.reduce((sum, [, size]) => sum + size, 0);
  if (total <= LARGE_HEADERS_BYTES) return undefined;
  const [largest, size] = sizes.reduce((a, b) => (b[1] > a[1] ? b : a));
  return `the call carried ${total} bytes of Mcp-Param headers (largest: ${largest}, ${size} bytes), which servers and proxies often refuse (HTTP 400 or 431; many stop at 8 to 64 KiB): pass large values in an argument without an x-mcp-header declaration`;
}
