// The report of bench/serve_load.ts: one Markdown table of the phases, the
// ratios against the baseline of the same run, the errors by kind, what the
// hostile client got, and serve's memory and processes.

import type { CallPlan, ClientReport, HostilePlan, HostileReport } from "./_load_clients.ts";
import type { TreeSample } from "./_proc.ts";

/** One phase as measured. */
export interface PhaseResult {
  name: string;
  seconds: number;
  /** One report per well-behaved client. */
  reports: ClientReport[];
  /** What the hostile client got (hostile phase only). */
  hostile: HostileReport | undefined;
  rssPeak: number;
  rssEnd: number;
  childrenPeak: number;
  childrenEnd: number;
  /** Whether the time budget cut the phase short. */
  cut: boolean;
}

/** Everything the report shows. */
export interface LoadReport {
  clients: number;
  plan: CallPlan;
  hostilePlan: HostilePlan;
  deadlineMs: number;
  extraServeArgs: string[];
  phases: PhaseResult[];
  start: TreeSample;
  idle: TreeSample;
  exit: { code: number; killed: boolean };
  strays: number;
  serveLog: { tail: string[]; lines: number };
}

function percentile(values: number[], p: number): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
}

const ms = (n: number | undefined) => n === undefined ? "-" : n.toFixed(1);
const mib = (bytes: number) => (bytes / 2 ** 20).toFixed(0);

interface Summary {
  local: number[];
  upstream: number[];
  sent: { local: number; upstream: number };
  errors: Map<string, number>;
}

function summarize(phase: PhaseResult): Summary {
  const out: Summary = {
    local: [],
    upstream: [],
    sent: { local: 0, upstream: 0 },
    errors: new Map(),
  };
  for (const r of phase.reports) {
    out.local.push(...r.local);
    out.upstream.push(...r.upstream);
    out.sent.local += r.sent.local;
    out.sent.upstream += r.sent.upstream;
    for (const [kind, n] of r.errors) out.errors.set(kind, (out.errors.get(kind) ?? 0) + n);
  }
  return out;
}

/** "_hang_server.ts x4, work.ts x2": the scripts the processes run, counted. */
function processes(commands: string[]): string {
  const counts = new Map<string, number>();
  for (const command of commands) {
    const script = command.split(" ").find((w) => /\.(ts|js|mjs)$/.test(w)) ??
      command.split(" ")[0];
    const name = script.slice(script.lastIndexOf("/") + 1);
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return counts.size === 0
    ? ""
    : ` (${[...counts].map(([name, n]) => `${name} x${n}`).join(", ")})`;
}

const errorCount = (s: Summary) => [...s.errors.values()].reduce((a, b) => a + b, 0);

function ratio(a: number | undefined, b: number | undefined): string {
  return a === undefined || b === undefined || b === 0 ? "-" : `${(a / b).toFixed(2)}x`;
}

/** The report as Markdown. */
export function formatReport(report: LoadReport): string {
  const lines: string[] = [];
  const { plan } = report;
  lines.push(
    `serve --http --sessions, ${report.clients} static bearer tokens: ${
      report.clients - 1
    } well-behaved clients x ${plan.calls} calls of the built-in \`add\` (+ ${plan.upstreamCalls} of the upstream's \`ping\`), one call at a time, ${plan.pauseMs} ms apart; 1 hostile client (${report.hostilePlan.hangers} hanging upstream calls, batches of ${report.hostilePlan.batch} and 60 module calls, up to ${report.hostilePlan.flood} session initializations); upstream deadline ${report.deadlineMs} ms; extra serve arguments: ${
      report.extraServeArgs.length === 0 ? "(none)" : report.extraServeArgs.join(" ")
    }`,
    "",
    "| phase | `add` ok / sent | `add` p50 / p99 ms | `ping` ok / sent | `ping` p50 / p99 ms | errors | serve RSS peak MiB | child processes peak / end | s |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
  );
  const summaries = new Map<string, Summary>();
  for (const phase of report.phases) {
    const s = summarize(phase);
    summaries.set(phase.name, s);
    lines.push(
      `| ${phase.name}${
        phase.cut ? " (cut by the time budget)" : ""
      } | ${s.local.length} / ${s.sent.local} | ${ms(percentile(s.local, 0.5))} / ${
        ms(percentile(s.local, 0.99))
      } | ${s.upstream.length} / ${s.sent.upstream} | ${ms(percentile(s.upstream, 0.5))} / ${
        ms(percentile(s.upstream, 0.99))
      } | ${errorCount(s)} | ${
        mib(phase.rssPeak)
      } | ${phase.childrenPeak} / ${phase.childrenEnd} | ${phase.seconds.toFixed(1)} |`,
    );
  }
  const base = summaries.get("baseline");
  const hostile = summaries.get("hostile");
  if (base !== undefined && hostile !== undefined) {
    lines.push(
      "",
      `Hostile / baseline (same run): \`add\` p50 ${
        ratio(percentile(hostile.local, 0.5), percentile(base.local, 0.5))
      }, p99 ${
        ratio(percentile(hostile.local, 0.99), percentile(base.local, 0.99))
      }; \`ping\` p50 ${
        ratio(percentile(hostile.upstream, 0.5), percentile(base.upstream, 0.5))
      }, p99 ${
        ratio(percentile(hostile.upstream, 0.99), percentile(base.upstream, 0.99))
      }; errors ${errorCount(base)} -> ${errorCount(hostile)}.`,
    );
  }
  lines.push("", "Well-behaved clients' errors by kind:");
  for (const phase of report.phases) {
    const s = summaries.get(phase.name)!;
    const kinds = [...s.errors].sort((a, b) => b[1] - a[1]).map(([k, n]) => `${k} x${n}`);
    lines.push(`- ${phase.name}: ${kinds.length === 0 ? "none" : kinds.join(", ")}`);
  }
  const got = report.phases.find((p) => p.hostile !== undefined)?.hostile;
  if (got !== undefined) {
    lines.push("", "What the hostile client got (HTTP status or outcome, counted):");
    for (const [what, counts] of got) {
      const parts = [...counts].sort((a, b) => b[1] - a[1]).map(([k, n]) => `${k} x${n}`);
      lines.push(`- ${what}: ${parts.join(", ")}`);
    }
  }
  lines.push(
    "",
    `Serve: RSS ${mib(report.start.rss)} MiB and ${report.start.children} child processes${
      processes(report.start.commands)
    } after start; ${mib(report.idle.rss)} MiB and ${report.idle.children}${
      processes(report.idle.commands)
    } 2 s after the last phase. Stopped with exit code ${report.exit.code}${
      report.exit.killed ? " (SIGKILL after 15 s)" : ""
    }; processes left behind: ${report.strays}${
      report.strays > 0 ? " (killed)" : ""
    }. ${report.serveLog.lines} stderr lines.`,
  );
  if (report.phases.length === 0) {
    lines.push("", "No phase completed; serve's last stderr lines:", ...report.serveLog.tail);
  }
  return lines.join("\n");
}
