// Property tests: on randomly generated schema/instance pairs (2020-12 and
// draft-07), the fast path's answer equals Hyperjump's (DefaultValidator with
// `fastPath: false`), its failures of an invalid value equal those from
// Hyperjump's DETAILED output (same records, same order), and a validator
// with the fast path on gives the same result, failures included, as one with
// it off.
import assert from "node:assert/strict";
import fc from "fast-check";
import { DefaultValidator } from "../../model/mod.ts";
import { planFastPath } from "../../model/_fast/mod.ts";
import { loadRegexEngine } from "../../model/_regex.ts";
import { analyzeSchemaStructure } from "../../model/schema_structure.ts";

// Patterns compile synchronously here: load the engine first.
await loadRegexEngine();

/** What `task` returns, or the name and message of what it throws. */
function outcome(task: () => unknown): unknown {
  try {
    return task();
  } catch (error) {
    return `threw ${(error as Error)?.name}: ${(error as Error)?.message}`;
  }
}

const DIALECTS = {
  "2020-12": "https://json-schema.org/draft/2020-12/schema",
  "draft-07": "http://json-schema.org/draft-07/schema#",
} as const;

const names = fc.oneof(
  fc.constantFrom("a", "b"),
  fc.constantFrom("a", "b", "c", "__proto__", "toString", "x y", "é"),
);
const json: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.constantFrom(
      null,
      true,
      false,
      0,
      -0,
      1,
      1.5,
      2,
      -3,
      10,
      0.1,
      1e21,
      "",
      "a",
      "ab",
      "😀😀",
      "abc1",
    ),
    fc.string({ maxLength: 4 }),
    fc.integer({ min: -5, max: 12 }),
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(fc.oneof(fc.constantFrom("a", "b"), names), tie("value"), { maxKeys: 4 }),
  ),
})).value;

const patternSource = fc.constantFrom("^a", "b$", "^[a-c]+$", "\\d", "^.{2}$", "é", "^\\p{L}+$");

/** Random schemas over the keywords the fast path handles (and some it refuses). */
function schemaArbitrary(draft07: boolean): fc.Arbitrary<unknown> {
  return fc.letrec((tie) => {
    const sub = tie("schema");
    const keyword = fc.oneof(
      fc.record({
        type: fc.oneof(
          fc.constantFrom("null", "boolean", "object", "array", "number", "string", "integer"),
          fc.uniqueArray(fc.constantFrom("null", "string", "integer", "object", "array"), {
            minLength: 1,
            maxLength: 3,
          }),
        ),
      }),
      fc.record({ enum: fc.array(json, { minLength: 1, maxLength: 4 }) }),
      fc.record({ const: json }),
      fc.record({ minimum: fc.integer({ min: -3, max: 5 }) }),
      fc.record({ maximum: fc.integer({ min: -3, max: 5 }) }),
      fc.record({ exclusiveMinimum: fc.integer({ min: -3, max: 5 }) }),
      fc.record({ exclusiveMaximum: fc.double({ min: -3, max: 5, noNaN: true }) }),
      fc.record({ multipleOf: fc.constantFrom(1, 2, 0.5, 0.1, 0.01, 3) }),
      fc.record({ minLength: fc.integer({ min: 0, max: 4 }) }),
      fc.record({ maxLength: fc.integer({ min: 0, max: 4 }) }),
      fc.record({ pattern: patternSource }),
      fc.record({ format: fc.constantFrom("email", "date", "uri") }),
      fc.record({ properties: fc.dictionary(names, sub, { maxKeys: 3 }) }),
      fc.record({ required: fc.uniqueArray(names, { maxLength: 3 }) }),
      fc.record({ additionalProperties: sub }),
      fc.record({ patternProperties: fc.dictionary(patternSource, sub, { maxKeys: 2 }) }),
      fc.record({
        properties: fc.dictionary(names, sub, { minKeys: 1, maxKeys: 3 }),
        patternProperties: fc.dictionary(patternSource, sub, { maxKeys: 2 }),
        additionalProperties: fc.oneof(fc.boolean(), sub),
      }, { requiredKeys: ["properties", "additionalProperties"] }),
      fc.record({ propertyNames: sub }),
      fc.record({ minProperties: fc.integer({ min: 0, max: 3 }) }),
      fc.record({ maxProperties: fc.integer({ min: 0, max: 3 }) }),
      fc.record({ items: sub }),
      draft07
        ? fc.record({ items: fc.array(sub, { maxLength: 3 }), additionalItems: sub })
        : fc.record({ prefixItems: fc.array(sub, { maxLength: 3 }) }),
      fc.record({ minItems: fc.integer({ min: 0, max: 3 }) }),
      fc.record({ maxItems: fc.integer({ min: 0, max: 3 }) }),
      fc.record({ uniqueItems: fc.boolean() }),
      fc.record({ contains: sub }),
      fc.record({ contains: sub, minContains: fc.nat(2), maxContains: fc.nat(3) }),
      fc.record({ allOf: fc.array(sub, { minLength: 1, maxLength: 3 }) }),
      fc.record({ anyOf: fc.array(sub, { minLength: 1, maxLength: 3 }) }),
      fc.record({ oneOf: fc.array(sub, { minLength: 1, maxLength: 3 }) }),
      fc.record({ not: sub }),
      fc.record({ if: sub, then: sub, else: sub }, { requiredKeys: ["if"] }),
      draft07
        ? fc.record({
          dependencies: fc.dictionary(
            names,
            fc.oneof(sub, fc.uniqueArray(names, { maxLength: 2 })),
            { maxKeys: 2 },
          ),
        })
        : fc.record({
          dependentRequired: fc.dictionary(names, fc.uniqueArray(names, { maxLength: 2 }), {
            maxKeys: 2,
          }),
          dependentSchemas: fc.dictionary(names, sub, { maxKeys: 2 }),
        }),
      fc.record({ $ref: fc.constantFrom("#", "#/$defs/node", "#/definitions/leaf") }),
      fc.record({ unevaluatedProperties: sub }),
      fc.record({ title: fc.string(), description: fc.string(), default: json }),
    );
    return {
      schema: fc.oneof(
        { depthSize: "small", withCrossShrink: true },
        fc.boolean(),
        fc.array(keyword, { maxLength: 3 }).map((parts) => Object.assign({}, ...parts)),
      ),
    };
  }).schema;
}

