// Gemini `parameters` cannot declare an OBJECT without properties: such objects
// (free-form maps, recursion cut to "any object") are declared as a STRING
// holding JSON text, and the conversion's input normalizer parses it back.

import assert from "node:assert/strict";
import { defaultRegistry, parseToolCall, preflight } from "../../adapter/mod.ts";
import { DefaultValidator, type Tool } from "../../model/mod.ts";
import { ALL_CASES, SEED_TOOLS } from "./_cases.ts";

type S = Record<string, unknown>;
const registry = defaultRegistry();
const validator = new DefaultValidator();

function params(tool: unknown): S {
  return (tool as { parameters: S }).parameters;
}

function prop(schema: S, ...names: string[]): S {
  let node = schema;
  for (const name of names) {
    node = name === "[]" ? node.items as S : (node.properties as S)[name] as S;
  }
  return node;
}

const MAPS: Tool = {
  name: "maps",
  inputSchema: {
    type: "object",
    properties: {
      tags: { type: "object", additionalProperties: { type: "integer" }, default: { a: 1 } },
      rows: {
        type: "array",
        items: { type: "object", additionalProperties: { type: "string" }, minProperties: 1 },
      },
      meta: { type: "object" },
    },
    required: ["rows"],
  },
};

Deno.test("gemini declares a map property as a STRING of JSON text and says so", () => {
  const out = registry.convert(SEED_TOOLS.api_request, "mcp", "gemini");
  assert.deepEqual(prop(params(out.tool), "headers"), {
    type: "STRING",
    description: 'HTTP headers (holds a JSON object as JSON text; values: {"type":"string"})',
  });
  const w = out.warnings.find((w) => w.path === "/inputSchema/properties/headers")!;
  assert.equal(w.feature, "type");
  assert.equal(w.action, "rewritten");
  assert.equal(w.effect, "widens");
  assert.match(w.message, /must send the object as JSON text/);
  const ap = out.warnings.find((w) => w.feature === "additionalProperties")!;
  assert.equal(ap.action, "moved-to-description");
  assert.deepEqual(preflight([out.tool], "gemini"), []);
  assert.equal(out.normalizer.identity, false);
});

Deno.test("gemini writes a nested map in array items as JSON text, with its default as text", () => {
  const out = registry.convert(MAPS, "mcp", "gemini");
  const schema = params(out.tool);
  assert.deepEqual(prop(schema, "rows", "[]"), {
    type: "STRING",
    description: 'Holds a JSON object as JSON text; values: {"type":"string"}; minProperties: 1',
  });
  assert.deepEqual(prop(schema, "tags").default, '{"a":1}');
  assert.deepEqual(prop(schema, "meta"), {
    type: "STRING",
    description: "Holds a JSON object as JSON text",
  });
  assert.ok(
    out.warnings.some((w) =>
      w.path === "/inputSchema/properties/rows/items/minProperties" &&
      w.action === "moved-to-description"
    ),
  );
  assert.deepEqual(preflight([out.tool], "gemini"), []);
});

Deno.test("gemini writes a recursion cut as JSON text next to the cut's warning", () => {
  const out = registry.convert(ALL_CASES.ref_defs, "mcp", "gemini");
  const items = prop(params(out.tool), "manager", "reports", "[]");
  assert.deepEqual(items, {
    type: "STRING",
    description:
      'Holds a JSON object as JSON text; recursive: the same schema as the enclosing "person" object',
  });
  const at = "/inputSchema/$defs/person/properties/reports/items";
  assert.ok(out.warnings.some((w) => w.path === `${at}/$ref` && w.action === "dropped"));
  assert.ok(out.warnings.some((w) => w.path === at && w.feature === "type"));
  assert.deepEqual(preflight([out.tool], "gemini"), []);
  const args = { name: "b", reports: [] };
  const home = { street: "s", city: "c" };
  assert.deepEqual(
    out.normalizer.normalize({ home, manager: { name: "a", reports: [JSON.stringify(args)] } }),
    { home, manager: { name: "a", reports: [args] } },
  );
});

Deno.test("gemini normalizer parses JSON text back and denormalize writes it, without mutation", () => {
  const { normalizer } = registry.convert(MAPS, "mcp", "gemini");
  const original = {
    tags: { a: 1, b: 2 },
    rows: [{ x: "1" }, {}],
    meta: { deep: { n: [1, null] } },
  };
  const sent = normalizer.denormalize(original);
  assert.deepEqual(sent, {
    tags: '{"a":1,"b":2}',
    rows: ['{"x":"1"}', "{}"],
    meta: '{"deep":{"n":[1,null]}}',
  });
  assert.deepEqual(normalizer.normalize(sent), original);
  assert.deepEqual(original.tags, { a: 1, b: 2 });
  const plain = registry.convert(SEED_TOOLS.calculator, "mcp", "gemini").normalizer;
  assert.equal(plain.identity, true);
});

