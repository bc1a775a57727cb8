// Private: the `Mcp-Param-*` headers of a tool call serve forwards to an
// upstream over Streamable HTTP in the 2026-07-28 era, built exactly as the
// runner's MCP client builds them (run/mcp/param_headers.ts): from the tool's
// `x-mcp-header` declarations in the upstream's last listing on this pool,
// else in the schema the caller holds (the served tool's, from the listing
// serve started with). The upstream checks them against the body; when it
// refuses the call for headers that do not match (-32020: our copy of the
// declarations is stale, or we had none), the tools are listed again on the
// same connection and the call is retried once with headers from the new
// listing, as the specification advises; a second refusal is the call's
// error, which names the upstream as the one to fix (no loop). A 2025-era or
// stdio connection has no such headers.

import type { McpListedTool, McpServerConfig } from "../run/mod.ts";
import { errorText, NO_TIMEOUT } from "../run/mcp/connection.ts";
import {
  HEADER_MISMATCH,
  type HeaderScan,
  HeaderValueError,
  isHeaderMismatch,
  mirrorsHeaders,
  paramHeaders,
  scanHeaderDeclarations,
} from "../run/mcp/param_headers.ts";
import { ServeError } from "./errors.ts";
import { listTools } from "./_mcp_upstream_list.ts";
import { sendOnSlot } from "./_mcp_upstream_send.ts";
import type { Slot } from "./_upstream_connect.ts";
import { isUpstreamError } from "./_upstream_errors.ts";
import type { UpstreamCallContext } from "./upstream.ts";

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** One upstream's header declarations, by tool name on the server, from its last listing. */
export class ToolHeaderScans {
  #scans: Map<string, HeaderScan> | undefined;

  /** Keeps the declarations of a whole listing (replacing the previous one). */
  remember(tools: readonly McpListedTool[]): void {
    this.#scans = new Map(
      tools.map((tool) => [tool.name, scanHeaderDeclarations(tool.inputSchema)]),
    );
  }

  /**
   * The headers of one call of `tool` (undefined: none), from the listing,
   * else from `inputSchema`; throws a ServeError for a tool whose
   * declarations are invalid or an argument that has no header form.
   */
  headersOf(
    server: string,
    tool: string,
    args: Record<string, unknown>,
    inputSchema: unknown,
  ): Record<string, string> | undefined {
    const scan = this.#scans?.get(tool) ??
      (inputSchema === undefined ? undefined : scanHeaderDeclarations(inputSchema));
    if (scan === undefined) return undefined;
    if (!scan.valid) {
      throw new ServeError(
        "upstream_unavailable",
        `upstream server ${JSON.stringify(server)}: tool ${
          JSON.stringify(tool)
        } has an invalid x-mcp-header declaration (${scan.reason}); over Streamable HTTP in protocol 2026-07-28 it cannot be called correctly (fix the declaration on the server)`,
      );
    }
    if (scan.declarations.length === 0) return undefined;
    try {
      const headers = paramHeaders(scan.declarations, args);
      return Object.keys(headers).length === 0 ? undefined : headers;
    } catch (error) {
      if (!(error instanceof HeaderValueError)) throw error;
      throw new ServeError(
        "upstream_unavailable",
        `upstream server ${JSON.stringify(server)}: tool ${JSON.stringify(tool)}: ${error.message}`,
        { cause: error },
      );
    }
  }
}

/**
 * Sends one `tools/call` on a checked-out connection of upstream `name`,
 * with its `Mcp-Param-*` headers where the connection carries them, and
 * retries once after listing the tools again when the upstream refuses them.
 */
export async function callWithHeaders(
  name: string,
  slot: Slot,
  params: Record<string, unknown>,
  context: UpstreamCallContext,
  started: number,
  scans: ToolHeaderScans,
  config?: McpServerConfig,
): Promise<Record<string, unknown>> {
  const connection = slot.connection!;
  if (!mirrorsHeaders(connection)) {
    return await sendOnSlot(name, slot, "tools/call", params, context, started, undefined, config);
  }
  const tool = String(params.name);
  const args = isObject(params.arguments) ? params.arguments : {};
  const headers = scans.headersOf(name, tool, args, context.toolInputSchema);
  try {
    return await sendOnSlot(name, slot, "tools/call", params, context, started, headers, config);
  } catch (error) {
    if (!isHeaderMismatch(error)) throw error;
  }
  // The upstream reads the tool's declarations differently: list again, then
  // retry once with the new listing's headers.
  let relisting: unknown;
  try {
    const left = context.timeoutMs === undefined
      ? NO_TIMEOUT
      : Math.max(1, Math.ceil(context.timeoutMs - (performance.now() - started)));
    scans.remember(await listTools(name, connection, context.signal, left));
  } catch (error) {
    // Retried all the same (with the headers we have); a connection whose
    // listing failed for another reason than the upstream's own error answer
    // is replaced after this call.
    relisting = error;
    if (!isUpstreamError(error)) slot.dead = true;
  }
  context.signal?.throwIfAborted();
  const again = scans.headersOf(name, tool, args, context.toolInputSchema);
  try {
    return await sendOnSlot(name, slot, "tools/call", params, context, started, again, config);
  } catch (second) {
    if (!isHeaderMismatch(second)) throw second;
    throw new ServeError(
      "upstream_unavailable",
      `upstream server ${JSON.stringify(name)} refused tool ${
        JSON.stringify(tool)
      } twice for Mcp-Param headers that do not match its arguments (${HEADER_MISMATCH}), the second time after its tools were listed again${
        relisting === undefined ? "" : ` (that listing failed: ${errorText(relisting)})`
      }: ${
        errorText(second)
      }; its x-mcp-header declarations disagree with what it checks (fix the upstream server)`,
      { cause: second },
    );
  }
}
