// Fuzz: random schemas (2020-12 and draft-07 keywords, $refs to existing and
// missing definitions, cycles, hostile and invalid patterns, wrong keyword
// types) and random instances through compile/check/validateInput. Only typed
// ToolFoundationError subclasses may come out, and no case may take long.

import assert from "node:assert/strict";
import fc from "fast-check";
import { checkSchemaStructure, DefaultValidator, ToolFoundationError } from "../../model/mod.ts";

const PATTERNS = [
  "^(a+)+$",
  "^(a|aa)+$",
  "(\\w+)\\1",
  "^(\\d)\\1$",
  "(",
  "^(?=.*\\d).+$",
  "(?=a)",
  "(?<=a)b",
  "\\p{L}",
  "^[\\s\\S]{0,4000}$",
  "a{2,1}",
  "(?i:a)",
  "^.*$",
];
const REFS = [
  "#",
  "#/$defs/d0",
  "#/$defs/d1",
  "#/$defs/d2",
  "#/$defs/missing",
  "#/definitions/d0",
  "#/definitions/d1",
  "#a0",
  "#/properties/p0",
  "#/allOf/0",
  "https://example.com/remote.json",
  "other.json#/x",
  "#/%%",
  "#/$defs/d0/allOf/0",
];
const DIALECTS = [
  undefined,
  undefined,
  "https://json-schema.org/draft/2020-12/schema",
  "http://json-schema.org/draft-07/schema#",
  "http://json-schema.org/draft-07/schema",
  "https://example.com/unknown",
];

const scalar = fc.oneof(
  fc.integer({ min: -5, max: 5 }),
  fc.constantFrom("a", "", "aaaa", null, true, false, 1.5, -0),
);
const anything: fc.Arbitrary<unknown> = fc.oneof(
  scalar,
  fc.constant([]),
  fc.constant({}),
  fc.array(scalar, { maxLength: 3 }),
);

const schema: fc.Arbitrary<unknown> = fc.letrec<{ s: unknown }>((tie) => {
  const sub = tie("s");
  const map = (keys: string[]) =>
    fc.dictionary(fc.constantFrom(...keys), sub, { maxKeys: 2 }) as fc.Arbitrary<unknown>;
  const keyword = fc.oneof(
    fc.tuple(
      fc.constant("type"),
      fc.constantFrom("string", "object", "array", "integer", ["string", "null"], "bogus", 3),
    ),
    fc.tuple(fc.constant("properties"), map(["p0", "p1", "__proto__", "constructor"])),
    fc.tuple(fc.constant("required"), fc.constantFrom(["p0"], ["p1", "p0"], "p0", [1])),
    fc.tuple(fc.constant("additionalProperties"), sub),
    fc.tuple(fc.constant("unevaluatedProperties"), sub),
    fc.tuple(fc.constant("items"), fc.oneof(sub, fc.array(sub, { maxLength: 2 }))),
    fc.tuple(fc.constant("prefixItems"), fc.array(sub, { maxLength: 2 })),
    fc.tuple(fc.constant("additionalItems"), sub),
    fc.tuple(fc.constantFrom("allOf", "anyOf", "oneOf"), fc.array(sub, { maxLength: 3 })),
    fc.tuple(fc.constantFrom("not", "if", "then", "else", "contains", "propertyNames"), sub),
    fc.tuple(fc.constantFrom("dependentSchemas", "dependencies"), map(["p0", "p1"])),
    fc.tuple(fc.constantFrom("$ref", "$dynamicRef"), fc.constantFrom(...REFS)),
    fc.tuple(fc.constantFrom("$defs", "definitions"), map(["d0", "d1", "d2"])),
    fc.tuple(
      fc.constantFrom("$anchor", "$dynamicAnchor"),
      fc.constantFrom("a0", "a1", "bad anchor"),
    ),
    fc.tuple(
      fc.constant("$id"),
      fc.constantFrom("sub.json", "#frag", "https://example.com/x", "::"),
    ),
    fc.tuple(fc.constant("pattern"), fc.constantFrom(...PATTERNS)),
    fc.tuple(
      fc.constant("patternProperties"),
      fc.dictionary(fc.constantFrom(...PATTERNS), sub, { maxKeys: 2 }),
    ),
    fc.tuple(fc.constantFrom("enum", "const", "default", "examples"), anything),
    fc.tuple(
      fc.constantFrom(
        "minimum",
        "maxLength",
        "minItems",
        "multipleOf",
        "minContains",
        "maxProperties",
      ),
      fc.constantFrom(0, 1, 2, -1, 0.5, "x"),
    ),
    fc.tuple(
      fc.constant("format"),
      fc.constantFrom("regex", "email", "date-time", "unknown-format"),
    ),
    fc.tuple(fc.constantFrom("x-extra", "unknownKeyword"), anything),
  );
  return {
    s: fc.oneof(
      { depthSize: "small", maxDepth: 6 },
      fc.boolean(),
      fc.array(keyword, { maxLength: 4 }).map((pairs) => Object.fromEntries(pairs)),
    ),
  };
}).s;

const root = fc.tuple(schema, fc.constantFrom(...DIALECTS)).map(([s, dialect]) =>
  typeof s === "object" && s !== null && dialect !== undefined ? { $schema: dialect, ...s } : s
);

const instance: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 4 }),
  fc.constantFrom("a".repeat(30) + "!", { p0: "a".repeat(30) + "!" }, {
    ["a".repeat(30) + "!"]: 1,
  }),
  fc.dictionary(fc.constantFrom("p0", "p1", "aaaa", "__proto__"), fc.jsonValue({ maxDepth: 2 })),
);

/** Generous: a linear case takes milliseconds; an exponential one, seconds to hours. */
const BUDGET_MS = 2_000;

function typed(error: unknown, what: string): void {
  assert.ok(
    error instanceof ToolFoundationError,
    `${what} threw a raw ${(error as Error)?.constructor?.name}: ${(error as Error)?.message}`,
  );
}

Deno.test("random schemas and instances: only typed errors, each case within budget", async () => {
  let compiled = 0;
  await fc.assert(
    fc.asyncProperty(
      root,
      fc.array(instance, { minLength: 1, maxLength: 3 }),
      async (s, values) => {
        const validator = new DefaultValidator();
        const start = performance.now();
        try {
          checkSchemaStructure(s);
        } catch (error) {
          typed(error, "checkSchemaStructure");
        }
        let check: ((v: unknown) => unknown) | undefined;
        try {
          const c = await validator.compile(s as never);
          check = (v) => c.check(v);
          compiled++;
        } catch (error) {
          typed(error, `compile ${JSON.stringify(s)}`);
        }
        for (const value of values) {
          if (check !== undefined) {
            try {
              check(value);
            } catch (error) {
              typed(error, `check ${JSON.stringify(s)} ${JSON.stringify(value)}`);
            }
          }
          const tool = { name: "fuzz", inputSchema: s as never };
          await validator.validateInput(tool, value).catch((error) =>
            typed(error, `validateInput ${JSON.stringify(s)}`)
          );
        }
        const ms = performance.now() - start;
        assert.ok(ms < BUDGET_MS, `${ms.toFixed(0)} ms for ${JSON.stringify(s)}`);
      },
    ),
    { numRuns: 300 },
  );
  // The generator must reach the evaluation, not only compile errors.
  assert.ok(compiled > 30, `only ${compiled} schemas compiled`);
});
