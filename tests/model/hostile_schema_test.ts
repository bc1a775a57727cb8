// Hostile schemas and arguments: regular expressions that
// backtrack exponentially, `$ref` cycles without progress, and nesting
// beyond the documented depth, through the library's public functions.

import assert from "node:assert/strict";
import {
  checkSchemaStructure,
  DEFAULT_MAX_SCHEMA_DEPTH,
  DefaultValidator,
  EvaluationDepthError,
  InvalidSchemaError,
  SchemaShapeError,
  SchemaValidationError,
  type Tool,
  ToolFoundationError,
  UnsupportedPatternError,
} from "../../model/mod.ts";
import { patternRuns } from "../../model/_regex.ts";
import { analyzeSchemaStructure } from "../../model/schema_structure.ts";

const fixture = async (name: string): Promise<Tool> =>
  JSON.parse(await Deno.readTextFile(new URL(`../fixtures/hostile/${name}`, import.meta.url)));

/** Runs `task` and returns what it threw (or undefined) and how long it took. */
async function timed(task: () => Promise<unknown>): Promise<[unknown, number]> {
  const start = performance.now();
  const error = await task().then(() => undefined, (e) => e);
  return [error, performance.now() - start];
}

// Before: 47 s for 31 characters, doubling with each one. A generous bound
// that only an exponential engine misses.
const BOUND_MS = 5_000;

Deno.test("an exponential pattern answers invalid at once on 30 a's and a '!'", async () => {
  const tool = await fixture("redos_pattern.json");
  const validator = new DefaultValidator();
  await validator.validateInput(tool, { s: "aaa" }); // compile outside the measure
  const [error, ms] = await timed(() => validator.validateInput(tool, { s: "a".repeat(30) + "!" }));
  assert.ok(error instanceof SchemaValidationError, String(error));
  assert.equal(error.failures[0].keyword, "pattern");
  assert.equal(error.failures[0].instanceLocation, "/s");
  assert.ok(ms < BOUND_MS, `took ${ms} ms`);
});

Deno.test("an exponential pattern stays linear on 40,001 characters, valid and invalid", async () => {
  const tool = await fixture("redos_pattern.json");
  const validator = new DefaultValidator();
  const [valid, ms1] = await timed(() => validator.validateInput(tool, { s: "a".repeat(40_001) }));
  assert.equal(valid, undefined);
  const [invalid, ms2] = await timed(() =>
    validator.validateInput(tool, { s: "a".repeat(40_000) + "!" })
  );
  assert.ok(invalid instanceof SchemaValidationError);
  assert.ok(ms1 + ms2 < BOUND_MS, `took ${ms1} + ${ms2} ms`);
});

Deno.test("patternProperties, additionalProperties and propertyNames patterns run bounded", async () => {
  const tool = await fixture("redos_pattern_properties.json");
  const validator = new DefaultValidator();
  await validator.validateInput(tool, { aaaa: 1 });
  const hostileKey = "a".repeat(30) + "!";
  const [error, ms] = await timed(() => validator.validateInput(tool, { [hostileKey]: 1 }));
  assert.ok(error instanceof SchemaValidationError);
  const keywords = error.failures.map((f) => f.keywordLocation).sort();
  assert.deepEqual(keywords, ["/additionalProperties", "/propertyNames/pattern"]);
  assert.ok(ms < BOUND_MS, `took ${ms} ms`);
  // patternProperties applies its subschema to matching names only.
  const wrong = await validator.validateInput(tool, { aaaa: "x" }).catch((e) => e);
  assert.ok(wrong instanceof SchemaValidationError);
  assert.equal(wrong.failures[0].instanceLocation, "/aaaa");
});

Deno.test("the invalid path runs each pattern once per long string, not once per pass", async () => {
  const tool = await fixture("redos_pattern.json");
  const validator = new DefaultValidator();
  await validator.validateInput(tool, { s: "a" });
  const before = patternRuns();
  const error = await validator.validateInput(tool, { s: "a".repeat(1000) + "!" }).catch((e) => e);
  assert.ok(error instanceof SchemaValidationError);
  assert.equal(patternRuns() - before, 1);
});

