// The schema-loss report's pure parts: the data (every tool × target
// classified, warnings located in both tools, refusals with a fix, names)
// and the page built from it (self-contained, deterministic, escaped).
import assert from "node:assert/strict";
import { buildLossReport, type LossReport } from "../../cli/commands/_report/entries.ts";
import { escapeHtml, reportPage, scriptJson } from "../../cli/commands/_report/page.ts";
import { convertedPointer, REPORT_TARGETS, valueAt } from "../../cli/commands/_report/targets.ts";
import type { Tool } from "../../model/tool.ts";
import { nested } from "./_report_fixtures.ts";

const closed: Tool = {
  name: "add",
  namespace: "math",
  inputSchema: {
    type: "object",
    properties: { a: { type: "number" }, b: { type: "number" } },
    required: ["a", "b"],
    additionalProperties: false,
  },
};
const slug: Tool = {
  name: "slug",
  namespace: "text",
  inputSchema: {
    type: "object",
    properties: { s: { type: "string", minLength: 3 } },
    required: ["s"],
    additionalProperties: false,
  },
};
const deep: Tool = { name: "nest", namespace: "deep", inputSchema: nested(12) };

function build(tools: Tool[]): LossReport {
  return buildLossReport({
    manifest: "tools.yaml",
    generatedAt: "2026-01-01T00:00:00.000Z",
    tools: tools.map((tool) => ({ id: `${tool.namespace}:${tool.name}`, tool })),
  });
}

function cell(report: LossReport, tool: string, target: string) {
  const found = report.entries.find((e) => e.tool === tool && e.target === target);
  assert.ok(found, `no entry for ${tool} on ${target}`);
  return found;
}

Deno.test("buildLossReport: one entry per tool × target, tools in order and targets in column order", () => {
  const report = build([closed, slug, deep]);
  assert.equal(report.entries.length, 3 * REPORT_TARGETS.length);
  assert.deepEqual(
    report.entries.slice(0, REPORT_TARGETS.length).map((e) => e.target),
    REPORT_TARGETS.map((t) => t.id),
  );
  assert.deepEqual([...new Set(report.entries.map((e) => e.tool))], [
    "math:add",
    "text:slug",
    "deep:nest",
  ]);
  for (const [target, counts] of Object.entries(report.summary)) {
    assert.equal(counts.exact + counts.lossy + counts.refused, 3, target);
  }
});

Deno.test("buildLossReport: a closed object is exact everywhere but on gemini, which drops additionalProperties", () => {
  const report = build([closed]);
  const statuses = Object.fromEntries(report.entries.map((e) => [e.target, e.status]));
  assert.deepEqual(statuses, {
    openai: "exact",
    "openai-strict": "exact",
    "openai-responses": "exact",
    anthropic: "exact",
    gemini: "lossy",
    mcp: "exact",
  });
  const gemini = cell(report, "math:add", "gemini");
  assert.deepEqual(
    gemini.warnings.map((w) => [w.path, w.action, w.effect]),
    [["/inputSchema/additionalProperties", "dropped", "widens"]],
  );
  // Dropped: nothing to mark in the converted tool.
  assert.equal(gemini.warnings[0].convertedPath, undefined);
  assert.deepEqual(report.summary.gemini, { exact: 0, lossy: 1, refused: 0 });
});

Deno.test("buildLossReport: a keyword strict mode moves into the description is lossy, located in both tools", () => {
  const report = build([slug]);
  const strict = cell(report, "text:slug", "openai-strict");
  assert.equal(strict.status, "lossy");
  const w = strict.warnings.find((w) => w.feature === "minLength");
  assert.ok(w, JSON.stringify(strict.warnings));
  assert.equal(w.path, "/inputSchema/properties/s/minLength");
  assert.equal(w.action, "moved-to-description");
  assert.equal(w.effect, "widens");
  // The keyword is gone from the converted tool: its schema (where the description says it) is marked.
  assert.equal(w.convertedPath, "/function/parameters/properties/s");
  assert.match(String(valueAt(strict.converted, `${w.convertedPath}/description`)), /minLength: 3/);
  // openai without --strict keeps minLength (auto mode does not go strict when it would lose it).
  assert.equal(cell(report, "text:slug", "openai").status, "exact");
});

Deno.test("buildLossReport: a schema nested past OpenAI's strict depth is refused by openai, with its reason and a fix", () => {
  const report = build([deep]);
  for (const target of ["openai", "openai-strict", "openai-responses"]) {
    const refused = cell(report, "deep:nest", target);
    assert.equal(refused.status, "refused", target);
    assert.equal(refused.problems?.[0].code, "limit_exceeded");
    assert.match(refused.problems![0].message, /nesting depth is 12; .* allows 10/);
    assert.match(refused.problems![0].fix, /less nesting/);
    // The pointer is into the converted tool, not into the request's tools array.
    assert.ok(valueAt(refused.converted, refused.problems![0].path) !== undefined);
  }
  assert.equal(cell(report, "deep:nest", "anthropic").status, "exact");
  assert.equal(report.summary.openai.refused, 1);
});

