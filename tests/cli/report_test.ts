// `report` through the CLI as a user runs it: --json (one entry per tool ×
// target), --fail-on, --target, --html (deterministic with --now or
// SOURCE_DATE_EPOCH), the usage errors, and a manifest's server tools with
// their lock-file digests.
import assert from "node:assert/strict";
import { cli, ROOT, tempManifest } from "./_cli.ts";

const MANIFEST = `version: 1
tools:
  - { name: add, namespace: math, builtin: calculate }
  - name: slug
    namespace: text
    module: ./slug.ts
    inputSchema:
      type: object
      properties: { s: { type: string, minLength: 3 } }
      required: [s]
      additionalProperties: false
  - name: nest
    namespace: deep
    module: ./nest.ts
    inputSchema: ${JSON.stringify(nested(12))}
`;

function nested(depth: number): unknown {
  let schema: unknown = { type: "string" };
  for (let i = 0; i < depth; i++) {
    schema = {
      type: "object",
      properties: { x: schema },
      required: ["x"],
      additionalProperties: false,
    };
  }
  return schema;
}

interface Entry {
  tool: string;
  target: string;
  status: string;
  warnings: { path: string }[];
  problems?: { code: string; message: string; fix: string }[];
}

const manifest = await tempManifest(MANIFEST);
const dir = manifest.slice(0, manifest.lastIndexOf("/"));
const read = [`--allow-read=${dir}`];

Deno.test("report --json: one entry per tool × target, each exact, lossy or refused, with the counts per target", async () => {
  const out = await cli(["report", manifest, "--json", "--now", "0"], { flags: read });
  assert.equal(out.code, 0, out.stderr);
  const report = JSON.parse(out.stdout) as {
    manifest: string;
    generatedAt: string;
    entries: Entry[];
    summary: Record<string, Record<string, number>>;
  };
  assert.equal(report.manifest, "tools.yaml");
  assert.equal(report.generatedAt, "1970-01-01T00:00:00.000Z");
  assert.equal(report.entries.length, 3 * 6);
  const at = (tool: string, target: string) =>
    report.entries.find((e) => e.tool === tool && e.target === target)!;
  assert.equal(at("deep:nest", "openai").status, "refused");
  assert.equal(at("deep:nest", "openai").problems?.[0].code, "limit_exceeded");
  assert.equal(at("text:slug", "openai-strict").status, "lossy");
  assert.ok(
    at("text:slug", "openai-strict").warnings.some((w) =>
      w.path === "/inputSchema/properties/s/minLength"
    ),
  );
  assert.equal(at("text:slug", "mcp").status, "exact");
  assert.deepEqual(report.summary.mcp, { exact: 3, lossy: 0, refused: 0 });
  assert.match(out.stderr, /3 tool\(s\) × 6 target\(s\): \d+ exact, \d+ lossy, 3 refused/);
});

Deno.test("report --fail-on refused: exit 1 naming the refused cells; --target keeps only the targets asked for", async () => {
  const failed = await cli(["report", manifest, "--json", "--fail-on", "refused"], { flags: read });
  assert.equal(failed.code, 1, failed.stderr);
  assert.match(
    failed.stderr,
    /--fail-on refused: 3 cell\(s\) refused: deep:nest on openai \(refused\)/,
  );
  const anthropic = await cli(
    [
      "report",
      manifest,
      "--json",
      "--fail-on",
      "refused",
      "--target",
      "anthropic",
      "--target",
      "mcp",
    ],
    { flags: read },
  );
  assert.equal(anthropic.code, 0, anthropic.stderr);
  const entries = (JSON.parse(anthropic.stdout) as { entries: Entry[] }).entries;
  assert.deepEqual([...new Set(entries.map((e) => e.target))], ["anthropic", "mcp"]);
});

Deno.test("report --fail-on lossy: a lossy cell fails too; a target where every tool is exact passes", async () => {
  const lossy = await cli(
    ["report", manifest, "--json", "--fail-on", "lossy", "--target", "openai-strict"],
    { flags: read },
  );
  assert.equal(lossy.code, 1);
  assert.match(
    lossy.stderr,
    /--fail-on lossy: \d+ cell\(s\) lossy or refused: .*text:slug on openai-strict \(lossy\)/,
  );
  const exact = await cli(["report", manifest, "--json", "--fail-on", "lossy", "--target", "mcp"], {
    flags: read,
  });
  assert.equal(exact.code, 0, exact.stderr);
});

