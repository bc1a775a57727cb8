// The `report` command: what each provider loses from each tool of a
// manifest (the servers' tools included), as one self-contained HTML page
// (--html FILE) and as JSON (--json, one entry per tool × target) for
// scripts and CI (--fail-on lossy|refused exits 1). The report itself is
// built without I/O (./_report/); this file reads, connects and writes.

import { parseArgs } from "../_args.ts";
import { type CliIo, diagnose, EXIT, printJson } from "../_io.ts";
import { ManifestError, UsageError } from "../../workspace/errors.ts";
import type { Manifest, ResolvedTool } from "../../workspace/manifest.ts";
import { lockPath, readLock } from "../../workspace/lock.ts";
import { Redactor } from "../../workspace/secrets.ts";
import { MANIFEST_OPTIONS, openWorkspace, report } from "./_shared.ts";
import { scrubConsole } from "../_console_scrub.ts";
import { SERVER_OPTIONS, serverTools } from "./_server_tools.ts";
import { checksKit } from "./_checks_kit.ts";
import type { Tool } from "../../model/tool.ts";
import {
  buildLossReport,
  type CellStatus,
  type LossReport,
  type ReportToolInput,
} from "./_report/entries.ts";
import { REPORT_TARGETS } from "./_report/targets.ts";
import { reportPage } from "./_report/page.ts";

/**
 * When the report is made: `--now` (ISO 8601 or seconds since 1970), else
 * SOURCE_DATE_EPOCH (seconds; reproducible builds' convention), else the clock.
 */
export function reportTime(
  now: string | undefined,
  env: (name: string) => string | undefined,
): string {
  const given = now ?? env("SOURCE_DATE_EPOCH");
  if (given === undefined || given === "") return new Date().toISOString();
  const where = now === undefined ? "SOURCE_DATE_EPOCH" : "--now";
  const ms = /^[0-9]{1,12}$/.test(given.trim()) ? Number(given.trim()) * 1000 : Date.parse(given);
  if (!Number.isFinite(ms) || (now === undefined && !/^[0-9]{1,12}$/.test(given.trim()))) {
    throw new UsageError(
      `${where} must be ${
        now === undefined ? "" : "an ISO 8601 time (2026-01-31T12:00:00Z) or "
      }whole seconds since 1970-01-01, got ${JSON.stringify(given)}`,
    );
  }
  return new Date(ms).toISOString();
}

/** SOURCE_DATE_EPOCH when readable (reading it is not worth a permission prompt). */
export function sourceDateEpoch(name: string): string | undefined {
  if (Deno.permissions.querySync({ name: "env", variable: name }).state !== "granted") {
    return undefined;
  }
  return Deno.env.get(name);
}

/** The lock file's digest of each server tool, by `server` then the tool's name on it. */
export async function lockDigests(
  manifest: Manifest,
): Promise<(server: string, name: string) => string | undefined> {
  if (Object.keys(manifest.servers).length === 0) return () => undefined;
  const lock = await readLock(lockPath(manifest.path));
  return (server, name) =>
    lock !== undefined && Object.hasOwn(lock.servers, server) &&
      Object.hasOwn(lock.servers[server], name)
      ? lock.servers[server][name].digest
      : undefined;
}

/** A tool of the manifest as a row of the report. */
export function reportTool(
  id: string,
  tool: Tool,
  entry: { server?: string; name?: string } | undefined,
  digest: (server: string, name: string) => string | undefined,
): ReportToolInput {
  const server = entry?.server;
  const found = server === undefined ? undefined : digest(server, entry?.name ?? tool.name);
  return {
    id,
    tool,
    ...(server === undefined ? {} : { server }),
    ...(found === undefined ? {} : { digest: found }),
  };
}

/** The manifest's file name, the report's title. */
export function manifestName(manifest: Manifest): string {
  return manifest.path.split(/[\\/]/).at(-1) ?? manifest.path;
}

/**
 * The report page of what serve serves (`serve --http --report`, at /report):
 * built at the first request, from the tools the runner registered, then kept.
 */
export function servedReport(
  manifest: Manifest,
  tools: readonly { id: string; tool: Tool }[],
  redactor: Redactor,
): () => Promise<string> {
  let page: Promise<string> | undefined;
  const build = async () => {
    const digest = await lockDigests(manifest);
    const entries = new Map(manifest.tools.map((t) => [t.id, t.entry]));
    const rows = tools.map(({ id, tool }) => {
      const server = id.includes(":") ? id.slice(0, id.indexOf(":")) : undefined;
      const entry = entries.get(id) ??
        (server !== undefined && Object.hasOwn(manifest.servers, server)
          ? { server, name: id.slice(server.length + 1) }
          : undefined);
      return reportTool(id, tool, entry, digest);
    });
    const generatedAt = reportTime(undefined, sourceDateEpoch);
    return redactor.redact(
      reportPage(buildLossReport({ manifest: manifestName(manifest), generatedAt, tools: rows })),
    );
  };
  return () => page ??= build();
}