Deno.test("format: regex in draft-07 with format assertion compiles the value, never runs it", async () => {
  const validator = new DefaultValidator({ formatAssertion: true });
  const compiled = await validator.compile({
    $schema: "http://json-schema.org/draft-07/schema#",
    format: "regex",
  });
  assert.equal(compiled.check("^(a+)+$").valid, true);
  assert.equal(compiled.check("(").valid, false);
});

Deno.test("a pattern that needs backtracking without a bound is refused at compile time, located", async () => {
  const validator = new DefaultValidator();
  const error = await validator.compile({
    type: "object",
    properties: { word: { type: "string", pattern: "^(\\w+)\\1$" } },
  }).catch((e) => e);
  assert.ok(error instanceof UnsupportedPatternError, String(error));
  assert.ok(error instanceof InvalidSchemaError);
  assert.equal(error.code, "unsupported_pattern");
  assert.equal(error.keywordLocation, "/properties/word/pattern");
  assert.equal(error.pattern, "^(\\w+)\\1$");
  assert.match(error.message, /backreference/);
  const inKey = await validator.compile({ patternProperties: { "(?=.*a).*b": true } }).catch((
    e,
  ) => e);
  assert.ok(inKey instanceof UnsupportedPatternError);
  assert.equal(inKey.keywordLocation, "/patternProperties/(?=.*a).*b");
});

Deno.test("bounded lookarounds and backreferences run with their ECMA-262 meaning", async () => {
  const validator = new DefaultValidator();
  const cases: [string, string, boolean][] = [
    ["^(?=.*\\d)(?!.*\\s).{8,}$", "password1", true],
    ["^(?=.*\\d)(?!.*\\s).{8,}$", "pass word1", false],
    ["^(?=.*\\d)(?!.*\\s).{8,}$", "password", false],
    ["(?<=\\$)\\d+", "cost $12", true],
    ["(?<!\\$)\\b\\d+", "$12", false],
    ["^(\\d)\\1$", "11", true],
    ["^(\\d)\\1$", "12", false],
    ["(?i:ab)c", "ABc", true],
    ["(?i:ab)c", "ABC", false],
  ];
  for (const [pattern, value, expected] of cases) {
    const compiled = await validator.compile({ type: "string", pattern });
    assert.equal(compiled.check(value).valid, expected, `${pattern} on ${value}`);
    assert.equal(new RegExp(pattern, "u").test(value), expected);
  }
});

Deno.test("an invalid regular expression is an InvalidSchemaError with its location", async () => {
  const error = await new DefaultValidator().compile({
    properties: { a: { pattern: "(" } },
  }).catch((e) => e);
  assert.ok(error instanceof InvalidSchemaError);
  assert.equal(error.keywordLocation, "/properties/a/pattern");
});

for (
  const [file, location] of [
    ["ref_cycle_self.json", "/$defs/a/$ref"],
    ["ref_cycle_ab.json", "/$defs/b/anyOf/1/$ref"],
    ["ref_cycle_root.json", "/$ref"],
  ]
) {
  Deno.test(`a $ref cycle without progress (${file}) is a located InvalidSchemaError`, async () => {
    const tool = await fixture(file);
    const validator = new DefaultValidator();
    for (
      const attempt of [
        () => validator.compile(tool.inputSchema),
        () => validator.validateInput(tool, { x: 1 }),
        () => validator.validate(JSON.stringify(tool.inputSchema), {}),
      ]
    ) {
      const error = await attempt().catch((e) => e);
      assert.ok(error instanceof SchemaShapeError, String(error));
      assert.ok(error instanceof InvalidSchemaError);
      assert.equal(error.code, "invalid_schema");
      assert.equal(error.problem, "cycle");
      assert.equal(error.keywordLocation, location);
    }
    assert.throws(() => checkSchemaStructure(tool.inputSchema), SchemaShapeError);
  });
}

