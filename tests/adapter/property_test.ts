// Property-based tests (fast-check): conversions never throw on valid tools,
// are deterministic, and where no warning says `narrows`, every instance valid
// under the source schema is valid under the converted one (after the strict
// normalizer's inverse), checked with DefaultValidator.

import assert from "node:assert/strict";
import fc from "fast-check";
import {
  type ConvertOptions,
  defaultRegistry,
  geminiAdapter,
  preflight,
} from "../../adapter/mod.ts";
import { DefaultValidator, type Tool, validateTool } from "../../model/mod.ts";

type S = Record<string, unknown>;
const NUM_RUNS = Number(Deno.env.get("PROPERTY_RUNS") ?? 60);
const registry = defaultRegistry();
const validator = new DefaultValidator();

const TARGETS: { name: string; to: string; options?: ConvertOptions }[] = [
  { name: "mcp", to: "mcp" },
  { name: "openai strict", to: "openai", options: { strict: true } },
  { name: "openai auto", to: "openai", options: { strict: "auto" } },
  { name: "openai-responses strict", to: "openai-responses", options: { strict: true } },
  { name: "anthropic", to: "anthropic" },
  { name: "anthropic strict", to: "anthropic", options: { strict: true } },
  { name: "gemini parameters", to: "gemini" },
  {
    name: "gemini parametersJsonSchema",
    to: "gemini",
    options: { geminiSchema: "parametersJsonSchema" },
  },
];

const word = fc.constantFrom("a", "b", "c", "x", "y");

const leaf: fc.Arbitrary<S> = fc.oneof(
  fc.record({
    type: fc.constant("string"),
    minLength: fc.integer({ min: 0, max: 3 }),
    maxLength: fc.integer({ min: 3, max: 8 }),
    format: fc.constantFrom("email", "uri", "date-time"),
    default: fc.constant("d"),
  }, { requiredKeys: ["type"] }),
  fc.record({
    type: fc.constantFrom("integer", "number"),
    minimum: fc.integer({ min: -5, max: 0 }),
    maximum: fc.integer({ min: 1, max: 50 }),
    exclusiveMinimum: fc.integer({ min: -10, max: -6 }),
  }, { requiredKeys: ["type"] }),
  fc.constant({ type: "boolean" }),
  fc.constant({ type: ["string", "null"] }),
  fc.record({
    enum: fc.uniqueArray(fc.oneof(word, fc.integer({ min: 0, max: 3 }), fc.constant(null)), {
      minLength: 1,
      maxLength: 4,
    }),
  }),
  fc.record({ const: fc.oneof(word, fc.integer({ min: 0, max: 3 }), fc.constant(null)) }),
  fc.record({
    type: fc.constant("string"),
    enum: fc.uniqueArray(word, { minLength: 1, maxLength: 3 }),
  }),
  fc.constant({ $ref: "#/$defs/item" }),
  fc.constant({}),
);

const { schema } = fc.letrec<{ schema: S; object: S }>((tie) => ({
  schema: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    leaf,
    tie("object"),
    fc.record({
      type: fc.constant("array"),
      items: tie("schema"),
      minItems: fc.integer({ min: 0, max: 2 }),
      maxItems: fc.integer({ min: 2, max: 4 }),
      uniqueItems: fc.boolean(),
    }, { requiredKeys: ["type", "items"] }),
    fc.record({ anyOf: fc.array(tie("schema"), { minLength: 1, maxLength: 3 }) }),
    fc.record({ oneOf: fc.array(tie("schema"), { minLength: 1, maxLength: 3 }) }),
  ),
  object: fc.record({
    properties: fc.dictionary(fc.constantFrom("p", "q", "r", "s"), tie("schema"), { maxKeys: 3 }),
    closed: fc.constantFrom("closed", "open", "map"),
    req: fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }),
  }).map(({ properties, closed, req }) => {
    const out: S = { type: "object", properties };
    const names = Object.keys(properties).filter((_, i) => req[i]);
    if (names.length > 0) out.required = names;
    if (closed === "closed") out.additionalProperties = false;
    if (closed === "map") out.additionalProperties = { type: "string" };
    return out;
  }),
}));

const toolArb: fc.Arbitrary<Tool> = fc.record({
  properties: fc.dictionary(fc.constantFrom("a", "b", "c", "d", "e"), schema, {
    minKeys: 1,
    maxKeys: 4,
  }),
  req: fc.array(fc.boolean(), { minLength: 5, maxLength: 5 }),
  closed: fc.boolean(),
  item: leaf.filter((s) => s.$ref === undefined),
}).map(({ properties, req, closed, item }) => {
  const inputSchema: S = { type: "object", properties };
  const names = Object.keys(properties).filter((_, i) => req[i]);
  if (names.length > 0) inputSchema.required = names;
  if (closed) inputSchema.additionalProperties = false;
  inputSchema.$defs = { item };
  return { name: "prop_tool", namespace: "test", inputSchema } as Tool;
});

function resolve(s: unknown, root: S): S {
  if (typeof s !== "object" || s === null) return {};
  const o = s as S;
  if (o.$ref === "#/$defs/item") return (root.$defs as S).item as S;
  return o;
}