const FAIL_ON: Readonly<Record<string, readonly CellStatus[]>> = {
  lossy: ["lossy", "refused"],
  refused: ["refused"],
};

/** `report <manifest> [--html FILE] [--json] [--fail-on lossy|refused] [--target ID]... [--now T]` */
export async function reportCommand(argv: string[], io: CliIo): Promise<number> {
  const redactor = new Redactor();
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        html: { type: "string" },
        json: { type: "boolean" },
        "fail-on": { type: "string" },
        target: { type: "string", multiple: true },
        now: { type: "string" },
        ...MANIFEST_OPTIONS,
        ...SERVER_OPTIONS,
      },
    });
    if (positionals.length > 1) {
      throw new UsageError(`unexpected argument ${JSON.stringify(positionals[1])}`);
    }
    if (values.html === undefined && values.json !== true) {
      throw new UsageError("give --html FILE, --json or both; see report --help");
    }
    const failOn = values["fail-on"];
    if (failOn !== undefined && !Object.hasOwn(FAIL_ON, failOn)) {
      throw new UsageError(`--fail-on must be lossy or refused, got ${JSON.stringify(failOn)}`);
    }
    const ids = REPORT_TARGETS.map((t) => t.id);
    for (const id of values.target ?? []) {
      if (!ids.includes(id)) {
        throw new UsageError(
          `--target must be one of ${ids.join(", ")}, got ${JSON.stringify(id)}`,
        );
      }
    }
    const targets = values.target === undefined
      ? REPORT_TARGETS
      : REPORT_TARGETS.filter((t) => values.target!.includes(t.id));
    const generatedAt = reportTime(values.now, sourceDateEpoch);
    const workspace = await openWorkspace(positionals[0], values, redactor);
    const manifest = workspace.manifest;
    const { DefaultValidator, checkToolSchemas, sortIssues } = await checksKit();
    // A schema no validator can evaluate is the manifest's error (exit 2, located), as in convert.
    const issues = await checkToolSchemas(manifest, new DefaultValidator());
    if (issues.length > 0) throw new ManifestError(sortIssues(issues));
    using _console = scrubConsole(redactor);
    const found = await serverTools(io, workspace, {
      offline: values.offline,
      "keep-going": values["keep-going"],
      timeout: values.timeout,
    });
    const digest = await lockDigests(manifest);
    const skipped = found.tools.filter((t) => t.schemaFromServer).map((t: ResolvedTool) => ({
      id: t.id,
      reason: `its schemas come from server "${t.entry.server}" at run time (not contacted)`,
    }));
    for (const s of skipped) diagnose(io, undefined, "note", `${s.id}: ${s.reason}; not reported`);
    const lossReport = buildLossReport({
      manifest: manifestName(manifest),
      generatedAt,
      targets,
      skipped,
      tools: found.tools.filter((t) => !t.schemaFromServer).map((t) =>
        reportTool(t.id, t.tool, t.entry, digest)
      ),
    });
    if (values.html !== undefined) {
      await Deno.writeTextFile(values.html, redactor.redact(reportPage(lossReport)));
    }
    if (values.json === true) printJson(io, redactor, lossReport);
    diagnose(io, redactor, "ok", summaryLine(lossReport, values.html));
    if (failOn === undefined) return EXIT.ok;
    const failing = lossReport.entries.filter((e) => FAIL_ON[failOn].includes(e.status));
    if (failing.length === 0) return EXIT.ok;
    const first = failing.slice(0, 5).map((e) => `${e.tool} on ${e.target} (${e.status})`);
    diagnose(
      io,
      redactor,
      "error",
      `--fail-on ${failOn}: ${failing.length} cell(s) ${
        failOn === "lossy" ? "lossy or refused" : "refused"
      }: ${first.join(", ")}${failing.length > first.length ? ", ..." : ""}`,
    );
    return EXIT.failure;
  } catch (error) {
    return report(io, redactor, error);
  }
}

function summaryLine(r: LossReport, html: string | undefined): string {
  const counts = { exact: 0, lossy: 0, refused: 0 };
  for (const e of r.entries) counts[e.status]++;
  return `${r.tools.length} tool(s) × ${r.targets.length} target(s): ${counts.exact} exact, ` +
    `${counts.lossy} lossy, ${counts.refused} refused${
      html === undefined ? "" : `; wrote ${html}`
    }`;
}