function documentArbitrary(draft07: boolean): fc.Arbitrary<Record<string, unknown>> {
  return fc.record({ root: schemaArbitrary(draft07), node: schemaArbitrary(draft07) }).map((
    { root, node },
  ) => ({
    $schema: draft07 ? DIALECTS["draft-07"] : DIALECTS["2020-12"],
    ...(typeof root === "object" ? root as Record<string, unknown> : { not: { const: root } }),
    // Recursion through the value only (a `$ref` cycle in place is refused by the structure check).
    $defs: { node: { properties: { a: { $ref: "#/$defs/node" } }, items: node } },
    definitions: { leaf: node },
  }));
}

for (const dialect of ["2020-12", "draft-07"] as const) {
  Deno.test(`random ${dialect} schemas: the fast path answers as Hyperjump does`, async () => {
    const fast = new DefaultValidator({ cacheSize: 5000 });
    const reference = new DefaultValidator({ cacheSize: 5000, fastPath: false });
    let answered = 0;
    let compared = 0;
    let hidden = 0;
    await fc.assert(
      fc.asyncProperty(
        documentArbitrary(dialect === "draft-07"),
        fc.array(json, { minLength: 1, maxLength: 6 }),
        async (schema, instances) => {
          let expected;
          try {
            expected = await reference.compile(schema);
          } catch {
            return; // not a schema Hyperjump compiles (e.g. a $ref cycle in place)
          }
          const compiled = await fast.compile(schema);
          const plan = planFastPath(schema, {
            dialect: expected.dialect,
            formatAssertion: false,
            fansOut: analyzeSchemaStructure(schema).fansOut,
          });
          // Values shaped by the schema too: objects with its own property names.
          const values = [...instances]; // never mutate what fast-check generated (it reuses it)
          const named = Object.keys((schema.properties ?? {}) as object);
          if (named.length > 0) {
            for (const pick of [0, 1]) {
              values.push(Object.fromEntries(
                named.slice(pick).map((name, i) => [name, instances[i % instances.length]]),
              ));
            }
          }
          for (const instance of values) {
            const truth = expected.check(instance);
            const answer = plan.check?.(instance);
            if (answer !== undefined) {
              answered++;
              assert.equal(
                answer,
                truth.valid,
                `${JSON.stringify(schema)} on ${JSON.stringify(instance)}`,
              );
            }
            if (answer === false && plan.failures !== undefined) {
              compared++;
              assert.deepEqual(
                outcome(() => plan.failures!(instance)),
                outcome(() => (truth as { failures: unknown }).failures),
                `${JSON.stringify(schema)} on ${JSON.stringify(instance)}`,
              );
            }
            const result = compiled.check(instance);
            assert.equal(result.valid, truth.valid);
            if (!result.valid && !truth.valid) assert.deepEqual(result.failures, truth.failures);
          }
          // An object with its first member made non-enumerable: still a member (model/_json.ts),
          // on every path.
          for (const value of values) {
            if (typeof value !== "object" || value === null || Array.isArray(value)) continue;
            const copy = { ...value } as Record<string, unknown>;
            const [first] = Object.keys(copy);
            if (first === undefined) continue;
            Object.defineProperty(copy, first, { enumerable: false });
            const truth = expected.check(copy);
            const result = compiled.check(copy);
            const shown = `${JSON.stringify(schema)} on ${JSON.stringify(value)}, ${first} hidden`;
            assert.equal(result.valid, truth.valid, shown);
            if (!result.valid && !truth.valid) {
              assert.deepEqual(result.failures, truth.failures, shown);
            }
            hidden++;
          }
        },
      ),
      { numRuns: 300 },
    );
    assert.ok(answered > 300, `the fast path answered only ${answered} cases`);
    assert.ok(compared > 30, `the fast failures were compared on only ${compared} cases`);
    assert.ok(hidden > 100, `values with a hidden member were compared on only ${hidden} cases`);
  });
}
