// The data of the schema-loss report, computed without I/O: every tool
// converted to every target with the adapters, each cell exact (nothing
// changed), lossy (the adapters' structured warnings, located) or refused
// (the conversion failed, or the provider's preflight rules reject the
// result), with the name the provider sees and what would make a refusal pass.

import {
  type AdapterRegistry,
  decodeToolName,
  defaultRegistry,
  encodeToolName,
  type FeatureLossAction,
  type FeatureLossEffect,
} from "../../../adapter/mod.ts";
import { ToolFoundationError } from "../../../model/errors.ts";
import type { Tool } from "../../../model/tool.ts";
import { fixFor } from "./fixes.ts";
import { convertedPointer, REPORT_TARGETS, type ReportTarget } from "./targets.ts";

/** How a tool fares on a target. */
export type CellStatus = "exact" | "lossy" | "refused";

/** One tool to report on. */
export interface ReportToolInput {
  /** The canonical tool ID. */
  id: string;
  /** The tool (its schemas filled in). */
  tool: Tool;
  /** The MCP server it comes from. */
  server?: string;
  /** Its digest in the lock file (`sha256:...`), when locked. */
  digest?: string;
}

/** A row of the report: a tool as the manifest resolves it. */
export interface ReportTool {
  /** The canonical tool ID. */
  id: string;
  /** The MCP server it comes from. */
  server?: string;
  /** The tool's own `version`. */
  version?: string;
  /** Its digest in the lock file. */
  digest?: string;
  /** The canonical tool (MCP form), the left side of every detail. */
  canonical: Tool;
}

/** A feature that did not survive the conversion unchanged. */
export interface ReportWarning {
  /** The keyword or field. */
  feature: string;
  /** JSON Pointer into the canonical tool. */
  path: string;
  /** Where that part is in the converted tool, when it is still there. */
  convertedPath?: string;
  /** What the conversion did with it. */
  action: FeatureLossAction;
  /** How the values accepted change. */
  effect: FeatureLossEffect;
  /** The explanation. */
  message: string;
}

/** Why a target refuses a tool, located, with what would make it pass. */
export interface ReportProblem {
  /** The stable problem code (preflight's, or the conversion error's). */
  code: string;
  /** JSON Pointer into the converted tool (or the canonical one when conversion failed). */
  path: string;
  /** What is wrong. */
  message: string;
  /** What to change. */
  fix: string;
}

/** One cell: a tool on a target. */
export interface ReportEntry {
  /** The tool's ID. */
  tool: string;
  /** The target's ID. */
  target: string;
  /** exact, lossy or refused. */
  status: CellStatus;
  /** The name the provider sees; `needsMap` when only a name map turns it back into the ID. */
  name: { provider: string; renamed: boolean; needsMap: boolean };
  /** Every warning of the conversion, in the adapters' order. */
  warnings: ReportWarning[];
  /** The strict-mode decision, for targets that have one. */
  strict?: { requested: boolean | "auto"; applied: boolean; reasons: string[] };
  /** For a refused cell: why. */
  problems?: ReportProblem[];
  /** The converted tool (absent when conversion failed). */
  converted?: unknown;
}

/** Counts of one column. */
export type ColumnCounts = Record<CellStatus, number>;

/** The whole report: the page and `report --json` are this. */
export interface LossReport {
  /** The manifest's name (its file name). */
  manifest: string;
  /** When the report was made (ISO 8601). */
  generatedAt: string;
  /** The columns. */
  targets: { id: string; label: string; format: string }[];
  /** The rows. */
  tools: ReportTool[];
  /** One entry per tool × target, tools in order, targets in column order. */
  entries: ReportEntry[];
  /** Counts per target ID. */
  summary: Record<string, ColumnCounts>;
  /** Problems of a whole request (e.g. a strict-tool budget), per target. */
  requestProblems: (ReportProblem & { target: string })[];
  /** Tools left out, and why (e.g. schemas that come from a server not contacted). */
  skipped: { id: string; reason: string }[];
}

/** What {@linkcode buildLossReport} reads. */
export interface LossReportInput {
  /** The manifest's name. */
  manifest: string;
  /** When the report is made (ISO 8601). */
  generatedAt: string;
  /** The tools. */
  tools: readonly ReportToolInput[];
  /** The columns (default {@linkcode REPORT_TARGETS}). */
  targets?: readonly ReportTarget[];
  /** Tools left out. */
  skipped?: readonly { id: string; reason: string }[];
  /** The adapters (default: the built-in ones). */
  registry?: AdapterRegistry;
}