/** Instances that are often (not always) valid under the schema. */
function instanceArb(s: unknown, root: S, depth = 0): fc.Arbitrary<unknown> {
  const o = resolve(s, root);
  if (depth > 6) return fc.constant(null);
  if (Array.isArray(o.enum)) return fc.constantFrom(...o.enum);
  if (Object.hasOwn(o, "const")) return fc.constant(o.const);
  if (Array.isArray(o.anyOf)) {
    return fc.oneof(...o.anyOf.map((b) => instanceArb(b, root, depth + 1)));
  }
  if (Array.isArray(o.oneOf)) {
    return fc.oneof(...o.oneOf.map((b) => instanceArb(b, root, depth + 1)));
  }
  const type = Array.isArray(o.type) ? o.type[0] : o.type;
  switch (type) {
    case "string":
      return fc.string({
        minLength: (o.minLength as number) ?? 0,
        maxLength: (o.maxLength as number) ?? 6,
      });
    case "integer":
      return fc.integer({ min: (o.minimum as number) ?? -20, max: (o.maximum as number) ?? 20 });
    case "number":
      return fc.oneof(
        fc.integer({ min: -20, max: 20 }),
        fc.double({ min: -20, max: 20, noNaN: true }),
      );
    case "boolean":
      return fc.boolean();
    case "array":
      return fc.array(instanceArb(o.items, root, depth + 1), {
        minLength: (o.minItems as number) ?? 0,
        maxLength: (o.maxItems as number) ?? 3,
      });
    case "object": {
      const props = (o.properties ?? {}) as S;
      const shape: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [k, v] of Object.entries(props)) shape[k] = instanceArb(v, root, depth + 1);
      const required = (o.required ?? []) as string[];
      const extra = o.additionalProperties === false
        ? fc.constant({})
        : fc.dictionary(fc.constantFrom("z1", "z2"), fc.string({ maxLength: 3 }), { maxKeys: 1 });
      return fc.tuple(fc.record(shape, { requiredKeys: required }), extra).map(([a, b]) => ({
        ...b,
        ...a,
      }));
    }
    default:
      return fc.jsonValue({ maxDepth: 1 });
  }
}

function convertedSchema(to: string, tool: unknown): S {
  const t = tool as S;
  switch (to) {
    case "mcp":
      return t.inputSchema as S;
    case "openai":
      return (t.function as S).parameters as S;
    case "openai-responses":
      return t.parameters as S;
    case "anthropic":
      return t.input_schema as S;
    default:
      return t.parametersJsonSchema !== undefined
        ? t.parametersJsonSchema as S
        : geminiAdapter.toCanonical(t).tool.inputSchema;
  }
}

Deno.test("property: conversions never throw on valid tools, are deterministic and pass preflight", () => {
  fc.assert(
    fc.property(toolArb, (tool) => {
      validateTool(tool);
      for (const target of TARGETS) {
        const a = registry.convert(tool, "mcp", target.to, target.options);
        const b = registry.convert(structuredClone(tool), "mcp", target.to, target.options);
        assert.equal(JSON.stringify(a.tool), JSON.stringify(b.tool), target.name);
        assert.deepEqual(a.warnings, b.warnings, target.name);
        // request-wide budgets are the caller's to keep; a single tool may exceed them.
        const problems = preflight([a.tool], target.to).filter((p) => p.code !== "budget_exceeded");
        assert.deepEqual(problems, [], target.name);
        registry.convert(a.tool, target.to, "mcp");
      }
    }),
    { numRuns: NUM_RUNS * 2 },
  );
});

Deno.test("property: without a narrowing warning, every source-valid input stays valid after conversion", async () => {
  let checked = 0;
  await fc.assert(
    fc.asyncProperty(
      toolArb.chain((tool) =>
        fc.tuple(
          fc.constant(tool),
          fc.array(instanceArb(tool.inputSchema, tool.inputSchema as S), {
            minLength: 1,
            maxLength: 4,
          }),
        )
      ),
      async ([tool, instances]) => {
        const source = await validator.compile(tool.inputSchema);
        const valid = instances.filter((i) => source.check(i).valid);
        if (valid.length === 0) return;
        for (const target of TARGETS) {
          const out = registry.convert(tool, "mcp", target.to, target.options);
          if (out.warnings.some((w) => w.effect === "narrows")) continue;
          const compiled = await validator.compile(convertedSchema(target.to, out.tool));
          for (const instance of valid) {
            const provider = out.normalizer.denormalize(instance);
            const result = compiled.check(provider);
            assert.ok(
              result.valid,
              `${target.name}: ${JSON.stringify(instance)} as ${
                JSON.stringify(provider)
              } rejected by ${JSON.stringify(convertedSchema(target.to, out.tool))}: ${
                JSON.stringify(result)
              }`,
            );
            assert.deepEqual(out.normalizer.normalize(provider), instance, target.name);
            checked++;
          }
        }
      },
    ),
    { numRuns: NUM_RUNS },
  );
  assert.ok(checked > 0);
  if (Deno.env.get("PROPERTY_DEBUG")) console.log(`checked ${checked} instance conversions`);
});
