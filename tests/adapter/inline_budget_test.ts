// `$ref` inlining has a size budget (`limits.maxInlinedNodes` of the profile):
// shared references that multiply when inlined are cut with a warning instead
// of growing the schema exponentially.

import assert from "node:assert/strict";
import { defaultRegistry, GEMINI_PROFILE, preflight } from "../../adapter/mod.ts";
import type { Tool } from "../../model/mod.ts";

const registry = defaultRegistry();

/** d0 uses d1 twice, d1 uses d2 twice, ...: inlined, 2^depth copies of the leaf. */
function doubling(depth: number): Tool {
  const defs: Record<string, unknown> = {};
  for (let i = 0; i < depth; i++) {
    const next = { $ref: `#/$defs/d${i + 1}`, description: "shared" };
    defs[`d${i}`] = i === depth - 1
      ? { type: "object", properties: { v: { type: "string" } } }
      : { type: "object", properties: { a: next, b: next } };
  }
  return {
    name: "doubling",
    inputSchema: { type: "object", properties: { root: { $ref: "#/$defs/d0" } }, $defs: defs },
  };
}

function countNodes(value: unknown): number {
  if (Array.isArray(value)) return value.reduce((n: number, v) => n + countNodes(v), 1);
  if (value === null || typeof value !== "object") return 0;
  return Object.values(value).reduce((n: number, v) => n + countNodes(v), 1);
}

Deno.test("gemini stops inlining exponentially shared refs at the profile's budget", () => {
  assert.equal(GEMINI_PROFILE.schema.limits?.maxInlinedNodes, 10_000);
  const started = performance.now();
  const out = registry.convert(doubling(40), "mcp", "gemini");
  assert.ok(performance.now() - started < 5_000);
  assert.ok(countNodes(out.tool) < 30_000);
  const cuts = out.warnings.filter((w) => w.feature === "$ref" && /exceed 10000/.test(w.message));
  assert.ok(cuts.length > 0);
  for (const w of cuts) {
    assert.equal(w.action, "dropped");
    assert.equal(w.effect, "widens");
    assert.match(w.path, /^\/inputSchema\/\$defs\/d\d+\/properties\/[ab]\/\$ref$/);
  }
  assert.deepEqual(preflight([out.tool], "gemini"), []);
  assert.equal(out.normalizer.identity, false);
});

Deno.test("a profile's smaller budget cuts earlier, and the cut says why", () => {
  const profile = {
    ...GEMINI_PROFILE,
    schema: { ...GEMINI_PROFILE.schema, limits: { maxInlinedNodes: 40 } },
  };
  const out = registry.convert(doubling(6), "mcp", "gemini", { profile });
  const text = JSON.stringify(out.tool);
  assert.match(text, /not inlined because it is too large/);
  assert.ok(out.warnings.some((w) => /exceed 40 schema nodes/.test(w.message)));
  assert.ok(countNodes(out.tool) < 200);
  assert.deepEqual(preflight([out.tool], "gemini", { profile }), []);
  const strict = registry.convert(doubling(40), "mcp", "anthropic", { strict: true });
  assert.deepEqual(preflight([strict.tool], "anthropic").filter((p) => p.tool !== undefined), []);
});
