// Conversion snapshots: every tool the tests know (the real npm servers' tools,
// the golden cases and their provider-format sources, the Go library's
// documented examples, the built-ins and the example manifests' tools),
// converted to every format and option variant and back to MCP, warnings and
// strict decisions included, must come out byte-identical to tests/fixtures/adapter/snapshots/.
// The recorder is tests/fixtures/adapter/record_conversions.ts.
//
// The test never rewrites the snapshots by default. After an intended change
// of output, rewrite them with
//   UPDATE_SNAPSHOTS=1 deno test --allow-read --allow-write --allow-env tests/adapter/conversion_snapshot_test.ts
// (or `deno run --allow-read --allow-write --allow-env tests/fixtures/adapter/record_conversions.ts`)
// and review the diff: each record is one line.

import assert from "node:assert/strict";
import { escapePointerToken } from "../../model/mod.ts";
import {
  renderSnapshots,
  SNAPSHOT_DIR,
  writeSnapshots,
} from "../fixtures/adapter/record_conversions.ts";

const UPDATE = Deno.env.get("UPDATE_SNAPSHOTS") === "1";

type Records = Record<
  string,
  { from: string; input: unknown; records: Record<string, unknown> }
>;

function toolsOf(text: string): Records {
  try {
    return (JSON.parse(text) as { tools: Records }).tools ?? {};
  } catch {
    return {};
  }
}

interface Difference {
  /** JSON Pointer into the record. */
  path: string;
  /** The snapshot's value there. */
  expected: unknown;
  /** The recomputed value there. */
  actual: unknown;
}

/** Where `expected` and `actual` first differ (in `actual`'s key order). */
function firstDifference(expected: unknown, actual: unknown, path = ""): Difference | undefined {
  if (JSON.stringify(expected) === JSON.stringify(actual)) return undefined;
  const isObject = (v: unknown): v is Record<string, unknown> =>
    typeof v === "object" && v !== null;
  if (isObject(expected) && isObject(actual)) {
    const keysA = Object.keys(expected);
    const keysB = Object.keys(actual);
    for (const key of [...keysB, ...keysA.filter((k) => !keysB.includes(k))]) {
      const found = firstDifference(
        expected[key],
        actual[key],
        `${path}/${escapePointerToken(key)}`,
      );
      if (found !== undefined) return found;
    }
    return { path: `${path} (key order)`, expected: keysA, actual: keysB };
  }
  return { path, expected, actual };
}

const clip = (value: unknown): string => String(JSON.stringify(value)).slice(0, 400);

/** Which tools and directions differ, one line each (at most `limit`). */
function describeDifferences(file: string, expected: string, actual: string, limit = 20): string {
  const before = toolsOf(expected);
  const after = toolsOf(actual);
  const lines: string[] = [];
  for (const tool of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (!(tool in after)) lines.push(`${file}: tool ${JSON.stringify(tool)} is no longer recorded`);
    else if (!(tool in before)) lines.push(`${file}: tool ${JSON.stringify(tool)} is new`);
    else {
      for (const field of ["from", "input"] as const) {
        const at = firstDifference(before[tool][field], after[tool][field]);
        if (at === undefined) continue;
        lines.push(
          `${file}: tool ${JSON.stringify(tool)}: its ${field} differs at ${at.path || "/"}\n` +
            `  expected ${clip(at.expected)}\n  actual   ${clip(at.actual)}`,
        );
      }
      const was = before[tool].records;
      const now = after[tool].records;
      for (const direction of new Set([...Object.keys(was), ...Object.keys(now)])) {
        const a = JSON.stringify(was[direction]);
        const b = JSON.stringify(now[direction]);
        if (a === b) continue;
        const at = firstDifference(was[direction], now[direction])!;
        lines.push(
          `${file}: tool ${JSON.stringify(tool)}, direction ${JSON.stringify(direction)}: ` +
            `differs at ${at.path || "/"}\n` +
            `  expected ${clip(at.expected)}\n  actual   ${clip(at.actual)}`,
        );
      }
    }
  }
  if (lines.length === 0) {
    const at = [...expected].findIndex((c, i) => c !== actual[i]);
    lines.push(`${file}: the records are equal but the text differs at character ${at}`);
  }
  const more = lines.length > limit ? [`... and ${lines.length - limit} more`] : [];
  return [...lines.slice(0, limit), ...more].join("\n");
}

Deno.test("conversion snapshots: every recorded tool converts byte-identically in every direction", async () => {
  const files = await renderSnapshots();
  if (UPDATE) {
    await writeSnapshots(files);
    return;
  }
  const committed = new Set<string>();
  for await (const entry of Deno.readDir(SNAPSHOT_DIR)) {
    if (entry.isFile && entry.name.endsWith(".json")) committed.add(entry.name);
  }
  assert.deepEqual(
    [...files.keys()].sort(),
    [...committed].sort(),
    "the snapshot files and the recorded groups differ (UPDATE_SNAPSHOTS=1 rewrites them)",
  );
  const failures: string[] = [];
  for (const [name, actual] of files) {
    const expected = await Deno.readTextFile(new URL(name, SNAPSHOT_DIR));
    if (actual !== expected) failures.push(describeDifferences(name, expected, actual));
  }
  assert.equal(
    failures.length,
    0,
    `conversions differ from the snapshots (UPDATE_SNAPSHOTS=1 rewrites them):\n${
      failures.join("\n")
    }`,
  );
});

Deno.test("conversion snapshots: the recorder covers every group, format and option variant", async () => {
  const files = await renderSnapshots();
  assert.deepEqual([...files.keys()], [
    "server_everything.json",
    "server_filesystem.json",
    "server_memory.json",
    "cases.json",
    "golden_sources.json",
    "seed_examples.json",
    "builtins.json",
  ]);
  for (const name of ["server_everything.json", "server_filesystem.json", "server_memory.json"]) {
    assert.ok(Object.keys(toolsOf(files.get(name)!)).length >= 9, name);
  }
  const directions = new Set<string>();
  const sources = new Set<string>();
  for (const text of files.values()) {
    for (const tool of Object.values(toolsOf(text))) {
      sources.add(tool.from);
      for (const direction of Object.keys(tool.records)) directions.add(direction);
    }
  }
  assert.deepEqual([...sources].sort(), [
    "anthropic",
    "gemini",
    "mcp",
    "openai",
    "openai-responses",
  ]);
  for (
    const expected of [
      "mcp → openai strict=auto",
      "mcp → anthropic strict=true → mcp",
      "mcp → gemini parametersJsonSchema describeDropped=false",
      "gemini → openai-responses strict=false → mcp",
      "mcp → openai default → mcp with names",
    ]
  ) {
    assert.ok(directions.has(expected), expected);
  }
});