/** Converts every tool to every target and classifies each cell. */
export function buildLossReport(input: LossReportInput): LossReport {
  const registry = input.registry ?? defaultRegistry();
  const targets = input.targets ?? REPORT_TARGETS;
  const grid: ReportEntry[][] = input.tools.map(() => []);
  const requestProblems: LossReport["requestProblems"] = [];
  for (const target of targets) {
    const written: { row: number; tool: unknown }[] = [];
    input.tools.forEach((t, row) => {
      const entry = convertOne(registry, t, target);
      grid[row].push(entry);
      if (entry.converted !== undefined) {
        written.push({ row, tool: asListed(target.format, entry.converted, entry.name.provider) });
      }
    });
    const problems = registry.preflight(written.map((w) => w.tool), target.format);
    for (const p of problems) {
      const match = /^\/(\d+)(.*)$/.exec(p.path);
      const problem = { code: p.code, message: p.message, fix: fixFor(p.code) };
      const at = match === null ? undefined : written[Number(match[1])];
      if (at === undefined) {
        requestProblems.push({ target: target.id, path: p.path, ...problem });
        continue;
      }
      const entry = grid[at.row].at(-1)!;
      entry.status = "refused";
      (entry.problems ??= []).push({ path: match![2], ...problem });
    }
  }
  const entries = grid.flat();
  const summary: Record<string, ColumnCounts> = {};
  for (const target of targets) summary[target.id] = { exact: 0, lossy: 0, refused: 0 };
  for (const entry of entries) summary[entry.target][entry.status]++;
  return {
    manifest: input.manifest,
    generatedAt: input.generatedAt,
    targets: targets.map(({ id, label, format }) => ({ id, label, format })),
    tools: input.tools.map((t) => ({
      id: t.id,
      ...(t.server === undefined ? {} : { server: t.server }),
      ...(t.tool.version === undefined ? {} : { version: t.tool.version }),
      ...(t.digest === undefined ? {} : { digest: t.digest }),
      canonical: t.tool,
    })),
    entries,
    summary,
    requestProblems,
    skipped: [...input.skipped ?? []],
  };
}

/**
 * The tool as a client sees it listed, for preflight: an MCP tool keeps its
 * namespace in a field of its own, but one list names each tool once, by
 * namespace and name joined (the MCP profile's encoding of its ID), so two
 * tools that share a name in different namespaces do not collide.
 */
function asListed(format: string, tool: unknown, provider: string): unknown {
  if (format !== "mcp" || typeof tool !== "object" || tool === null) return tool;
  const { namespace: _namespace, ...rest } = tool as Record<string, unknown>;
  return { ...rest, name: provider };
}

function convertOne(
  registry: AdapterRegistry,
  input: ReportToolInput,
  target: ReportTarget,
): ReportEntry {
  const provider = encodeToolName(input.id, target.format);
  const name = {
    provider,
    renamed: provider !== input.id,
    needsMap: decodeToolName(provider, target.format) !== input.id,
  };
  const base = { tool: input.id, target: target.id, name };
  let result;
  try {
    result = registry.convert(input.tool, "mcp", target.format, target.options);
  } catch (error) {
    if (!(error instanceof ToolFoundationError)) throw error;
    const code = (error as { problem?: string }).problem ?? error.code;
    const located = error as { keywordLocation?: string; issues?: { path?: string }[] };
    const path = located.keywordLocation ?? located.issues?.[0]?.path ?? "";
    return {
      ...base,
      status: "refused",
      warnings: [],
      problems: [{
        code,
        path,
        message: `the conversion fails: ${error.message}`,
        fix: fixFor(code),
      }],
    };
  }
  const warnings = result.warnings.map((w): ReportWarning => {
    // A dropped keyword is not in the converted tool: only what was rewritten or moved is marked there.
    const convertedPath = w.action === "dropped"
      ? undefined
      : convertedPointer(target.format, w.path, result.tool);
    return {
      feature: w.feature,
      path: w.path,
      ...(convertedPath === undefined ? {} : { convertedPath }),
      action: w.action,
      effect: w.effect,
      message: w.message,
    };
  });
  return {
    ...base,
    status: warnings.length > 0 ? "lossy" : "exact",
    warnings,
    ...(result.strict === undefined ? {} : { strict: result.strict }),
    converted: result.tool,
  };
}
