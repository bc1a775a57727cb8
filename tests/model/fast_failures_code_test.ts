// The failures' generated code (model/_fast/_detailed_code.ts) against the
// units it replaces (toFailures of the DETAILED units, _detailed.ts): the same
// failures, record for record and in order, or the same throw, on every JSON
// Schema Test Suite case (2020-12 and draft-07, valid and invalid data) and on
// every real MCP tool schema of the bench corpus with values derived from it;
// and the cases where the code must throw as the units do.
import assert from "node:assert/strict";
import { isDeepStrictEqual } from "node:util";
import { type CompiledDetailed, compileDetailed } from "../../model/_fast/_detailed.ts";
import { FastPathBail, MAX_REF_NESTING } from "../../model/_fast/_compile.ts";
import { planFastPath } from "../../model/_fast/mod.ts";
import { toFailures } from "../../model/_messages.ts";
import { ROOT_URI } from "../../model/_dialect.ts";
import { loadRegexEngine } from "../../model/_regex.ts";
import { analyzeSchemaStructure } from "../../model/schema_structure.ts";
import { corpus } from "../../bench/_validator_corpus.ts";
import { suiteDir } from "../conformance/_suite_dir.ts";

await loadRegexEngine();

const D2020 = "https://json-schema.org/draft/2020-12/schema";
const D07 = "http://json-schema.org/draft-07/schema#";
const SUITE = suiteDir();

/** What `task` returns, or the name and message of what it throws. */
function outcome(task: () => unknown): unknown {
  try {
    return task();
  } catch (error) {
    return `threw ${(error as Error)?.name}: ${(error as Error)?.message}`;
  }
}