Deno.test("gemini normalizer keeps text that is not a JSON object, and validation rejects it", async () => {
  const { normalizer } = registry.convert(MAPS, "mcp", "gemini");
  const compiled = await validator.compile(MAPS.inputSchema);
  for (const bad of ["{not json", "[1,2]", "null", '"text"']) {
    const args = normalizer.normalize({ rows: [bad] }) as S;
    assert.deepEqual(args, { rows: [bad] });
    const result = compiled.check(args);
    assert.equal(result.valid, false, bad);
    if (!result.valid) assert.ok(result.failures.some((f) => f.instanceLocation === "/rows/0"));
  }
  assert.deepEqual(compiled.check(normalizer.normalize({ rows: ['{"k":"v"}'] })), { valid: true });
});

Deno.test("gemini call arguments are normalized by parseToolCall with the conversion's normalizer", () => {
  const { normalizer } = registry.convert(SEED_TOOLS.api_request, "mcp", "gemini");
  const call = parseToolCall(
    {
      functionCall: {
        name: "http:api_request",
        args: { method: "GET", url: "u", headers: '{"a":"b"}' },
      },
    },
    { normalizers: { "http:api_request": normalizer } },
  );
  assert.deepEqual(call.arguments, { method: "GET", url: "u", headers: { a: "b" } });
});

Deno.test("gemini JSON text beside a string branch is reported as narrowing and read as the object", () => {
  const tool: Tool = {
    name: "body",
    inputSchema: { type: "object", properties: { body: { type: ["string", "object"] } } },
  };
  const out = registry.convert(tool, "mcp", "gemini");
  const w = out.warnings.find((w) => w.path === "/inputSchema/properties/body")!;
  assert.equal(w.effect, "narrows");
  assert.deepEqual(out.normalizer.normalize({ body: '{"a":1}' }), { body: { a: 1 } });
  assert.deepEqual(out.normalizer.normalize({ body: "plain" }), { body: "plain" });
  assert.deepEqual(preflight([out.tool], "gemini"), []);
});

Deno.test("gemini moves type OBJECT beside anyOf into the branches", () => {
  const tool: Tool = {
    name: "pick",
    inputSchema: {
      type: "object",
      properties: {
        x: {
          type: "object",
          anyOf: [{ properties: { a: { type: "string" } } }, {
            properties: { b: { type: "integer" } },
          }],
        },
      },
    },
  };
  const out = registry.convert(tool, "mcp", "gemini");
  assert.deepEqual(prop(params(out.tool), "x"), {
    anyOf: [
      { type: "OBJECT", properties: { a: { type: "STRING" } } },
      { type: "OBJECT", properties: { b: { type: "INTEGER" } } },
    ],
  });
  assert.deepEqual(preflight([out.tool], "gemini"), []);
});

Deno.test("gemini response: a map is declared as a STRING, a root without properties is omitted", () => {
  const tool: Tool = {
    name: "stats",
    inputSchema: { type: "object", properties: { q: { type: "string" } } },
    outputSchema: { type: "object", properties: { counts: { type: "object" } } },
  };
  const out = registry.convert(tool, "mcp", "gemini");
  const counts = prop((out.tool as { response: S }).response, "counts");
  assert.equal(counts.type, "STRING");
  assert.match(counts.description as string, /JSON object \(declared as a string only because/);
  assert.equal(out.normalizer.identity, true);
  assert.deepEqual(preflight([out.tool], "gemini"), []);
  const bare = registry.convert({ ...tool, outputSchema: { type: "object" } }, "mcp", "gemini");
  assert.equal((bare.tool as S).response, undefined);
  assert.ok(bare.warnings.some((w) => w.path === "/outputSchema" && w.action === "dropped"));
});

Deno.test("gemini parametersJsonSchema keeps maps as JSON Schema objects", () => {
  const out = registry.convert(MAPS, "mcp", "gemini", { geminiSchema: "parametersJsonSchema" });
  const schema = (out.tool as { parametersJsonSchema: S }).parametersJsonSchema;
  assert.deepEqual(schema.properties, MAPS.inputSchema.properties);
  assert.equal(out.normalizer.identity, true);
  assert.deepEqual(preflight([out.tool], "gemini"), []);
});