Deno.test("a recursive tree schema keeps working (each $ref applies to a child)", async () => {
  const tool = await fixture("ref_tree.json");
  checkSchemaStructure(tool.inputSchema);
  const validator = new DefaultValidator();
  await validator.validateInput(tool, { label: "a", children: [{ label: "b", children: [] }] });
  const error = await validator.validateInput(tool, { label: "a", children: [{ children: [] }] })
    .catch((e) => e);
  assert.ok(error instanceof SchemaValidationError);
  assert.equal(error.failures[0].instanceLocation, "/children/0");
});

function nested(levels: number, wrap: (s: unknown) => unknown): unknown {
  let schema: unknown = { type: "string" };
  for (let i = 0; i < levels; i++) schema = wrap(schema);
  return schema;
}

Deno.test("a 10,000-level schema is refused with depth, never a RangeError", async () => {
  const validator = new DefaultValidator();
  for (
    const wrap of [
      (s: unknown) => ({ allOf: [s] }),
      (s: unknown) => ({ type: "object", properties: { a: s } }),
      (s: unknown) => ({ not: s }),
      (s: unknown) => ({ items: s }),
    ]
  ) {
    const schema = nested(10_000, wrap) as Record<string, unknown>;
    const error = await validator.compile(schema).catch((e) => e);
    assert.ok(error instanceof SchemaShapeError, String(error));
    assert.equal(error.problem, "depth");
    assert.equal(error.limit, DEFAULT_MAX_SCHEMA_DEPTH);
    const tool = {
      name: "deep",
      inputSchema: { type: "object" as const, properties: { x: schema } },
    };
    const viaTool = await validator.validateInput(tool, {}).catch((e) => e);
    assert.ok(viaTool instanceof SchemaShapeError);
    assert.ok(viaTool.keywordLocation.startsWith("/properties/x/"));
  }
  // Deep values inside a schema (const, default) are bounded too.
  let value: unknown = 1;
  for (let i = 0; i < 10_000; i++) value = [value];
  const deepConst = await validator.compile({ const: value }).catch((e) => e);
  assert.ok(deepConst instanceof SchemaShapeError);
  // A cyclic JavaScript object is bounded, not walked forever.
  const cyclic: Record<string, unknown> = { type: "object" };
  cyclic.properties = { self: cyclic };
  assert.throws(() => checkSchemaStructure(cyclic), SchemaShapeError);
});

Deno.test("schemas just under the depth limit compile and validate for every applicator", async () => {
  const levels = DEFAULT_MAX_SCHEMA_DEPTH - 1;
  const kinds: [(s: unknown) => unknown, (v: unknown) => unknown][] = [
    [(s) => ({ allOf: [s] }), (v) => v],
    [(s) => ({ anyOf: [s] }), (v) => v],
    [(s) => ({ oneOf: [s] }), (v) => v],
    [(s) => ({ properties: { a: s } }), (v) => ({ a: v })],
    [(s) => ({ patternProperties: { "^a$": s } }), (v) => ({ a: v })],
    [(s) => ({ additionalProperties: s }), (v) => ({ a: v })],
    [(s) => ({ items: s }), (v) => [v]],
    [(s) => ({ prefixItems: [s] }), (v) => [v]],
    [(s) => ({ dependentSchemas: { a: s } }), (v) => v],
    [(s) => ({ unevaluatedProperties: s }), (v) => ({ a: v })],
  ];
  for (const [wrap, wrapValue] of kinds) {
    for (const draft of [undefined, "http://json-schema.org/draft-07/schema#"]) {
      let schema: unknown = { type: "object" };
      let value: unknown = {};
      for (let i = 0; i < levels; i++) {
        schema = wrap(schema);
        value = wrapValue(value);
      }
      if (draft !== undefined) schema = { $schema: draft, ...(schema as object) };
      const compiled = await new DefaultValidator({ maxDepth: 1000 }).compile(schema as never);
      assert.equal(compiled.check(value).valid, true);
      compiled.check(1);
    }
  }
});