Deno.test("buildLossReport: a conversion that fails is a refusal located in the canonical tool", () => {
  const tool = {
    name: "loop",
    inputSchema: {
      type: "object",
      properties: { x: { $ref: "#/$defs/a" } },
      $defs: { a: { $ref: "#/$defs/b" }, b: { $ref: "#/$defs/a" } },
    },
  } as unknown as Tool;
  const report = buildLossReport({
    manifest: "m",
    generatedAt: "2026-01-01T00:00:00.000Z",
    tools: [{ id: "loop", tool }],
  });
  for (const e of report.entries) {
    assert.equal(e.status, "refused", e.target);
    assert.equal(e.converted, undefined);
    assert.match(e.problems![0].message, /^the conversion fails: /);
    assert.equal(e.problems![0].code, "cycle");
    assert.equal(e.problems![0].path, "/inputSchema/$defs/b/$ref");
    assert.match(e.problems![0].fix, /break the `\$ref` loop/);
  }
});

Deno.test("buildLossReport: the provider name says when it is renamed and when only a name map turns it back", () => {
  const report = build([{ name: "read", namespace: "files.v2", inputSchema: { type: "object" } }]);
  const openai = cell(report, "files.v2:read", "openai");
  assert.deepEqual(openai.name, {
    provider: "files_v2__read_35f1165c",
    renamed: true,
    needsMap: true,
  });
  const gemini = cell(report, "files.v2:read", "gemini");
  assert.equal(gemini.name.renamed, false);
});

Deno.test("convertedPointer: the canonical input schema is found where each format keeps it", () => {
  const openai = { function: { parameters: { properties: { a: {} } } } };
  assert.equal(
    convertedPointer("openai", "/inputSchema/properties/a", openai),
    "/function/parameters/properties/a",
  );
  assert.equal(
    convertedPointer("openai", "/inputSchema/properties/a/pattern", openai),
    "/function/parameters/properties/a",
  );
  assert.equal(
    convertedPointer("anthropic", "/inputSchema", { input_schema: {} }),
    "/input_schema",
  );
  assert.equal(convertedPointer("gemini", "/annotations", { name: "x" }), undefined);
  assert.equal(
    convertedPointer("gemini", "/inputSchema", { parametersJsonSchema: {} }),
    "/parametersJsonSchema",
  );
});

Deno.test("reportPage: the same report gives the same bytes; the time it was made is in it", () => {
  const report = build([closed, slug, deep]);
  const page = reportPage(report);
  assert.equal(page, reportPage(build([closed, slug, deep])));
  assert.match(page, /<time id="generated" datetime="2026-01-01T00:00:00.000Z">/);
  const other = reportPage({ ...report, generatedAt: "2027-01-01T00:00:00.000Z" });
  assert.notEqual(page, other);
});

Deno.test("reportPage: self-contained: no URL to load, inline style and script, the data as JSON", () => {
  const page = reportPage(build([closed]));
  assert.doesNotMatch(page, /\b(src|href)="(https?:)?\/\//);
  assert.doesNotMatch(page, /<link\b/);
  assert.match(page, /<style>[\s\S]+<\/style>/);
  const data = /<script type="application\/json" id="report-data">([\s\S]*?)<\/script>/.exec(page);
  assert.ok(data);
  assert.deepEqual(JSON.parse(data[1]), JSON.parse(JSON.stringify(build([closed]))));
});

Deno.test("reportPage: a tool name with markup cannot end the data's script or inject HTML", () => {
  const evil = "</script><img src=x onerror=alert(1)>";
  const report = buildLossReport({
    manifest: "<b>m</b>.yaml",
    generatedAt: "2026-01-01T00:00:00.000Z",
    tools: [{
      id: evil,
      tool: { name: evil, inputSchema: { type: "object" as const, description: "\u2028" } },
    }],
  });
  const page = reportPage(report);
  assert.equal(page.match(/<\/script>/g)?.length, 2, "only the two script elements end");
  assert.doesNotMatch(page, /<img/);
  assert.match(page, /&lt;b&gt;m&lt;\/b&gt;\.yaml/);
  assert.equal(scriptJson("a</script>\u2028"), '"a\\u003c/script>\\u2028"');
  assert.equal(
    escapeHtml(`<a href="x">'&'</a>`),
    "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;",
  );
});

Deno.test("reportPage: request-wide problems and skipped tools are listed above the matrix", () => {
  const report = build([closed]);
  report.skipped.push({ id: "up:later", reason: "its schemas come from server up at run time" });
  report.requestProblems.push({
    target: "anthropic",
    code: "budget_exceeded",
    path: "",
    message: "too many strict tools",
    fix: "send fewer",
  });
  const page = reportPage(report);
  assert.match(
    page,
    /<li><code>up:later<\/code> is not in the report: its schemas come from server up/,
  );
  assert.match(
    page,
    /<li>anthropic: too many strict tools \(budget_exceeded\)\. To pass: send fewer<\/li>/,
  );
});

Deno.test("buildLossReport: two tools of one name in different namespaces do not collide on mcp", () => {
  const report = build([closed, { ...closed, namespace: "other" }]);
  assert.deepEqual(
    report.entries.filter((e) => e.target === "mcp").map((
      e,
    ) => [e.tool, e.status, e.name.provider]),
    [["math:add", "exact", "math__add"], ["other:add", "exact", "other__add"]],
  );
});
