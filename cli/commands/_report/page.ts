// The schema-loss report as one self-contained HTML page, built without I/O:
// the style sheet, the script and the report's JSON are inlined, so the page
// needs no network and works from file:// and behind serve alike. The same
// report gives the same bytes (the time it was made is part of the report).

import type { LossReport } from "./entries.ts";
import { PAGE_SCRIPT } from "./_page_script.ts";
import { PAGE_STYLE } from "./_page_style.ts";

const ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/** Text escaped for HTML content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

/**
 * JSON that can sit inside a `<script>` element: no `<` (so no `</script>`
 * or `<!--`), and no U+2028/U+2029, written as `\u` escapes JSON reads back.
 */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

/** The page of a report. */
export function reportPage(report: LossReport): string {
  const title = `Schema loss: ${report.manifest}`;
  const totals = { exact: 0, lossy: 0, refused: 0 };
  for (const counts of Object.values(report.summary)) {
    totals.exact += counts.exact;
    totals.lossy += counts.lossy;
    totals.refused += counts.refused;
  }
  const locked = report.tools.filter((t) => t.digest !== undefined).length;
  const options = report.targets.map((t) =>
    `<option value="${escapeHtml(t.id)}">${escapeHtml(t.label)}</option>`
  ).join("");
  const notes = [
    ...report.requestProblems.map((p) =>
      `<li>${escapeHtml(p.target)}: ${escapeHtml(p.message)} (${escapeHtml(p.code)}). ` +
      `To pass: ${escapeHtml(p.fix)}</li>`
    ),
    ...report.skipped.map((s) =>
      `<li><code>${escapeHtml(s.id)}</code> is not in the report: ${escapeHtml(s.reason)}</li>`
    ),
  ];
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="toolfoundation report">
<title>${escapeHtml(title)}</title>
<style>${PAGE_STYLE}</style>
</head>
<body>
<header>
<h1>Schema loss report: <span id="manifest-name">${escapeHtml(report.manifest)}</span></h1>
<p class="meta"><span>${report.tools.length} tools × ${report.targets.length} targets</span><span>${totals.exact} exact, ${totals.lossy} lossy, ${totals.refused} refused</span><span>${
    locked === 0 ? "no tool pinned by a lock file" : `${locked} tools pinned by the lock file`
  }</span><span>made <time id="generated" datetime="${escapeHtml(report.generatedAt)}">${
    escapeHtml(report.generatedAt)
  }</time></span></p>
</header>
<form id="controls" role="search" aria-label="Filter the matrix" onsubmit="return false">
<label for="f-target">Target</label>
<select id="f-target"><option value="">all targets</option>${options}</select>
<input type="checkbox" id="f-lossy"><label for="f-lossy">Only lossy and refused</label>
<label for="f-search">Tool</label>
<input type="search" id="f-search" placeholder="search by name" autocomplete="off">
<span id="shown" role="status" aria-live="polite"></span>
</form>
<main>
<p id="legend">✓ exact: converted unchanged · ≈ lossy: something dropped or rewritten (the number of warnings) · ✗ refused: the provider would reject it (the number of reasons). Open a cell for its detail.</p>
${notes.length === 0 ? "" : `<ul id="notes">${notes.join("")}</ul>`}
<noscript><p>The matrix and the details are drawn by the page's script; the same data is in the page as JSON (element <code>report-data</code>) and from <code>report --json</code>.</p></noscript>
<div class="table-wrap">
<table id="matrix">
<caption>Tools (rows) converted for each target (columns)</caption>
<thead id="matrix-head"></thead>
<tbody id="matrix-body"></tbody>
</table>
</div>
</main>
<aside id="detail" aria-labelledby="detail-title" hidden></aside>
<script type="application/json" id="report-data">${scriptJson(report)}</script>
<script>${PAGE_SCRIPT}</script>
</body>
</html>
`;
}
