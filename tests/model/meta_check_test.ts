// The Hyperjump-free meta-schema check (model/_meta_check.ts) is sound: it
// never accepts a schema that Hyperjump's own meta-schema validation rejects,
// on every schema of the JSON Schema Test Suite, on every MCP tool schema the
// tests use, on the meta-schemas' own keywords given wrong values, and on
// random schema-like values. It also accepts the ordinary schemas (it is
// useful only when it does).
import assert from "node:assert/strict";
import fc from "fast-check";
import { passesMetaSchema } from "../../model/_meta_check.ts";
import { interpret, metaValidator } from "../../model/_hyperjump.ts";
import { corpus } from "../../bench/_validator_corpus.ts";
import { loadRegexEngine } from "../../model/_regex.ts";
import { suiteDir } from "../conformance/_suite_dir.ts";

// Hyperjump's meta-schemas hold patterns, compiled synchronously: load the engine first.
await loadRegexEngine();

const DIALECTS = {
  "2020-12": "https://json-schema.org/draft/2020-12/schema",
  "draft-07": "http://json-schema.org/draft-07/schema",
} as const;
type Dialect = keyof typeof DIALECTS;

const SUITE = `${suiteDir()}/tests`;

async function hyperjumpAccepts(schema: unknown, dialect: Dialect): Promise<boolean> {
  return interpret(await metaValidator(DIALECTS[dialect]), schema, "FLAG", false).valid;
}

async function suiteSchemas(dir: string): Promise<unknown[]> {
  const out: unknown[] = [];
  const walk = async (path: string): Promise<void> => {
    for await (const entry of Deno.readDir(path)) {
      if (entry.isDirectory) await walk(`${path}/${entry.name}`);
      else if (entry.name.endsWith(".json")) {
        const groups = JSON.parse(await Deno.readTextFile(`${path}/${entry.name}`));
        for (const group of groups) out.push(group.schema);
      }
    }
  };
  await walk(`${SUITE}/${dir}`);
  return out;
}

/** Checks soundness on each schema; returns how many both accept. */
async function compare(schemas: unknown[], dialect: Dialect): Promise<number> {
  let accepted = 0;
  for (const schema of schemas) {
    if (!passesMetaSchema(schema, dialect)) continue;
    assert.equal(
      await hyperjumpAccepts(schema, dialect),
      true,
      `accepted without Hyperjump, rejected by it (${dialect}): ${JSON.stringify(schema)}`,
    );
    accepted++;
  }
  return accepted;
}

Deno.test("the meta-schema check never accepts what Hyperjump rejects: the Test Suite's schemas", async () => {
  for (const [dir, dialect] of [["draft2020-12", "2020-12"], ["draft7", "draft-07"]] as const) {
    const schemas = await suiteSchemas(dir);
    const accepted = await compare(schemas, dialect);
    // Most of the suite's schemas are ordinary: the check must accept most of them.
    assert.ok(accepted > schemas.length * 0.6, `${dialect}: ${accepted} of ${schemas.length}`);
  }
});

Deno.test("the meta-schema check accepts the real MCP tool schemas Hyperjump accepts", async () => {
  const { real } = await corpus();
  const schemas = [...new Map(real.map((c) => [JSON.stringify(c.schema), c.schema])).values()];
  for (const dialect of ["2020-12", "draft-07"] as const) {
    let both = 0, hyperjumpOnly = 0;
    for (const schema of schemas) {
      const ours = passesMetaSchema(schema, dialect);
      const theirs = await hyperjumpAccepts(schema, dialect);
      assert.ok(!ours || theirs, `accepted without Hyperjump only: ${JSON.stringify(schema)}`);
      if (ours) both++;
      else if (theirs) hyperjumpOnly++;
    }
    // Real tool schemas use no $id/$anchor: the check decides them all.
    assert.equal(hyperjumpOnly, 0, `${dialect}: ${hyperjumpOnly} left to Hyperjump`);
    assert.ok(both > 200);
  }
});

