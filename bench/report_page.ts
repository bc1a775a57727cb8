// The schema-loss report at scale: 1,000 tools (the sample tools and the real
// MCP servers' tools of the adapter benchmark, under distinct namespaces) ×
// the 6 targets. Measures building the data (every conversion and preflight),
// writing the page, the page's size (raw and gzip), and in headless Chromium
// from file://: the time until the matrix is in the DOM (DOMContentLoaded:
// the HTML parsed and the inline script ran), the first contentful paint,
// opening one cell's detail and applying the "only lossy" filter. Runs are
// interleaved (build, then browser) and the medians printed with the range.
//
//   deno run --allow-read --allow-write --allow-run --allow-env --allow-net=127.0.0.1 bench/report_page.ts [runs, default 5] [tools, default 1000]

import { buildLossReport } from "../cli/commands/_report/entries.ts";
import { reportPage } from "../cli/commands/_report/page.ts";
import type { Tool } from "../model/mod.ts";
import { ALL_CASES } from "../tests/adapter/_cases.ts";
import { chromium, Page } from "../tests/cli/_chromium.ts";
import everything from "../tests/fixtures/adapter/mcp_servers/server_everything.json" with {
  type: "json",
};
import filesystem from "../tests/fixtures/adapter/mcp_servers/server_filesystem.json" with {
  type: "json",
};
import memory from "../tests/fixtures/adapter/mcp_servers/server_memory.json" with { type: "json" };

const RUNS = Number(Deno.args[0] ?? 5);
const N = Number(Deno.args[1] ?? 1000);
const base: Tool[] = [
  ...Object.values(ALL_CASES),
  ...(everything.tools as unknown as Tool[]),
  ...(filesystem.tools as unknown as Tool[]),
  ...(memory.tools as unknown as Tool[]),
];
const tools = Array.from({ length: N }, (_, i) => {
  const tool = { ...base[i % base.length], namespace: `ns${i}` };
  return { id: `ns${i}:${tool.name}`, tool };
});

const browser = await chromium();
if ("missing" in browser) {
  console.error(browser.missing);
  Deno.exit(1);
}
const dir = await Deno.makeTempDir({ prefix: "tf-report-bench-" });
const file = `${dir}/report.html`;
const samples: Record<string, number[]> = {};
const add = (name: string, value: number) => (samples[name] ??= []).push(value);
let size = 0, gzip = 0;
const counts = { exact: 0, lossy: 0, refused: 0 };

const page = await Page.launch(browser.path);
try {
  for (let run = 0; run < RUNS; run++) {
    let t = performance.now();
    const report = buildLossReport({
      manifest: "bench.yaml",
      generatedAt: "2026-01-01T00:00:00.000Z",
      tools,
    });
    add("build the data (conversions + preflight), ms", performance.now() - t);
    t = performance.now();
    const html = reportPage(report);
    add("write the page (HTML string), ms", performance.now() - t);
    await Deno.writeTextFile(file, html);
    const bytes = new TextEncoder().encode(html);
    size = bytes.length;
    gzip =
      (await new Response(new Blob([bytes]).stream().pipeThrough(new CompressionStream("gzip")))
        .arrayBuffer()).byteLength;
    if (run === 0) { for (const e of report.entries) counts[e.status]++; }

    t = performance.now();
    await page.open(`file://${file}?run=${run}`);
    add("Chromium: navigate until the matrix is drawn (wall), ms", performance.now() - t);
    const timing = await page.evaluate<{ dcl: number; fcp: number }>(`(() => {
      const nav = performance.getEntriesByType("navigation")[0];
      const fcp = performance.getEntriesByType("paint").find((p) => p.name === "first-contentful-paint");
      return { dcl: nav.domContentLoadedEventEnd, fcp: fcp ? fcp.startTime : -1 };
    })()`);
    add("Chromium: DOMContentLoaded (parsed + script ran), ms", timing.dcl);
    if (timing.fcp >= 0) add("Chromium: first contentful paint, ms", timing.fcp);
    add(
      "Chromium: open a cell's detail (hash change + layout), ms",
      await page.evaluate<number>(`(() => {
        const t = performance.now();
        location.hash = "#cell/gemini/" + encodeURIComponent(${JSON.stringify(tools[N - 1].id)});
        window.dispatchEvent(new HashChangeEvent("hashchange"));
        document.getElementById("detail").getBoundingClientRect();
        return performance.now() - t;
      })()`),
    );
    add(
      'Chromium: "only lossy" filter over every row (+ layout), ms',
      await page.evaluate<number>(`(() => {
        const t = performance.now();
        document.getElementById("f-lossy").click();
        document.getElementById("matrix").getBoundingClientRect();
        return performance.now() - t;
      })()`),
    );
  }
} finally {
  await page.close();
  await Deno.remove(dir, { recursive: true });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(
  `${N} tools × 6 targets = ${
    N * 6
  } cells (${counts.exact} exact, ${counts.lossy} lossy, ${counts.refused} refused), ${RUNS} runs`,
);
console.log(`page size: ${(size / 1e6).toFixed(2)} MB (${(gzip / 1e6).toFixed(2)} MB gzip)`);
for (const [name, xs] of Object.entries(samples)) {
  const lo = Math.min(...xs), hi = Math.max(...xs);
  console.log(`${name}: median ${median(xs).toFixed(1)} (range ${lo.toFixed(1)}-${hi.toFixed(1)})`);
}