Deno.test("long in-place $ref chains and $ref fan-out bombs are refused", async () => {
  const chain: Record<string, unknown> = {};
  for (let i = 0; i < 400; i++) chain[`a${i}`] = { $ref: `#/$defs/a${i + 1}` };
  chain.a400 = { type: "string" };
  const long = await new DefaultValidator().compile({ $ref: "#/$defs/a0", $defs: chain })
    .catch((e) => e);
  assert.ok(long instanceof SchemaShapeError);
  assert.equal(long.problem, "depth");

  const bomb: Record<string, unknown> = {};
  for (let i = 0; i < 30; i++) {
    bomb[`l${i}`] = { allOf: [{ $ref: `#/$defs/l${i + 1}` }, { $ref: `#/$defs/l${i + 1}` }] };
  }
  bomb.l30 = { type: "string" };
  const fanOut = await new DefaultValidator().compile({ $ref: "#/$defs/l0", $defs: bomb })
    .catch((e) => e);
  assert.ok(fanOut instanceof SchemaShapeError);
  assert.equal(fanOut.problem, "size");
});

Deno.test("a stack overflow while validating is a typed error, never a raw RangeError", async () => {
  // 100 in-place $refs per level of a 1,500-level value (the validator's
  // maxDepth raised): within every static limit, but together deeper than
  // the call stack.
  const defs: Record<string, unknown> = {};
  for (let i = 0; i < 100; i++) defs[`c${i}`] = { $ref: `#/$defs/c${i + 1}` };
  defs.c100 = { properties: { a: { $ref: "#/$defs/c0" } } };
  const validator = new DefaultValidator({ maxDepth: 2000 });
  const compiled = await validator.compile({ $ref: "#/$defs/c0", $defs: defs });
  let value: unknown = 1;
  for (let i = 0; i < 1500; i++) value = { a: value };
  let error: unknown;
  try {
    compiled.check(value);
  } catch (e) {
    error = e;
  }
  assert.ok(error instanceof EvaluationDepthError, String(error));
  assert.ok(error instanceof ToolFoundationError);
  assert.equal(error.code, "evaluation_too_deep");
  assert.ok(error.cause instanceof RangeError);
  const viaTool = await validator.validateInput({
    name: "t",
    inputSchema: { $ref: "#/$defs/c0", $defs: defs } as never,
  }, value).catch((e) => e);
  assert.ok(viaTool instanceof EvaluationDepthError);
});

Deno.test("$ref cycles through trusted documents are found too", async () => {
  const validator = new DefaultValidator({
    schemas: {
      "https://example.com/a.json": { $ref: "https://example.com/b.json" },
      "https://example.com/b.json": { allOf: [{ $ref: "a.json" }] },
    },
  });
  const error = await validator.compile({ $ref: "https://example.com/a.json" }).catch((e) => e);
  assert.ok(error instanceof SchemaShapeError, String(error));
  assert.equal(error.problem, "cycle");
  assert.ok(error.keywordLocation.startsWith("https://example.com/"));
});

Deno.test("$refs that fan out at every level of the value stop at a budget instead of doubling", async () => {
  // Each level applies x twice, and x applies the root to the child: 2^depth.
  const compiled = await new DefaultValidator().compile({
    allOf: [{ $ref: "#/$defs/x" }, { $ref: "#/$defs/x" }],
    $defs: { x: { properties: { a: { $ref: "#" } } } },
  });
  let shallow: unknown = 1;
  for (let i = 0; i < 5; i++) shallow = { a: shallow };
  assert.equal(compiled.check(shallow).valid, true);
  let deep: unknown = 1;
  for (let i = 0; i < 60; i++) deep = { a: deep };
  const [error, ms] = await timed(() => Promise.resolve().then(() => compiled.check(deep)));
  assert.ok(error instanceof SchemaShapeError, String(error));
  assert.equal(error.problem, "size");
  assert.ok(ms < BOUND_MS, `took ${ms} ms`);
});

Deno.test("only schemas that recurse through parts of the value pay for the budget", () => {
  assert.equal(analyzeSchemaStructure({ properties: { a: { type: "string" } } }).fansOut, false);
  assert.equal(
    analyzeSchemaStructure({ properties: { a: { $ref: "#/$defs/s" } }, $defs: { s: {} } }).fansOut,
    false,
  );
  assert.equal(analyzeSchemaStructure({ items: { $ref: "#" } }).fansOut, true);
});