Deno.test("the meta-schema check rejects wrong keyword values, $id and anchors", async () => {
  const wrong: unknown[] = [
    { type: "strnig" },
    { type: [] },
    { type: ["string", "string"] },
    { required: "a" },
    { required: [1] },
    { minimum: "0" },
    { minLength: -1 },
    { minLength: 1.5 },
    { maxItems: "3" },
    { multipleOf: 0 },
    { enum: "a" },
    { properties: { a: 1 } },
    { properties: [] },
    { items: 1 },
    { additionalProperties: "no" },
    { allOf: [] },
    { anyOf: {} },
    { not: [] },
    { pattern: 1 },
    { uniqueItems: "yes" },
    { $ref: 1 },
    { definitions: { a: "x" } },
    { dependencies: { a: 1 } },
    7,
    "schema",
    null,
    [],
  ];
  const only2020: unknown[] = [
    { $defs: { a: 3 } },
    // Stricter than the meta-schema: their patterns are left to Hyperjump.
    { $id: "http://example.com/s" },
    { $anchor: "a" },
    { $dynamicAnchor: "a" },
    { properties: { a: { $id: "x" } } },
  ];
  for (const dialect of ["2020-12", "draft-07"] as const) {
    for (const schema of dialect === "2020-12" ? [...wrong, ...only2020] : wrong) {
      assert.equal(
        passesMetaSchema(schema, dialect),
        false,
        `${dialect}: ${JSON.stringify(schema)}`,
      );
    }
    assert.equal(
      passesMetaSchema({ type: "object", properties: { a: { type: "string" } } }, dialect),
      true,
    );
    assert.equal(passesMetaSchema(true, dialect), true);
  }
  // Keyword names as property names are fine.
  assert.equal(passesMetaSchema({ properties: { $id: { type: "string" } } }, "2020-12"), true);
  assert.equal(await hyperjumpAccepts({ $id: "http://example.com/s" }, "2020-12"), true);
});

const keyword = fc.constantFrom(
  "type",
  "enum",
  "const",
  "required",
  "properties",
  "additionalProperties",
  "items",
  "prefixItems",
  "additionalItems",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "minLength",
  "maxLength",
  "pattern",
  "format",
  "anyOf",
  "oneOf",
  "allOf",
  "not",
  "if",
  "then",
  "else",
  "$ref",
  "$defs",
  "definitions",
  "dependencies",
  "dependentRequired",
  "dependentSchemas",
  "propertyNames",
  "contains",
  "minContains",
  "uniqueItems",
  "multipleOf",
  "minItems",
  "$schema",
  "$comment",
  "title",
  "default",
  "examples",
  "deprecated",
  "contentSchema",
  "unevaluatedProperties",
  "patternProperties",
  "x-extra",
);
const value: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  v: fc.oneof(
    { depthSize: "small" },
    fc.constantFrom(
      null,
      true,
      false,
      0,
      -1,
      1.5,
      2,
      "",
      "a",
      "string",
      "object",
      "#",
      "#/$defs/a",
    ),
    fc.array(tie("v"), { maxLength: 3 }),
    fc.dictionary(fc.oneof(keyword, fc.constantFrom("a", "b")), tie("v"), { maxKeys: 3 }),
  ),
})).v;
const schemaLike = fc.dictionary(keyword, value, { maxKeys: 4 });

Deno.test("the meta-schema check never accepts what Hyperjump rejects: random schema-like values", async () => {
  for (const dialect of ["2020-12", "draft-07"] as const) {
    const samples = fc.sample(schemaLike, { numRuns: 1500, seed: dialect === "2020-12" ? 7 : 11 });
    const accepted = await compare(samples, dialect);
    assert.ok(accepted > 50, `${dialect}: only ${accepted} of ${samples.length} accepted`);
  }
});
