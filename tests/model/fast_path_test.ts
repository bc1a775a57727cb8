// The validator's fast path: which schemas take it (and which fall back whole
// to Hyperjump), and when failures/messages are computed.
import assert from "node:assert/strict";
import { DefaultValidator, SchemaValidationError } from "../../model/mod.ts";
import { MAX_REF_NESTING, planFastPath } from "../../model/_fast/mod.ts";
import { loadRegexEngine, patternRuns } from "../../model/_regex.ts";

// Patterns compile synchronously here: load the engine first.
await loadRegexEngine();

const D2020 = "https://json-schema.org/draft/2020-12/schema";
const D07 = "http://json-schema.org/draft-07/schema";
const plan = (schema: unknown, dialect = D2020, formatAssertion = false, fansOut = false) =>
  planFastPath(schema, { dialect, formatAssertion, fansOut });

const TOOL_SCHEMA = {
  type: "object",
  properties: {
    path: { type: "string", minLength: 1, pattern: "^/" },
    mode: { enum: ["read", "write"] },
    depth: { type: "integer", minimum: 0, maximum: 10, multipleOf: 1 },
    tags: { type: "array", items: { type: "string" }, uniqueItems: true },
    options: { anyOf: [{ type: "null" }, { $ref: "#/$defs/options" }] },
  },
  required: ["path"],
  additionalProperties: false,
  $defs: { options: { type: "object", additionalProperties: { type: "boolean" } } },
};

Deno.test("a typical tool schema takes the fast path in both dialects", () => {
  assert.equal(plan(TOOL_SCHEMA).reason, undefined);
  const draft07 = { ...TOOL_SCHEMA, $schema: `${D07}#`, definitions: TOOL_SCHEMA.$defs };
  assert.equal(plan(draft07, D07).reason, undefined);
  assert.equal(plan(true).reason, undefined);
  assert.equal(plan({}).check?.(42), true);
  assert.equal(plan(false).check?.(42), false);
});

Deno.test("a schema the fast path cannot do exactly falls back whole, with the reason", () => {
  const cases: [unknown, string, RegExp][] = [
    [{ properties: { a: { unevaluatedProperties: false } } }, D2020, /unevaluatedProperties/],
    [{ items: [{ unevaluatedItems: false }] }, D2020, /unevaluatedItems/],
    [{ $dynamicRef: "#meta" }, D2020, /\$dynamicRef/],
    [{ $defs: { a: { $anchor: "a" } }, $ref: "#a" }, D2020, /\$anchor/],
    [{ properties: { a: { $id: "http://x/a", type: "string" } } }, D2020, /nested \$id/],
    [{ $ref: "http://example.com/other.json" }, D2020, /outside the document/],
    [{ $ref: "other.json#/a" }, D2020, /outside the document/],
    [{ $id: "http://x/root#frag" }, D2020, /fragment/],
    [{ properties: { a: { $schema: D2020 } } }, D2020, /nested \$schema/],
    [{ type: "object" }, "https://example.com/custom-dialect", /dialect/],
    [{ enum: [{ $ref: "#" }] }, D2020, /enum/],
  ];
  for (const [schema, dialect, reason] of cases) {
    const decision = plan(schema, dialect);
    assert.equal(decision.check, undefined, JSON.stringify(schema));
    assert.match(decision.reason!, reason);
  }
  // A supported schema with one refused keyword deep inside: never partly.
  const mostly = structuredClone(TOOL_SCHEMA) as Record<string, unknown>;
  (mostly.$defs as Record<string, Record<string, unknown>>).options.unevaluatedProperties = false;
  assert.match(plan(mostly).reason!, /unevaluatedProperties/);
  assert.match(plan({ format: "email" }, D2020, true).reason!, /format/);
  // References that fan out take the fast path too (fast_failures_test.ts), but
  // not with failures that Hyperjump's DETAILED output would not give.
  assert.match(
    plan({ $id: "HTTP://X/a", items: { $ref: "#" } }, D2020, false, true).reason!,
    /fan out, and a \$id not in normal form/,
  );
});

Deno.test("keywords unknown to a dialect are annotations there, as in Hyperjump", () => {
  // draft-07 knows neither unevaluatedProperties nor prefixItems nor dependentRequired.
  const schema = {
    unevaluatedProperties: false,
    prefixItems: [false],
    dependentRequired: { a: ["b"] },
  };
  const check = plan(schema, D07).check!;
  assert.equal(check({ a: 1 }), true);
  assert.equal(check([1]), true);
  assert.equal(plan({ prefixItems: [false] }).check!([1]), false);
  assert.equal(plan({ dependentRequired: { a: ["b"] } }).check!({ a: 1 }), false);
  // format is an annotation unless the validator asserts it.
  assert.equal(plan({ format: "email" }).check!("not an email"), true);
});

Deno.test("a $ref chain nested deeper than the limit is answered by Hyperjump, correctly", async () => {
  const schema = {
    $ref: "#/$defs/node",
    $defs: { node: { type: "object", properties: { a: { $ref: "#/$defs/node" } } } },
  };
  let deep: unknown = {};
  for (let i = 0; i < MAX_REF_NESTING + 20; i++) deep = { a: deep };
  assert.equal(plan(schema).check!(deep), undefined);
  assert.equal(plan(schema).check!({ a: { a: {} } }), true);
  const compiled = await new DefaultValidator().compile(schema);
  assert.equal(compiled.check(deep).valid, true);
  let bad: unknown = 5;
  for (let i = 0; i < MAX_REF_NESTING + 20; i++) bad = { a: bad };
  const result = compiled.check(bad);
  assert.equal(result.valid, false);
  assert.equal(result.valid === false && result.failures[0].keyword, "type");
});

