// Fuzzing conversion: random, often broken schemas (keywords of
// 2020-12 and draft-07, `$ref`s into `$defs` that loop, `__proto__` and
// `constructor` as property names, nulls, huge numbers) converted to every
// format and back (and through preflight), and random arguments through the
// normalizers. Only typed errors (ToolFoundationError) may come out; the same
// input gives the same output, warnings included; the input is never mutated;
// each case stays within a generous time budget, the whole test within about
// 15 s (600 cases take about 1 s; FUZZ_RUNS sets the number).
//
//   deno test --unstable-unsafe-proto --allow-read --allow-env tests/adapter/fuzz_test.ts

import assert from "node:assert/strict";
import fc from "fast-check";
import { type ConvertOptions, defaultRegistry, preflight } from "../../adapter/mod.ts";
import { ToolFoundationError } from "../../model/mod.ts";

type S = Record<string, unknown>;
const registry = defaultRegistry();
const NUM_RUNS = Number(Deno.env.get("FUZZ_RUNS") ?? 600);
/** Per case (one tool through every target, twice, and back): generous, for loaded machines. */
const CASE_BUDGET_MS = 3000;
const TOTAL_BUDGET_MS = 15_000;
const MAX_NODES = 60;

const TARGETS: { name: string; to: string; options?: ConvertOptions }[] = [
  { name: "mcp", to: "mcp" },
  { name: "openai strict", to: "openai", options: { strict: true } },
  { name: "openai non-strict", to: "openai", options: { strict: false } },
  { name: "openai auto", to: "openai", options: { strict: "auto" } },
  { name: "openai-responses strict", to: "openai-responses", options: { strict: true } },
  { name: "anthropic strict", to: "anthropic", options: { strict: true } },
  { name: "anthropic", to: "anthropic", options: { strict: false } },
  { name: "gemini parameters", to: "gemini" },
  {
    name: "gemini parametersJsonSchema",
    to: "gemini",
    options: { geminiSchema: "parametersJsonSchema" },
  },
];

const NAMES = ["a", "b", "__proto__", "constructor", "toString", "x-y", "a/b", "~0"];
const name = fc.constantFrom(...NAMES);
const huge = fc.constantFrom(1e308, -1e308, 2 ** 53 + 2, 5e-324, -0, 0, 1e21, -1);
const scalar = fc.oneof(
  fc.constant(null),
  huge,
  fc.integer({ min: -3, max: 3 }),
  fc.boolean(),
  fc.constantFrom("", "s", "__proto__", '{"__proto__":{"x":1}}'),
);

/** Builds an object with own data properties (also for `__proto__`). */
function entries<T>(value: fc.Arbitrary<T>, max = 3): fc.Arbitrary<Record<string, T>> {
  return fc.array(fc.tuple(name, value), { maxLength: max }).map((list) =>
    Object.fromEntries(list)
  );
}

const json: fc.Arbitrary<unknown> = fc.letrec<{ v: unknown }>((tie) => ({
  v: fc.oneof(
    { maxDepth: 2 },
    scalar,
    fc.array(tie("v"), { maxLength: 2 }),
    entries(tie("v"), 2),
  ),
})).v;

const REFS = [
  "#",
  "#/$defs/a",
  "#/$defs/b",
  "#/$defs/__proto__",
  "#/$defs/constructor",
  "#/definitions/a",
  "#/$defs/missing",
  "#/properties/a",
  "#anchor",
  "https://elsewhere.example/s.json",
  "#/$defs/a/anyOf/0",
];

const TYPES = ["object", "array", "string", "number", "integer", "boolean", "null", "OBJECT"];

const leaf: fc.Arbitrary<unknown> = fc.oneof(
  fc.boolean(),
  fc.record({ type: fc.oneof(fc.constantFrom(...TYPES), fc.subarray(TYPES, { maxLength: 3 })) }),
  fc.record({ $ref: fc.constantFrom(...REFS) }),
  fc.record({ enum: fc.array(json, { maxLength: 3 }) }),
  fc.record({ const: json }),
  fc.record({
    type: fc.constant("string"),
    minLength: huge,
    maxLength: fc.integer({ min: 0, max: 5 }),
    pattern: fc.constantFrom("^a+$", "(a)\\1", "(?=x)", "\\bword", "[", "^(a+)+$"),
    format: fc.constantFrom("email", "uuid", "regex", "nonsense", "date-time"),
  }, { requiredKeys: [] }),
  fc.record({
    type: fc.constantFrom("number", "integer"),
    minimum: huge,
    maximum: huge,
    exclusiveMinimum: fc.oneof(huge, fc.boolean()),
    exclusiveMaximum: huge,
    multipleOf: huge,
  }, { requiredKeys: [] }),
  fc.record({ default: json, examples: fc.array(json, { maxLength: 2 }), "x-ext": json }, {
    requiredKeys: [],
  }),
  fc.record({ $anchor: fc.constant("anchor"), nullable: fc.boolean(), deprecated: fc.boolean() }),
  fc.constantFrom(null, 3, "string", [], { $ref: 5 }),
);