/** The compiled DETAILED evaluation of a schema the fast path gives failures, else undefined. */
function detailed(schema: unknown, dialect: string): CompiledDetailed | undefined {
  const fansOut = analyzeSchemaStructure(schema).fansOut;
  const normal = dialect.replace(/#$/, "");
  const plan = planFastPath(schema, { dialect: normal, formatAssertion: false, fansOut });
  if (plan.failures === undefined) return undefined;
  const short = dialect === D2020 ? "2020-12" : "draft-07";
  return compileDetailed(schema as never, short, ROOT_URI, fansOut);
}

/** Compares the generated failures with the units' on each value; returns how many. */
function compare(d: CompiledDetailed, values: unknown[], where: string): number {
  const code = d.generated();
  assert.ok(code !== undefined, `${where}: no generated code`);
  let compared = 0;
  for (const value of values) {
    const units = outcome(() => toFailures(d.units(value), value, d.lookup, ROOT_URI));
    const generated = outcome(() => d.failures(value));
    if (!isDeepStrictEqual(generated, units)) {
      assert.fail(
        `${where} on ${JSON.stringify(value)}:\n${JSON.stringify(generated)}\n${
          JSON.stringify(units)
        }`,
      );
    }
    compared++;
  }
  return compared;
}

/** Values derived from one: itself and, for an object, each member broken or removed. */
function variants(value: unknown): unknown[] {
  const out = [value, null, 7, 1.5, "text", true, [], [1, "a"], {}, { "a/b~c": [null] }];
  if (typeof value === "object" && value !== null && !Array.isArray(value)) {
    out.push({ ...value, "zz extra/~": 1 });
    for (const key of Object.keys(value)) {
      for (const wrong of [null, 12345.5, "x", [], { "y z": [1] }, true]) {
        out.push({ ...value, [key]: wrong });
      }
      const { [key]: _, ...rest } = value as Record<string, unknown>;
      out.push(rest);
    }
  }
  return out;
}

interface Group {
  description: string;
  schema: unknown;
  tests: { data: unknown }[];
}

Deno.test("the JSON Schema Test Suite: the generated failures are the units', case by case", async () => {
  let schemas = 0, compared = 0;
  for (const [name, dialect] of [["draft2020-12", D2020], ["draft7", D07]] as const) {
    const dir = `${SUITE}/tests/${name}`;
    for await (const entry of Deno.readDir(dir)) {
      if (!entry.isFile || !entry.name.endsWith(".json")) continue;
      const groups = JSON.parse(await Deno.readTextFile(`${dir}/${entry.name}`)) as Group[];
      for (const group of groups) {
        const schema = typeof group.schema === "object" && group.schema !== null &&
            !("$schema" in group.schema)
          ? { $schema: dialect, ...group.schema }
          : group.schema;
        const d = detailed(schema, dialect);
        if (d === undefined) continue;
        schemas++;
        const values = [...group.tests.map((t) => t.data), ...variants(group.tests[0]?.data)];
        compared += compare(d, values, `${name}/${entry.name} | ${group.description}`);
      }
    }
  }
  assert.ok(schemas > 400, `only ${schemas} schemas`);
  assert.ok(compared > 5_000, `only ${compared} values compared`);
});

Deno.test("real MCP tool schemas: the generated failures are the units', value by value", async () => {
  const { real, seeds } = await corpus();
  let schemas = 0, compared = 0;
  for (const c of [...seeds, ...real]) {
    const s = c.schema as Record<string, unknown>;
    const dialect = /draft-07/.test(String(s.$schema ?? "")) ? D07 : D2020;
    const d = detailed(c.schema, dialect);
    if (d === undefined) continue;
    schemas++;
    compared += compare(d, [...variants(c.valid), ...variants(c.invalid)], c.name);
  }
  assert.ok(schemas > 1000, `only ${schemas} schemas`);
  assert.ok(compared > 30_000, `only ${compared} values compared`);
});

Deno.test("the generated failures: branches, property names, extra members, dependencies", () => {
  const cases: [unknown, string, unknown[]][] = [
    [
      {
        anyOf: [{ type: "string" }, { minimum: 3 }, false, { $ref: "#/$defs/n" }],
        $defs: { n: { type: "null" } },
      },
      D2020,
      [1, 5, "a", null, { a: 1 }],
    ],
    [{ oneOf: [{ type: "integer" }, { minimum: 3 }, true] }, D2020, [1, 5, "a", 2.5]],
    [{ anyOf: [] }, D2020, [1]],
    [
      {
        oneOf: [{ $ref: "#/definitions/a" }, { type: "string" }],
        definitions: { a: { type: "integer" } },
      },
      D07,
      [1, 1.5, "x"],
    ],
    [
      { propertyNames: { anyOf: [{ pattern: "^a" }, { maxLength: 2 }], not: { const: "zzz" } } },
      D2020,
      [{ abc: 1, bcd: 2, zzz: 3, b: 4 }],
    ],
    [
      {
        properties: { a: { type: "string" } },
        patternProperties: { "^x": { type: "integer" } },
        additionalProperties: false,
      },
      D2020,
      [{ a: 1, x1: "s", y: 2, "y/~": 3 }],
    ],
    [{ properties: { a: true, b: { type: "string" } }, additionalProperties: false }, D2020, [
      { a: 1, c: 2 },
      { a: 1, b: 1 },
      { c: 1, "c/~": 2 },
    ]],
    [{ additionalProperties: { $ref: "#/definitions/f" }, definitions: { f: false } }, D07, [{
      a: 1,
    }]],
    [{ items: [{ type: "string" }], additionalItems: false }, D07, [["a", 1, 2], [1]]],
    [{ dependencies: { a: ["b", "c"], d: { required: ["e"] } } }, D07, [{ a: 1 }, { a: 1, d: 2 }, {
      d: 1,
    }]],
    [{ dependentRequired: { a: ["b"] }, dependentSchemas: { c: { maxProperties: 1 } } }, D2020, [{
      a: 1,
      c: 2,
    }]],
    [
      {
        if: { type: "string" },
        then: { minLength: 3 },
        else: { type: "integer" },
        not: { const: "abcd" },
      },
      D2020,
      ["a", "abcd", 1.5, 2],
    ],
    [{ contains: { type: "string" }, minContains: 2, maxContains: 3, uniqueItems: true }, D2020, [
      [1, "a"],
      ["a", "a"],
      ["a", "b", "c", "d"],
    ]],
    [{ required: ["a", "b"], minProperties: 3, type: ["object", "array"] }, D2020, [
      {},
      { a: 1 },
      "x",
      1,
    ]],
  ];
  for (const [schema, dialect, values] of cases) {
    const d = detailed({ $schema: dialect, ...(schema as object) }, dialect);
    assert.ok(d !== undefined, JSON.stringify(schema));
    compare(d, values, JSON.stringify(schema));
    // Each case fails somewhere: the comparison is of failures, not of empty lists.
    assert.ok(values.some((v) => d.failures(v).length > 0), JSON.stringify(schema));
  }
});

Deno.test("the generated failures of branches read after read: each message made of this read's failures", () => {
  // A branches failure's message is reused while its branches' failures are
  // the same as the last read's: values whose branch failures differ only in
  // their messages, or only in their places, alternate here.
  const schema = {
    $schema: D2020,
    properties: {
      v: { anyOf: [{ type: "string" }, { type: "null" }] },
      w: { oneOf: [{ type: "integer" }, { type: "integer", multipleOf: 2 }] },
    },
  };
  const d = detailed(schema, D2020);
  assert.ok(d !== undefined);
  const values = [
    { v: 1, w: 1.5 },
    { v: true, w: "x" },
    { v: 1, w: 1.5 },
    { v: "long", w: 4 },
    { v: [], w: 4 },
    { v: 0.5, w: 3 },
    { v: 1, w: 1.5 },
  ];
  for (let round = 0; round < 2; round++) compare(d, values, "alternating values");
  const messages = values.map((v) => d.failures(v).map((f) => f.message).join(" | "));
  assert.equal(new Set(messages).size, 5, messages.join("\n"));
  assert.equal(messages[2], messages[0]);
  // The same failures, split differently between the branches.
  const split = detailed({
    $schema: D2020,
    anyOf: [
      { type: "integer", if: { minimum: 0 }, then: { type: "integer" } },
      { type: "integer", if: { maximum: 0 }, then: { type: "integer" } },
      { type: "integer" },
    ],
  }, D2020);
  assert.ok(split !== undefined);
  compare(split, [1.5, -1.5, 1.5, -1.5], "the same failures in other branches");
  assert.notEqual(split.failures(1.5)[0].message, split.failures(-1.5)[0].message);
});

Deno.test("the generated failures throw where the units throw: a lone surrogate, a bail", () => {
  // A member name with a lone surrogate: its location cannot be URI-encoded.
  const named = detailed({ additionalProperties: { type: "string" } }, D2020)!;
  const bad = { "\ud800": 1 };
  assert.throws(() => named.failures(bad), URIError);
  assert.throws(() => named.units(bad), URIError);
  // Even in a branch that another one makes pass.
  const branch = detailed({ anyOf: [{ additionalProperties: { type: "string" } }, true] }, D2020)!;
  assert.throws(() => branch.failures({ "\udc00": 1 }), URIError);
  assert.throws(() => branch.units({ "\udc00": 1 }), URIError);
  assert.deepEqual(branch.failures({ a: 1 }), []);
  // A stray member so named (its false subschema is not called: the name is checked),
  // or in an object so named.
  const closed = detailed({ properties: { o: { additionalProperties: false } } }, D2020)!;
  assert.ok(closed.generated() !== undefined);
  for (const value of [{ o: { "\ud800": 1 } }, { o: { a: 1, "\udc00": 2 } }]) {
    assert.throws(() => closed.failures(value), URIError);
    assert.throws(() => closed.units(value), URIError);
  }
  const within = detailed({ additionalProperties: { additionalProperties: false } }, D2020)!;
  assert.ok(within.generated() !== undefined);
  assert.throws(() => within.failures({ "\udc00": { a: 1 } }), URIError);
  assert.throws(() => within.units({ "\udc00": { a: 1 } }), URIError);
  assert.equal(within.failures({ "\udc00": {} }).length, 0);
  // A `$ref` cycle nested beyond MAX_REF_NESTING (without the budget the
  // validator gives such schemas): both bail.
  const cycle = compileDetailed({ properties: { a: { $ref: "#" } } }, "2020-12", ROOT_URI);
  assert.ok(cycle.generated() !== undefined);
  let deep: unknown = 1;
  for (let i = 0; i <= MAX_REF_NESTING; i++) deep = { a: deep };
  assert.throws(() => cycle.failures(deep), FastPathBail);
  assert.throws(() => cycle.units(deep), FastPathBail);
  // References that fan out: both count the evaluations against Hyperjump's
  // budget, and bail beyond it, on the same values.
  const fans = detailed({
    type: ["array", "object"],
    items: { $ref: "#" },
    properties: { a: { $ref: "#" } },
  }, D2020)!;
  assert.ok(fans.generated() !== undefined);
  const row = (n: number): unknown => n === 0 ? 1 : Array.from({ length: 19 }, () => row(n - 1));
  for (const [value, bails] of [[row(4), true], [row(2), false], [{ a: row(3) }, false]] as const) {
    if (bails) {
      assert.throws(() => fans.failures(value), FastPathBail);
      assert.throws(() => fans.units(value), FastPathBail);
    } else {
      assert.ok(fans.failures(value).length > 0);
      assert.deepEqual(
        fans.failures(value),
        toFailures(fans.units(value), value, fans.lookup, ROOT_URI),
      );
    }
  }
});

Deno.test("the generated failures and counting check count evaluations as the units do: the same bail at the budget's edge", () => {
  // Each item evaluates the root again through a reference, with keywords
  // whose subschemas are `true`, conditions, branches, names and dependencies.
  const schemas = [
    { items: { $ref: "#" }, type: ["array", "integer"], maximum: 0 },
    {
      type: ["array", "object", "string"],
      prefixItems: [true],
      items: { $ref: "#" },
      contains: true,
      if: { type: "string" },
      then: true,
      else: { not: { type: "integer" } },
      anyOf: [true, { $ref: "#/$defs/s" }],
      properties: { a: true, b: { $ref: "#" } },
      additionalProperties: { $ref: "#/$defs/s" },
      propertyNames: { maxLength: 3 },
      dependentSchemas: { a: true },
      $defs: { s: { type: "object" } },
    },
    // A false subschema for the extra members (not called, counted all the same).
    {
      type: ["array", "integer", "object"],
      items: { $ref: "#" },
      properties: { a: true },
      additionalProperties: false,
    },
    // Draft-07 references as branches: counted once, as the units count them.
    {
      $schema: D07,
      type: ["array", "integer"],
      items: { $ref: "#" },
      anyOf: [{ $ref: "#/definitions/n" }, { type: "array" }],
      definitions: { n: { maximum: 0 } },
    },
    // Draft-07 references as branches, one as deep as the branches (its keywords marked).
    {
      $schema: D07,
      type: ["array", "integer"],
      items: { anyOf: [{ $ref: "#" }, { $ref: "#/definitions/n" }] },
      definitions: { n: { maximum: 0, type: "integer" } },
    },
  ];
  const item = [1, { a: 1, b: [], cc: {}, dddd: 1 }];
  for (const schema of schemas) {
    const dialect = "$schema" in schema ? D07 : D2020;
    const d = detailed({ $schema: dialect, ...schema }, dialect)!;
    assert.ok(d.generated() !== undefined);
    // The check of a schema whose references fan out: the same answers as
    // the closures' evaluation, the same bail.
    const counting = d.counting();
    assert.ok(counting !== undefined);
    const members: unknown[] = [...item, 0, []];
    for (const member of members) {
      for (const n of [0, 1, 2]) {
        const list: unknown[] = Array.from({ length: n }, () => member);
        const answer: unknown = outcome(() => counting(list));
        assert.equal(answer, outcome(() => d.valid(list)), `${JSON.stringify(schema)} at ${n}`);
      }
    }
    for (const member of item) {
      const value = (n: number) => Array.from({ length: n }, () => member);
      const bails = (n: number) => {
        try {
          d.units(value(n));
          return false;
        } catch (error) {
          if (error instanceof FastPathBail) return true;
          throw error;
        }
      };
      // The smallest list whose units evaluation bails.
      let low = 1, high = 200_000;
      while (low < high) {
        const mid = Math.floor((low + high) / 2);
        if (bails(mid)) high = mid;
        else low = mid + 1;
      }
      assert.ok(low < 200_000, "no bail");
      for (const n of [low - 1, low, low + 1]) {
        const units = outcome(() => toFailures(d.units(value(n)), value(n), d.lookup, ROOT_URI));
        const generated = outcome(() => d.failures(value(n)));
        assert.ok(isDeepStrictEqual(generated, units), `${JSON.stringify(schema)} at ${n}`);
        const valid = outcome(() => d.valid(value(n)));
        assert.equal(outcome(() => counting(value(n))), valid, `${JSON.stringify(schema)} at ${n}`);
      }
      assert.equal(bails(low), true);
      assert.throws(() => counting(value(low)), FastPathBail);
    }
  }
});

Deno.test("the generated failures of extra members: one per member, in member order, on the object", () => {
  const schema = {
    $schema: D2020,
    properties: { a: { type: "string" }, b: true },
    patternProperties: { "^x": { type: "integer" } },
    additionalProperties: false,
  };
  const d = detailed(schema, D2020)!;
  assert.ok(d.generated() !== undefined);
  const at = (instanceLocation: string, keyword: string, message: string) => ({
    instanceLocation,
    keywordLocation: `/${keyword}`,
    absoluteKeywordLocation: `#/${keyword}`,
    keyword,
    message,
  });
  const value = { z: 1, a: 2, "y/~": 3, x1: "s", b: 4, "": 5 };
  const expected = [
    at("", "additionalProperties", "must NOT have additional property 'z'"),
    {
      ...at("/a", "properties", "must be string, found integer"),
      keywordLocation: "/properties/a/type",
      absoluteKeywordLocation: "#/properties/a/type",
      keyword: "type",
    },
    {
      ...at("/x1", "patternProperties", "must be integer, found string"),
      keywordLocation: "/patternProperties/^x/type",
      absoluteKeywordLocation: "#/patternProperties/%5Ex/type",
      keyword: "type",
    },
    at("", "additionalProperties", "must NOT have additional property 'y/~'"),
    at("", "additionalProperties", "must NOT have additional property ''"),
  ];
  const units = toFailures(d.units(value), value, d.lookup, ROOT_URI);
  // The expected records are the units' (so the hand-written ones are right)...
  assert.deepEqual(
    [...units].sort((a, b) => a.message.localeCompare(b.message)),
    [...expected].sort((a, b) => a.message.localeCompare(b.message)),
  );
  // ...and the generated failures are them, in the units' order.
  assert.deepEqual(d.failures(value), units);
  assert.deepEqual(d.failures(d.failures(value) && { a: "s", x2: 1 }), []);
  // Nested, in an array (the failures are on the nested object), and the items' word.
  const nested = detailed({
    $schema: D07,
    items: [{ additionalProperties: { $ref: "#/definitions/no" } }],
    additionalItems: { $ref: "#/definitions/alias" },
    definitions: { no: false, alias: { $ref: "#/definitions/no" } },
  }, D07)!;
  assert.ok(nested.generated() !== undefined);
  const list = [{ "m~n": 1, o: 2 }, 3, 4];
  assert.deepEqual(nested.failures(list).map((f) => [f.instanceLocation, f.keyword, f.message]), [
    ["/0", "additionalProperties", "must NOT have additional property 'm~n'"],
    ["/0", "additionalProperties", "must NOT have additional property 'o'"],
    ["", "additionalItems", "must NOT have additional item '1'"],
    ["", "additionalItems", "must NOT have additional item '2'"],
  ]);
  assert.deepEqual(
    nested.failures(list),
    toFailures(nested.units(list), list, nested.lookup, ROOT_URI),
  );
  // A reference to an object schema: its own failures, at the member.
  const object = detailed({
    $schema: D07,
    additionalProperties: { $ref: "#/definitions/s" },
    definitions: { s: { type: "string" } },
  }, D07)!;
  assert.ok(object.generated() !== undefined);
  assert.deepEqual(object.failures({ a: 1 }).map((f) => [f.instanceLocation, f.message]), [
    ["/a", "must be string, found integer"],
  ]);
});

Deno.test("the generated failures of draft-07 branches that are references: grouped by the target's index", () => {
  const cases: [unknown, unknown[]][] = [
    // Targets deeper than the branches: the index is the target's token at the branch depth.
    [{
      anyOf: [{ $ref: "#/definitions/a" }, { type: "string" }, { $ref: "#/definitions/b" }],
      definitions: { a: { type: "integer", minimum: 3 }, b: { maximum: 0 } },
    }, [1.5, 2, 0.5]],
    // Two branches with one target, and a false target.
    [{
      oneOf: [{ $ref: "#/definitions/a" }, { $ref: "#/definitions/f" }, {
        $ref: "#/definitions/a",
      }],
      definitions: { a: { type: "integer" }, f: false },
    }, [1, "x"]],
    // The root as target (shorter than the branch depth), nested in a property.
    [{
      properties: { p: { anyOf: [{ $ref: "#" }, { type: "null" }] } },
      type: "object",
    }, [{ p: 1 }, { p: { p: 2 } }]],
    // A target as deep as the branches: an index per keyword of the target.
    [{
      anyOf: [{ $ref: "#/definitions" }, { type: "null" }],
      definitions: { type: "integer", minimum: 5 },
    }, [1.5, 2]],
    // The common case (items of one of several definitions), through a chain, twice one target.
    [{
      items: {
        anyOf: [
          { $ref: "#/definitions/a" },
          { $ref: "#/definitions/b" },
          { $ref: "#/definitions/alias" },
          { type: "null" },
        ],
      },
      definitions: {
        a: { type: "object", required: ["x"], properties: { x: { type: "string" } } },
        b: { type: ["string", "object"], minLength: 2, maxProperties: 0 },
        alias: { $ref: "#/definitions/b" },
      },
    }, [[{ q: 1 }], ["y", { x: 1 }], [1, true]]],
  ];
  for (const [schema, values] of cases) {
    const d = detailed({ $schema: D07, ...(schema as object) }, D07)!;
    assert.ok(d !== undefined && d.generated() !== undefined, JSON.stringify(schema));
    compare(d, values, JSON.stringify(schema));
    assert.ok(values.every((v) => d.failures(v).length > 0), JSON.stringify(schema));
  }
  const d = detailed({ $schema: D07, ...(cases[1][0] as object) }, D07)!;
  assert.ok(d.generated() !== undefined);
  assert.deepEqual(d.failures("x").map((f) => f.message), [
    // Branches 0 and 2 (one target) together, in the order the keys first come.
    "must match exactly one schema in oneOf ([a] must be integer, found string, " +
    "must be integer, found string; [f] is not allowed (the schema here is false))",
  ]);
});

Deno.test("the generated failures of draft-07 branches whose targets are as deep: by keyword", () => {
  const d = detailed({
    $schema: D07,
    items: { oneOf: [{ $ref: "#/definitions/a" }, { $ref: "#/definitions/b" }] },
    definitions: {
      a: { type: "object", required: ["x"] },
      b: { required: ["y"], minProperties: 2, type: "object" },
    },
  }, D07)!;
  assert.ok(d.generated() !== undefined);
  const value = [{ z: 1 }];
  // The parts are keyed by keyword name, `required` of both targets together.
  assert.deepEqual(d.failures(value).map((f) => [f.instanceLocation, f.message]), [[
    "/0",
    "must match exactly one schema in oneOf ([required] must have required property 'x', " +
    "must have required property 'y'; [minProperties] must NOT have fewer than 2 properties)",
  ]]);
  assert.deepEqual(d.failures(value), toFailures(d.units(value), value, d.lookup, ROOT_URI));
});