Deno.test("report --html FILE: one page; the same manifest and --now give the same bytes, SOURCE_DATE_EPOCH too", async () => {
  const a = `${dir}/a.html`;
  const b = `${dir}/b.html`;
  const flags = [...read, `--allow-write=${dir}`];
  const first = await cli(["report", manifest, "--html", a, "--now", "2026-02-03T04:05:06Z"], {
    flags,
  });
  assert.equal(first.code, 0, first.stderr);
  assert.match(first.stderr, new RegExp(`wrote ${a.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`));
  const second = await cli(["report", manifest, "--html", b], {
    flags: [...flags, "--allow-env=SOURCE_DATE_EPOCH"],
    env: { SOURCE_DATE_EPOCH: String(Date.parse("2026-02-03T04:05:06Z") / 1000) },
  });
  assert.equal(second.code, 0, second.stderr);
  const page = await Deno.readTextFile(a);
  assert.equal(page, await Deno.readTextFile(b));
  assert.match(page, /^<!DOCTYPE html>/);
  assert.match(page, /datetime="2026-02-03T04:05:06.000Z"/);
  for (const id of ["math:add", "text:slug", "deep:nest"]) assert.ok(page.includes(id), id);
});

Deno.test("report: usage errors exit 2 and say what to give; writing without permission exits 3", async () => {
  const cases: [string[], RegExp][] = [
    [[], /give --html FILE, --json or both/],
    [["--json", "--fail-on", "sometimes"], /--fail-on must be lossy or refused, got "sometimes"/],
    [
      ["--json", "--target", "cohere"],
      /--target must be one of openai, openai-strict, .*got "cohere"/,
    ],
    [["--json", "--now", "yesterday"], /--now must be an ISO 8601 time .* got "yesterday"/],
  ];
  for (const [args, message] of cases) {
    const out = await cli(["report", manifest, ...args], { flags: read });
    assert.equal(out.code, 2, `${args.join(" ")}: ${out.stderr}`);
    assert.match(out.stderr, message);
  }
  const denied = await cli(["report", manifest, "--html", `${dir}/denied.html`], { flags: read });
  assert.equal(denied.code, 3, denied.stderr);
  assert.match(denied.stderr, /missing permission: .*write/);
});

Deno.test("report: a server's tools are in the report, with their lock-file digests", async () => {
  const withServer = await tempManifest(`version: 1
servers:
  up:
    command: deno
    args: [run, --quiet, --allow-all, ${ROOT}tests/fixtures/serve/upstream.ts]
    protocol: legacy
    include: [echo, json_schema_2020_12_tool]
`);
  const lock = await cli(["lock", withServer], { flags: ["-A"] });
  assert.equal(lock.code, 0, lock.stderr);
  const out = await cli(["report", withServer, "--json", "--now", "0"], { flags: ["-A"] });
  assert.equal(out.code, 0, out.stderr);
  const report = JSON.parse(out.stdout) as {
    tools: { id: string; server?: string; digest?: string }[];
    entries: Entry[];
  };
  assert.deepEqual(report.tools.map((t) => t.id).sort(), [
    "up:echo",
    "up:json_schema_2020_12_tool",
  ]);
  for (const t of report.tools) {
    assert.equal(t.server, "up");
    assert.match(t.digest ?? "", /^sha256:[0-9a-f]{64}$/);
  }
  assert.equal(report.entries.length, 2 * 6);
});

Deno.test("report --help documents every option; serve --report with --stdio is a usage error", async () => {
  const help = await cli(["report", "--help"]);
  assert.equal(help.code, 0);
  for (
    const option of [
      "--html FILE",
      "--json",
      "--fail-on lossy|refused",
      "--target ID",
      "--now TIME",
    ]
  ) {
    assert.ok(help.stdout.includes(option), option);
  }
  const serveHelp = await cli(["serve", "--help"]);
  assert.match(serveHelp.stdout, /--report +Serve the schema-loss report page/);
  const stdio = await cli(["serve", manifest, "--stdio", "--report"], { flags: ["-A"] });
  assert.equal(stdio.code, 2, stdio.stderr);
  assert.match(stdio.stderr, /--report serves a page at \/report: it applies to --http only/);
});
