// Private: what list, validate and convert share about the manifest's
// servers: connecting under the run's permissions and deadline, --offline,
// --keep-going, and the report of lock findings.

import { diagnose, EXIT } from "../_io.ts";
import type { CliIo } from "../main.ts";
import type { ToolChangedError } from "../errors.ts";
import type { Manifest, ResolvedTool } from "../manifest.ts";
import { planPermissions } from "../permissions.ts";
import type { Redactor } from "../secrets.ts";
import type { ServerReport } from "../server_tools.ts";
import { parseTimeout, requirePermissions, withInterrupt } from "./_shared.ts";

/** Exit code of a tool refused because it changed since it was locked. */
export const EXIT_TOOL_CHANGED: number = EXIT.changed;

/** The options of commands that connect to the manifest's servers. */
export const SERVER_OPTIONS = {
  offline: { type: "boolean" },
  "keep-going": { type: "boolean" },
  timeout: { type: "string" },
} as const;

/** The default deadline of connecting to and listing one server (as `run`'s). */
const DEFAULT_DEADLINE_MS = 60_000;

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
 * The manifest's tools with its servers' tools (connecting under the same
 * permissions, environment policy and deadline as `run`), reporting skipped,
 * failed and unlocked servers' tools on stderr.
 */
export async function serverTools(
  io: CliIo,
  manifest: Manifest,
  values: Record<string, string | boolean | undefined>,
  redactor: Redactor,
): Promise<{ tools: ResolvedTool[]; servers: ServerSummary[] }> {
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
  const timeoutMs = parseTimeout(values.timeout as string | undefined) ?? DEFAULT_DEADLINE_MS;
  // Exactly what running the servers' tools needs (one ID per server stands for its tools).
  const ids = [
    ...manifest.tools.filter((t) => t.entry.server !== undefined).map((t) => t.id),
    ...names.map((name) => `${name}:\u0000`),
  ];
  requirePermissions(planPermissions(manifest, { tools: ids }));
  // Loaded only when a server is contacted: a manifest without servers (or --offline)
  // never loads the runner, the validator or the MCP client (start-up).
  const [{ Runner }, { discoverTools }] = await Promise.all([
    import("../../run/mod.ts"),
    import("../_server_discovery.ts"),
  ]);
  const runner = new Runner({ redact: (text) => redactor.redact(text), closeTimeoutMs: 150 });
  try {
    const { tools, reports } = await withInterrupt((signal) =>
      discoverTools(runner, manifest, {
        redactor,
        signal,
        timeoutMs,
        keepGoing: values["keep-going"] === true,
      })
    );
    for (const r of reports) {
      if (r.status === "failed") {
        diagnose(io, redactor, "warning", `${(r.error as Error).message}; its tools are left out`);
      }
      for (const name of r.lock?.added ?? []) {
        diagnose(
          io,
          redactor,
          "warning",
          `${r.server}:${name} is new since the lock file was written; not exposed until you run lock`,
        );
      }
      for (const name of r.lock?.removed ?? []) {
        diagnose(io, redactor, "warning", `${r.server}:${name} is locked but no longer listed`);
      }
    }
    return {
      tools,
      servers: reports.map((r) => ({
        name: r.server,
        status: r.status,
        ...(r.status === "ok" ? { tools: r.tools.length } : {}),
        ...(r.left.length === 0 ? {} : { left: r.left }),
      })),
    };
  } finally {
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      runner.close().catch(() => {}),
      new Promise<void>((resolve) => (timer = setTimeout(resolve, 2000))),
    ]);
    clearTimeout(timer);
  }
}

/** Prints a lock refusal and returns its exit code. */
export function reportChanged(io: CliIo, error: ToolChangedError): number {
  diagnose(io, undefined, "error", error.message);
  return EXIT_TOOL_CHANGED;
}