const PATTERN_SCHEMA = {
  type: "object",
  properties: { s: { type: "string", pattern: "^a+$" }, n: { type: "integer" } },
};

Deno.test("with the fast path, an invalid answer holds its failures, computed with it", async () => {
  const compiled = await new DefaultValidator().compile(PATTERN_SCHEMA);
  compiled.check({ s: "aa", n: 1 });
  compiled.check({ s: "b", n: 1 }); // the failures code is made at the first refusal
  const before = patternRuns();
  const result = compiled.check({ s: "aab", n: 1.5 });
  assert.equal(result.valid, false);
  assert.equal(patternRuns() - before, 2, "the answer's pass and the failures' pass");
  const failures = result.valid === false ? result.failures : [];
  assert.equal(patternRuns() - before, 2, "nothing more when read");
  assert.deepEqual(failures.map((f) => f.message), [
    'must match pattern "^a+$"',
    "must be integer, found number",
  ]);
  assert.deepEqual(Object.keys(result), ["valid", "failures"]);
  assert.deepEqual(JSON.parse(JSON.stringify(result)), { valid: false, failures });
});

Deno.test("without the fast path, an invalid value's failures are computed only when read, then kept", async () => {
  const compiled = await new DefaultValidator({ fastPath: false }).compile(PATTERN_SCHEMA);
  compiled.check({ s: "aa", n: 1 });
  const before = patternRuns();
  const result = compiled.check({ s: "aab", n: 1.5 });
  assert.equal(result.valid, false);
  assert.equal(patternRuns() - before, 1, "only the answer's pass ran the pattern");
  assert.equal(result.valid === false && result.failures.length, 2);
  assert.equal(patternRuns() - before, 2, "the failures' pass ran when they were read");
  const failures = result.valid === false ? result.failures : [];
  assert.equal(result.valid === false && result.failures, failures, "computed once");
  assert.deepEqual(failures.map((f) => f.message), [
    'must match pattern "^a+$"',
    "must be integer, found number",
  ]);
  assert.deepEqual(JSON.parse(JSON.stringify(result)), { valid: false, failures });
});

Deno.test("a thrown SchemaValidationError of Hyperjump's builds its message and failures on first read", async () => {
  const validator = new DefaultValidator({ fastPath: false });
  const compiled = await validator.compile(PATTERN_SCHEMA);
  const before = patternRuns();
  let error: unknown;
  try {
    compiled.assert({ s: "b" }, 'input of tool "t"');
  } catch (e) {
    error = e;
  }
  assert.ok(error instanceof SchemaValidationError);
  assert.equal(patternRuns() - before, 1);
  assert.equal(error.name, "SchemaValidationError");
  assert.equal(error.code, "schema_validation");
  assert.equal(error.message, 'input of tool "t" is invalid: /s: must match pattern "^a+$"');
  assert.equal(patternRuns() - before, 2);
  assert.equal(error.failures.length, 1);
  assert.equal(error.failures[0].instanceLocation, "/s");
  assert.ok(error.stack?.startsWith(`SchemaValidationError: ${error.message}`));
  assert.deepEqual(error.instance, { s: "b" });
  // The same as the error built eagerly.
  const eager = new SchemaValidationError(error.failures, {
    subject: 'input of tool "t"',
    instance: { s: "b" },
  });
  assert.equal(error.message, eager.message);
  assert.deepEqual(Object.keys(error).sort(), Object.keys(eager).sort());
});

Deno.test("a thrown SchemaValidationError of the fast path equals the one built eagerly", async () => {
  const compiled = await new DefaultValidator().compile(PATTERN_SCHEMA);
  let error: unknown;
  try {
    compiled.assert({ s: "b" }, 'input of tool "t"');
  } catch (e) {
    error = e;
  }
  assert.ok(error instanceof SchemaValidationError);
  assert.equal(error.message, 'input of tool "t" is invalid: /s: must match pattern "^a+$"');
  const eager = new SchemaValidationError(error.failures, {
    subject: 'input of tool "t"',
    instance: { s: "b" },
  });
  assert.equal(error.message, eager.message);
  assert.deepEqual(error.failures, eager.failures);
  assert.deepEqual(Object.keys(error).sort(), Object.keys(eager).sort());
});

Deno.test("a long string runs each pattern once across the answer and the failures", async () => {
  const compiled = await new DefaultValidator().compile(PATTERN_SCHEMA);
  const before = patternRuns();
  const result = compiled.check({ s: "a".repeat(1000) + "b" });
  assert.equal(result.valid === false && result.failures[0].keyword, "pattern");
  assert.equal(patternRuns() - before, 1);
});

Deno.test("values that are not JSON or nest too deep are refused before any evaluation", async () => {
  const compiled = await new DefaultValidator({ maxDepth: 3 }).compile(TOOL_SCHEMA);
  const notJson = compiled.check({ path: "/x", tags: ["a", undefined] });
  assert.equal(notJson.valid, false);
  assert.equal(notJson.valid === false && notJson.failures[0].instanceLocation, "/tags/1");
  assert.throws(() => compiled.check({ path: "/", options: { a: { b: {} } } }), /nests deeper/);
});