const schema = fc.letrec<{ schema: unknown }>((tie) => ({
  schema: fc.oneof(
    { maxDepth: 6, depthSize: "small", withCrossShrink: true },
    leaf,
    fc.record({
      type: fc.constantFrom("object", undefined),
      properties: entries(tie("schema")),
      required: fc.array(name, { maxLength: 3 }),
      additionalProperties: fc.oneof(fc.boolean(), tie("schema")),
      patternProperties: entries(tie("schema"), 1),
      propertyNames: tie("schema"),
      dependentSchemas: entries(tie("schema"), 1),
      dependencies: entries(fc.oneof(fc.array(name, { maxLength: 2 }), tie("schema")), 1),
      minProperties: huge,
      unevaluatedProperties: fc.boolean(),
    }, { requiredKeys: [] }),
    fc.record({
      type: fc.constant("array"),
      items: fc.oneof(tie("schema"), fc.array(tie("schema"), { maxLength: 2 })),
      prefixItems: fc.array(tie("schema"), { maxLength: 2 }),
      additionalItems: tie("schema"),
      contains: tie("schema"),
      minItems: huge,
      uniqueItems: fc.boolean(),
    }, { requiredKeys: ["type"] }),
    fc.record({ allOf: fc.array(tie("schema"), { maxLength: 3 }) }),
    fc.record({ anyOf: fc.array(tie("schema"), { maxLength: 3 }) }),
    fc.record({ oneOf: fc.array(tie("schema"), { maxLength: 3 }) }),
    fc.record({ not: tie("schema") }),
    fc.record({ if: tie("schema"), then: tie("schema"), else: tie("schema") }, {
      requiredKeys: ["if"],
    }),
    fc.record({ $ref: fc.constantFrom(...REFS), description: fc.string({ maxLength: 3 }) }),
  ),
})).schema;

const root: fc.Arbitrary<S> = fc.record({
  properties: entries(schema, 4),
  required: fc.array(name, { maxLength: 3 }),
  defs: entries(schema, 3),
  definitions: fc.option(entries(schema, 1), { nil: undefined }),
  draft07: fc.boolean(),
  combinator: fc.option(
    fc.tuple(fc.constantFrom("anyOf", "oneOf", "allOf"), fc.array(schema, { maxLength: 2 })),
    { nil: undefined },
  ),
  additionalProperties: fc.option(fc.oneof(fc.boolean(), schema), { nil: undefined }),
}).map(({ properties, required, defs, definitions, draft07, combinator, additionalProperties }) => {
  const inputSchema: S = { type: "object", properties, required };
  if (Object.keys(defs).length > 0) inputSchema.$defs = defs;
  if (definitions !== undefined) inputSchema.definitions = definitions;
  if (draft07) inputSchema.$schema = "http://json-schema.org/draft-07/schema#";
  if (combinator !== undefined) inputSchema[combinator[0]] = combinator[1];
  if (additionalProperties !== undefined) inputSchema.additionalProperties = additionalProperties;
  // Through JSON text, as a server sends it: plain objects, own "__proto__" keys.
  return JSON.parse(JSON.stringify({ name: "fuzz", namespace: "f", inputSchema }));
});

function countNodes(value: unknown): number {
  if (Array.isArray(value)) return value.reduce((n: number, v) => n + countNodes(v), 1);
  if (typeof value === "object" && value !== null) {
    return Object.values(value).reduce((n: number, v) => n + countNodes(v), 1);
  }
  return 1;
}

const tools = root.filter((tool) => countNodes(tool.inputSchema) <= MAX_NODES);

/** The outcome of a call as comparable JSON text: its result, or its typed error. */
function outcome(fn: () => unknown): { text: string; value?: unknown } {
  try {
    const value = fn();
    return { text: JSON.stringify(value), value };
  } catch (error) {
    if (!(error instanceof ToolFoundationError)) {
      throw new Error(`an untyped error escaped: ${error}`, { cause: error });
    }
    const pointer = (error as { keywordLocation?: string }).keywordLocation;
    return { text: JSON.stringify({ error: error.code, message: error.message, pointer }) };
  }
}

Deno.test("fuzz: random hostile schemas convert to every format and back with only typed errors, deterministically", () => {
  const started = performance.now();
  let converted = 0;
  let refused = 0;
  fc.assert(
    fc.property(tools, json, (tool, args) => {
      const caseStart = performance.now();
      const before = JSON.stringify(tool);
      for (const target of TARGETS) {
        const convert = () => {
          const r = registry.convert(tool, "mcp", target.to, target.options);
          return { tool: r.tool, warnings: r.warnings, strict: r.strict, normalizer: r.normalizer };
        };
        const first = outcome(convert);
        const second = outcome(convert);
        assert.equal(second.text, first.text, `${target.name}: the same input, the same output`);
        if (first.value === undefined) {
          refused++;
          continue;
        }
        converted++;
        const out = first.value as ReturnType<typeof convert>;
        const back = () => registry.convert(out.tool, target.to, "mcp").tool;
        assert.equal(outcome(back).text, outcome(back).text, `${target.name}: back to MCP`);
        outcome(() => preflight([out.tool], target.to));
        outcome(() => out.normalizer.normalize(structuredClone(args)));
        outcome(() => out.normalizer.denormalize(structuredClone(args)));
      }
      assert.equal(JSON.stringify(tool), before, "the input is not mutated");
      const took = performance.now() - caseStart;
      assert.ok(took < CASE_BUDGET_MS, `one case took ${took.toFixed(0)} ms`);
    }),
    { numRuns: NUM_RUNS, interruptAfterTimeLimit: TOTAL_BUDGET_MS, markInterruptAsFailure: false },
  );
  // The generator reaches both outcomes: conversions that succeed and typed refusals.
  assert.ok(converted > 0, "some conversions succeed");
  assert.ok(refused > 0, "some schemas are refused with a typed error");
  assert.ok(performance.now() - started < TOTAL_BUDGET_MS + 5000);
});
