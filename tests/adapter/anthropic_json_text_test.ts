// Anthropic strict tool use closes every object, so a map is declared as a
// string holding JSON text, as OpenAI strict does; untyped maps (only an
// `additionalProperties` schema) are handled the same way in both.

import assert from "node:assert/strict";
import { preflight } from "../../adapter/mod.ts";
import type { Tool } from "../../model/mod.ts";
import { assertBadTextRejected, MAPS, params, registry, type S } from "./_json_text.ts";

Deno.test("anthropic strict declares maps as strings of JSON text instead of closing them", () => {
  const out = registry.convert(MAPS, "mcp", "anthropic", { strict: true });
  const schema = params(out.tool);
  const props = schema.properties as S;
  assert.deepEqual(props.tags, {
    type: "string",
    description: 'Tags (holds a JSON object as JSON text; values: {"type":"integer"})',
  });
  assert.deepEqual(props.meta, { type: "string", description: "Holds a JSON object as JSON text" });
  assert.deepEqual((schema.$defs as S).row, {
    type: "string",
    description: 'Holds a JSON object as JSON text; values: {"type":"string"}; minProperties: 1',
  });
  const types = out.warnings.filter((w) => w.feature === "type");
  assert.deepEqual(types.map((w) => `${w.path} ${w.action} ${w.effect}`), [
    "/inputSchema/properties/tags rewritten widens",
    "/inputSchema/properties/meta rewritten widens",
    "/inputSchema/$defs/row rewritten widens",
  ]);
  assert.match(types[0].message, /^anthropic strict mode closes every object/);
  assert.ok(
    !out.warnings.some((w) =>
      w.effect === "narrows" && w.path !== "/inputSchema/additionalProperties"
    ),
  );
  assert.deepEqual(preflight([out.tool], "anthropic"), []);
  assert.equal(out.strict?.applied, true);
  assert.equal(out.normalizer.identity, false);
});

Deno.test("anthropic strict normalizer parses JSON text back and denormalize writes it", async () => {
  const { normalizer } = registry.convert(MAPS, "mcp", "anthropic", { strict: true });
  const original = { rows: [{ a: "x" }], meta: { deep: [1, null] } };
  const sent = normalizer.denormalize(original);
  assert.deepEqual(sent, { rows: ['{"a":"x"}'], meta: '{"deep":[1,null]}' });
  assert.deepEqual(normalizer.normalize(sent), original);
  assert.deepEqual(normalizer.normalize({ ...sent as S, tags: '{"n":1}' }), {
    ...original,
    tags: { n: 1 },
  });
  await assertBadTextRejected(normalizer, {});
});

Deno.test("anthropic non-strict keeps maps as objects and the identity normalizer", () => {
  const out = registry.convert(MAPS, "mcp", "anthropic");
  assert.deepEqual(params(out.tool), MAPS.inputSchema);
  assert.equal(out.normalizer.identity, true);
});

const UNTYPED: Tool = {
  name: "untyped",
  inputSchema: {
    type: "object",
    properties: {
      env: { additionalProperties: { type: "string" } },
      loose: { additionalProperties: { type: "string" }, minLength: 1 },
    },
    required: ["env"],
  },
};

for (const format of ["openai", "anthropic"]) {
  Deno.test(`${format} strict declares an untyped map as JSON text and says it narrows`, () => {
    const out = registry.convert(UNTYPED, "mcp", format, { strict: true });
    const props = params(out.tool).properties as S;
    assert.deepEqual(props.env, {
      type: "string",
      description: 'Holds a JSON object as JSON text; values: {"type":"string"}',
    });
    assert.notEqual((props.loose as S).type, "string", "keywords of another type: not a map");
    const w = out.warnings.find((w) => w.path === "/inputSchema/properties/env")!;
    assert.equal(`${w.feature} ${w.action} ${w.effect}`, "type rewritten narrows");
    assert.match(w.message, /has no type and is read as a map/);
    assert.deepEqual(preflight([out.tool], format), []);
    assert.deepEqual(out.normalizer.normalize({ env: '{"A":"1"}' }), { env: { A: "1" } });
    assert.equal((out.normalizer.denormalize({ env: { A: "1" } }) as S).env, '{"A":"1"}');
  });
}
