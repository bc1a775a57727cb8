// OpenAI strict mode closes every object, so a map (an object without
// properties) is declared as a string holding JSON text, as Gemini does, and
// the strict input normalizer parses the text back.

import assert from "node:assert/strict";
import { preflight } from "../../adapter/mod.ts";
import type { Tool } from "../../model/mod.ts";
import { assertBadTextRejected, MAPS, params, registry, type S } from "./_json_text.ts";

Deno.test("openai strict declares maps as strings of JSON text and says so", () => {
  const out = registry.convert(MAPS, "mcp", "openai", { strict: true });
  const schema = params(out.tool);
  const props = schema.properties as S;
  assert.deepEqual(props.tags, {
    type: ["string", "null"],
    description: 'Tags (holds a JSON object as JSON text; values: {"type":"integer"})',
  });
  assert.deepEqual(props.meta, { type: "string", description: "Holds a JSON object as JSON text" });
  assert.deepEqual((schema.$defs as S).row, {
    type: "string",
    description: 'Holds a JSON object as JSON text; values: {"type":"string"}; minProperties: 1',
  });
  const at = (p: string) => out.warnings.filter((w) => w.path === `/inputSchema${p}`);
  const tags = at("/properties/tags");
  assert.ok(tags.some((w) => w.feature === "type" && w.action === "rewritten"));
  assert.ok(tags.every((w) => w.feature !== "type" || w.effect === "widens"));
  assert.equal(at("/properties/tags/additionalProperties")[0].action, "moved-to-description");
  assert.ok(!out.warnings.some((w) => w.effect === "narrows" && w.path.includes("tags")));
  assert.deepEqual(preflight([out.tool], "openai"), []);
  assert.equal(out.strict?.applied, true);
});

Deno.test("openai strict normalizer parses JSON text back and denormalize writes it", async () => {
  const { normalizer } = registry.convert(MAPS, "mcp", "openai", { strict: true });
  const original = { rows: [{ a: "x" }], meta: { deep: [1, null] } };
  const sent = normalizer.denormalize(original);
  assert.deepEqual(sent, { tags: null, rows: ['{"a":"x"}'], meta: '{"deep":[1,null]}' });
  assert.deepEqual(normalizer.normalize(sent), original);
  assert.deepEqual(normalizer.normalize({ ...sent as S, tags: '{"n":1}' }), {
    ...original,
    tags: { n: 1 },
  });
  await assertBadTextRejected(normalizer, { tags: null });
});

Deno.test("openai strict JSON text beside a string branch narrows and is read as the object", () => {
  const tool: Tool = {
    name: "body",
    inputSchema: {
      type: "object",
      properties: {
        body: { anyOf: [{ type: "string" }, { type: "object", additionalProperties: true }] },
      },
      required: ["body"],
    },
  };
  const out = registry.convert(tool, "mcp", "openai", { strict: true });
  const w = out.warnings.find((w) => w.path === "/inputSchema/properties/body/anyOf/1")!;
  assert.equal(w.effect, "narrows");
  assert.match(w.message, /another anyOf branch can take a string/);
  assert.deepEqual(out.normalizer.normalize({ body: '{"a":1}' }), { body: { a: 1 } });
  assert.deepEqual(out.normalizer.normalize({ body: "plain" }), { body: "plain" });
  assert.equal(registry.convert(tool, "mcp", "openai").strict?.applied, false);
});

Deno.test("openai strict keeps closing the root and objects with properties", () => {
  const tool: Tool = {
    name: "root",
    inputSchema: {
      type: "object",
      additionalProperties: { type: "string" },
      properties: { o: { type: "object", properties: { a: { type: "string" } } } },
    },
  };
  const out = registry.convert(tool, "mcp", "openai", { strict: true });
  const schema = params(out.tool);
  assert.equal(schema.additionalProperties, false);
  assert.equal(((schema.properties as S).o as S).additionalProperties, false);
  assert.ok(!out.warnings.some((w) => w.feature === "type"));
});
