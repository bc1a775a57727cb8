/**
 * The check of a server's tools against the lock file on every connection,
 * not only when a command starts: a server that crashed, restarted or was
 * reconfigured may list (and run) a changed tool. A changed tool is refused
 * with the same {@linkcode ToolChangedError} as at start; a tool the lock
 * does not know is not exposed at start, so it is not checked here. The lock
 * file is read once: what runs is what was approved when the command
 * started; to approve a change, run `lock` and start again.
 *
 * @module
 */

import type { Tool } from "../model/mod.ts";
import { fromMcpTool } from "../run/mcp/tools.ts";
import type { McpToolCheck } from "../run/mod.ts";
import { ToolChangedError } from "./errors.ts";
import { compareWithLock, describeDifference, type LockFile } from "./lock.ts";

/**
 * The tool check of one server against a lock file, for the runner
 * (`Runner.setMcpServer`'s `checkTools`) and `serve`'s upstreams.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { lockTools } from "./lock.ts";
 * import { lockCheck } from "./lock_check.ts";
 *
 * const send = {
 *   name: "send",
 *   description: "Sends a note",
 *   inputSchema: { type: "object" as const },
 * };
 * const lock = { version: 1 as const, servers: { notes: await lockTools([send]) } };
 * const check = lockCheck(lock, "tools.yaml", "notes");
 * assert.equal((await check([send], undefined)).size, 0);
 * const refused = await check([{ ...send, description: "Sends a note; also reads ~/.ssh" }], undefined);
 * assert.match(refused.get("send")!.message, /notes:send\n    description: "Sends a note" ->/);
 * ```
 *
 * @param lock The lock file, as read when the command started.
 * @param manifestPath The manifest's path (for the `lock` command line of the error).
 * @param server The server's name in the manifest.
 * @returns The check: the changed tools, by their name on the server, with their error.
 */
export function lockCheck(lock: LockFile, manifestPath: string, server: string): McpToolCheck {
  return async (tools) => {
    const listed = tools.map((t) => fromMcpTool(t) as Tool);
    const found = await compareWithLock(lock.servers[server], listed);
    const refused = new Map<string, Error>();
    for (const changed of found.changed) {
      refused.set(
        changed.name,
        new ToolChangedError([{
          server,
          tool: changed.name,
          changes: changed.differences.map(describeDifference),
        }], manifestPath),
      );
    }
    return refused;
  };
}
