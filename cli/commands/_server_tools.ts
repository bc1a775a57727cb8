// Private: what list, validate, convert and respond share about the
// manifest's servers: connecting under the run's permissions and deadline,
// --offline, --keep-going, and the report of lock findings.

import { noteSkipped } from "./_permission_lines.ts";
import { type CliIo, diagnose } from "../_io.ts";
import { serverProgress } from "../_progress.ts";
import { Warnings } from "../_warnings.ts";
import type { ResolvedTool } from "../../workspace/manifest.ts";
import type { ServerReport } from "../../workspace/server_tools.ts";
import type { Workspace } from "../../workspace/workspace.ts";
import { parseTimeout, withInterrupt } from "./_shared.ts";

/** The options of commands that connect to the manifest's servers. */
export const SERVER_OPTIONS = {
  offline: { type: "boolean" },
  "keep-going": { type: "boolean" },
  timeout: { type: "string" },
} as const;

/** A server's line in `list`. */
export interface ServerSummary {
  /** The server. */
  name: string;
  /** ok, skipped or failed. */
  status: ServerReport["status"];
  /** How many tools it exposes. */
  tools?: number;
  /** Tools left out and why. */
  left?: { name: string; reason: string }[];
}

/**
 * The workspace's exposed tools (connecting to its servers under the same
 * permissions, variables and deadline as `run`; every server at once),
 * reporting skipped, failed and unlocked servers' tools on stderr: failed
 * servers at once, tools left out into `warnings` (written here when not
 * given). Progress goes to stderr while the servers connect. With
 * `keepConnections`, the servers stay connected for the workspace's next
 * runner (no server starts twice; `workspace.close()` closes them otherwise).
 */
export async function serverTools(
  io: CliIo,
  workspace: Workspace,
  values: Record<string, string | boolean | undefined>,
  warnings?: Warnings,
  options: { keepConnections?: boolean } = {},
): Promise<{ tools: ResolvedTool[]; servers: ServerSummary[] }> {
  const manifest = workspace.manifest;
  const redactor = workspace.redactor;
  const names = Object.keys(manifest.servers);
  if (names.length === 0) return { tools: manifest.tools, servers: [] };
  if (values.offline === true) {
    diagnose(
      io,
      undefined,
      "note",
      `--offline: servers not contacted: ${names.join(", ")}; only the tools the manifest lists`,
    );
    return {
      tools: manifest.tools,
      servers: names.map((name) => ({ name, status: "skipped" as const })),
    };
  }
  const timeoutMs = parseTimeout(values.timeout as string | undefined);
  // Exactly what running the servers' tools needs (one ID per server stands for its tools).
  noteSkipped(io, workspace.requirePermissions({ tools: serverToolIds(workspace) }));
  const { tools, servers: reports } = await withInterrupt(async (signal) => {
    using progress = serverProgress(io, names.length);
    return await workspace.exposedTools({
      signal,
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
      keepGoing: values["keep-going"] === true,
      ...(options.keepConnections ? { keepConnections: true } : {}),
      ...(progress.onProgress === undefined ? {} : { onProgress: progress.onProgress }),
    });
  });
  const found = warnings ?? new Warnings(io, redactor);
  for (const r of reports) {
    if (r.status === "failed") {
      diagnose(io, redactor, "warning", `${(r.error as Error).message}; its tools are left out`);
    }
    for (const { name, reason } of r.excluded ?? []) {
      found.add({
        kind: "server tool left out",
        subject: `${r.server}:${name}`,
        message: `${r.server}:${name} is left out: ${reason}`,
      });
    }
    for (const name of r.lock?.added ?? []) {
      found.add({
        kind: "server tool new since the lock",
        subject: `${r.server}:${name}`,
        message: `${r.server}:${name} is new since the lock file was written; ` +
          "not exposed until you run lock",
      });
    }
    for (const name of r.lock?.removed ?? []) {
      found.add({
        kind: "locked tool no longer listed",
        subject: `${r.server}:${name}`,
        message: `${r.server}:${name} is locked but no longer listed`,
      });
    }
  }
  if (warnings === undefined) found.flush();
  return {
    tools,
    servers: reports.map((r) => ({
      name: r.server,
      status: r.status,
      ...(r.status === "ok" ? { tools: r.tools.length } : {}),
      ...(r.left.length === 0 ? {} : { left: r.left }),
    })),
  };
}

/** IDs standing for every server's tools, for planning permissions (one per server). */
export function serverToolIds(workspace: Workspace): string[] {
  const manifest = workspace.manifest;
  return [
    ...manifest.tools.filter((t) => t.entry.server !== undefined).map((t) => t.id),
    ...Object.keys(manifest.servers).map((name) => `${name}:\u0000`),
  ];
}
