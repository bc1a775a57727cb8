/**
 * Listing an MCP server's tools on one connection, whoever owns it: the
 * runner's pool lists over its own connection, `serve` over its pool's
 * first connection to the server (so a server listed at start is not
 * started once more for the listing). Both get the same checks of each
 * page, the same exclusions (invalid `x-mcp-header` declarations where the
 * era mirrors them) and the same deadline errors, naming the phase.
 *
 * @module
 */

import type { McpListedTool, McpToolListing } from "./tools.ts";
import { checkToolList, McpTimeoutError } from "./_checks.ts";
import { type Connection, watch } from "./_lifecycle.ts";
import { callError, stderrHint } from "./_report.ts";
import { ANY_RESULT, NO_TIMEOUT, REQUEST_TIMEOUT } from "./_sdk.ts";
import { excludeInvalidHeaderTools, type HeaderScans } from "./_tool_headers.ts";
import { limited } from "./_wait.ts";

/** A connection's tool listing, with each tool's `x-mcp-header` declarations. */
export interface ConnectionListing extends McpToolListing {
  /** Every tool listed, those left out included (what a check of the listing compares). */
  all: McpListedTool[];
  /** Each listed tool's header declarations, by name (for the calls' Mcp-Param headers). */
  scans: HeaderScans;
}

/** The deadline of a listing. */
export interface ListingDeadline {
  /** Cancels the listing. */
  signal?: AbortSignal;
  /** The deadline in ms of connecting and listing together (`0`: none). */
  timeoutMs: number;
  /** When the deadline started (`performance.now()`). */
  started: number;
}

/**
 * Every page of `tools/list` on an open connection, within what is left of
 * the deadline; a page of the wrong shape, a lost connection or an error
 * answer fails with the runner's error naming the server.
 */
export async function listConnectionTools(
  name: string,
  connection: Connection,
  deadline: ListingDeadline,
): Promise<ConnectionListing> {
  const { signal, timeoutMs, started } = deadline;
  const tools: McpListedTool[] = [];
  let cursor: string | undefined;
  do {
    let timeout = NO_TIMEOUT;
    if (limited(timeoutMs)) {
      timeout = Math.ceil(timeoutMs - (performance.now() - started));
      if (timeout <= 0) {
        throw new McpTimeoutError(timeoutMs, "list", name, { hint: stderrHint(connection.stdio) });
      }
    }
    const page = connection.client.request(
      { method: "tools/list", params: cursor === undefined ? {} : { cursor } },
      ANY_RESULT,
      { signal, timeout },
    );
    let result: { tools: McpListedTool[]; nextCursor?: string };
    try {
      result = checkToolList(name, await watch(connection, page));
    } catch (error) {
      if (
        (error as { code?: unknown })?.code === REQUEST_TIMEOUT && !signal?.aborted &&
        limited(timeoutMs)
      ) {
        throw new McpTimeoutError(timeoutMs, "list", name, { cause: error });
      }
      throw callError(name, connection, error, undefined);
    }
    tools.push(...result.tools);
    cursor = result.nextCursor;
  } while (cursor !== undefined);
  return { ...excludeInvalidHeaderTools(name, connection, tools), all: tools };
}

/**
 * Lists the tools over a connection `open` gives (and `release` takes back;
 * a failed `open` cleans up itself), within one deadline for connecting and
 * listing: past it while connecting, the error is the runner's connect
 * timeout (with the server's stderr hint `hint` gives), and `open`'s signal
 * aborts. An `open` that listed the new connection already (to check it)
 * gives that listing: the tools are not listed twice.
 */
export async function listToolsOver(
  name: string,
  open: (signal: AbortSignal) => Promise<{ connection: Connection; listing?: ConnectionListing }>,
  release: () => void,
  deadline: ListingDeadline & { hint?: () => string | undefined },
): Promise<ConnectionListing> {
  const { signal, timeoutMs, started } = deadline;
  const stop = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  if (limited(timeoutMs)) {
    timer = setTimeout(() => {
      stop.abort(new McpTimeoutError(timeoutMs, "connect", name, { hint: deadline.hint?.() }));
    }, Math.max(0, timeoutMs - (performance.now() - started)));
  }
  let opened: { connection: Connection; listing?: ConnectionListing };
  try {
    opened = await open(
      signal === undefined ? stop.signal : AbortSignal.any([signal, stop.signal]),
    );
  } catch (error) {
    // The deadline's error, not the opening's report of being aborted by it.
    throw stop.signal.aborted && !signal?.aborted ? stop.signal.reason : error;
  } finally {
    clearTimeout(timer);
  }
  try {
    return opened.listing ?? await listConnectionTools(name, opened.connection, deadline);
  } finally {
    release();
  }
}
