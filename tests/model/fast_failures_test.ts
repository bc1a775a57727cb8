// The fast path's failures: exactly those from Hyperjump's DETAILED output
// (through the same toFailures) on every real MCP tool schema of the bench
// corpus with invalid values derived from it, which schemas get them and which
// do not, `standalone`, failures written with the answer, and a compiled
// schema without Hyperjump.
import assert from "node:assert/strict";
import { isDeepStrictEqual } from "node:util";
import { type CheckResult, DefaultValidator, SchemaValidationError } from "../../model/mod.ts";
import { type FastPlan, MAX_REF_NESTING, planFastPath } from "../../model/_fast/mod.ts";
import { BUDGET_START } from "../../model/_fast/_detailed.ts";
import { compiledSchema } from "../../model/_compiled_schema.ts";
import { analyzeSchemaStructure } from "../../model/schema_structure.ts";
import { ROOT_URI } from "../../model/_dialect.ts";
import * as hyperjump from "../../model/_hyperjump.ts";
import { corpus } from "../../bench/_validator_corpus.ts";
import type { JsonSchema } from "../../model/tool.ts";

const D2020 = "https://json-schema.org/draft/2020-12/schema";
const D07 = "http://json-schema.org/draft-07/schema";
const plan = (schema: unknown, dialect = D2020, fansOut = false): FastPlan =>
  planFastPath(schema, { dialect, formatAssertion: false, fansOut });

/** What `task` returns, or the name and message of what it throws. */
function outcome(task: () => unknown): unknown {
  try {
    return task();
  } catch (error) {
    return `threw ${(error as Error)?.name}: ${(error as Error)?.message}`;
  }
}

/** Invalid values derived from a case: its own, and its valid value with each member broken. */
function variants(valid: unknown, invalid: unknown): unknown[] {
  const out = [invalid, null, 7, "text", [], {}];
  if (typeof valid === "object" && valid !== null && !Array.isArray(valid)) {
    out.push({ ...valid, "zz extra/~": 1 });
    for (const key of Object.keys(valid)) {
      for (const wrong of [null, 12345.5, "x", [], { "y z": [1] }, true]) {
        out.push({ ...valid, [key]: wrong });
      }
      const { [key]: _, ...rest } = valid as Record<string, unknown>;
      out.push(rest);
    }
  }
  return out;
}

Deno.test("real MCP tool schemas: the fast failures are Hyperjump's, record for record", async () => {
  const { real, seeds } = await corpus();
  let schemas = 0, withFailures = 0, compared = 0;
  for (const c of [...seeds, ...real]) {
    let expected;
    try {
      // A validator of its own: a cached equal schema with another key order
      // would report its keywords in that order.
      expected = await new DefaultValidator({ fastPath: false }).compile(c.schema as JsonSchema);
    } catch {
      continue;
    }
    schemas++;
    const planned = plan(c.schema, expected.dialect, analyzeSchemaStructure(c.schema).fansOut);
    if (planned.failures === undefined) continue;
    withFailures++;
    for (const value of variants(c.valid, c.invalid)) {
      if (planned.check(value) !== false) continue;
      compared++;
      const ours = outcome(() => planned.failures!(value));
      const theirs = outcome(() => (expected.check(value) as { failures: unknown }).failures);
      if (!isDeepStrictEqual(ours, theirs)) {
        assert.fail(
          `${c.name} on ${JSON.stringify(value)}:\n${JSON.stringify(ours)}\n${
            JSON.stringify(theirs)
          }`,
        );
      }
    }
  }
  assert.ok(schemas > 1000, `only ${schemas} schemas`);
  // Every schema of the corpus the fast path supports gets its failures.
  assert.ok(withFailures > schemas * 0.95, `${withFailures}/${schemas} with fast failures`);
  assert.ok(compared > 10_000, `only ${compared} invalid values compared`);
});

Deno.test("the fast path's constants are Hyperjump module's", () => {
  assert.equal(ROOT_URI, "https://toolfoundation.invalid/schema.json");
  assert.equal(BUDGET_START, hyperjump.BUDGET_START);
});

Deno.test("standalone: no $ref cycle, no $ref chain beyond the nesting limit", () => {
  const flat = plan({ properties: { a: { $ref: "#/$defs/s" } }, $defs: { s: { type: "string" } } });
  assert.equal(flat.standalone, true);
  assert.ok(flat.failures !== undefined);
  assert.equal(plan({ properties: { a: { $ref: "#" } } }).standalone, false);
  assert.equal(plan({ items: { $ref: "#" } }, D2020, true).standalone, false);
  // A chain of MAX_REF_NESTING + 1 distinct definitions could bail: not standalone.
  const chain = (n: number) => {
    const $defs: Record<string, unknown> = { [`d${n}`]: { type: "string" } };
    for (let i = 0; i < n; i++) $defs[`d${i}`] = { $ref: `#/$defs/d${i + 1}` };
    return { $ref: "#/$defs/d0", $defs };
  };
  assert.equal(plan(chain(MAX_REF_NESTING - 1)).standalone, true);
  assert.equal(plan(chain(MAX_REF_NESTING + 1)).standalone, false);
});

Deno.test("schemas whose failures stay with Hyperjump say why", () => {
  const unnormal = plan({ $id: "HTTPS://Example.com/s", type: "string" });
  assert.ok(unnormal.check !== undefined);
  assert.equal(unnormal.failures, undefined);
  assert.equal(unnormal.standalone, false);
  assert.match(unnormal.failuresReason!, /\$id/);
  // Draft-07: a reference into the siblings of another reference (invisible to Hyperjump).
  const through = plan({
    definitions: { a: { $ref: "#/definitions/b", definitions: { c: {} } }, b: {} },
    properties: { x: { $ref: "#/definitions/a/definitions/c" } },
  }, D07);
  assert.equal(through.failures, undefined);
  assert.match(through.failuresReason!, /through a reference/);
});

Deno.test("schemas whose references fan out: answered by the exact evaluation, within Hyperjump's budget", async () => {
  const schema = { $schema: D2020, items: { $ref: "#" }, properties: { a: { $ref: "#" } } };
  const planned = plan(schema, D2020, true);
  assert.ok(planned.check !== undefined);
  assert.equal(planned.standalone, false);
  const reference = await new DefaultValidator({ fastPath: false }).compile(schema as JsonSchema);
  for (const value of [[[1]], { a: [{ a: 1 }] }, 1]) {
    assert.equal(planned.check(value), reference.check(value).valid);
  }
  // Beyond the budget's first count, the value is Hyperjump's to answer.
  const row = (n: number): unknown => n === 0 ? 1 : Array.from({ length: 19 }, () => row(n - 1));
  const wide = row(4); // 19^4 + 19^3 + ... values: more than BUDGET_START evaluations
  assert.equal(planned.check(wide), undefined);
});

/** A compiled schema over a given fast plan (no Hyperjump evaluation). */
function compiledWith(schema: Record<string, unknown>, plan: FastPlan) {
  return compiledSchema({
    schema,
    dialect: D2020,
    evaluate: undefined,
    planFast: undefined,
    plan,
    trusted: new Map(),
    formatAssertion: false,
    maxDepth: 64,
  });
}

Deno.test("an invalid answer carries its failures, written once by code made at the first refusal", () => {
  const schema = {
    type: "object",
    properties: { a: {}, b: {} },
    required: ["a", "b"],
    additionalProperties: false,
  };
  const base = plan(schema);
  let makes = 0;
  let runs = 0;
  const counted = {
    ...base,
    makeFailures: () => {
      makes++;
      const code = base.makeFailures!()!;
      return (value: unknown) => (runs++, code(value));
    },
  } as FastPlan;
  const compiled = compiledWith(schema, counted);
  assert.equal(compiled.check({ a: 1, b: 2 }).valid, true);
  assert.equal(makes, 0, "a valid value makes no failures code");
  const result = compiled.check({ c: 1 });
  assert.equal(result.valid, false);
  assert.deepEqual([makes, runs], [1, 1], "made at the first refusal, run with the answer");
  // A plain result: its failures an own data property, read without any more work.
  assert.deepEqual(Object.keys(result), ["valid", "failures"]);
  assert.ok("value" in Object.getOwnPropertyDescriptor(result, "failures")!);
  assert.deepEqual(
    (result as { failures: { message: string }[] }).failures.map((f) => f.message),
    [
      "must have required property 'a'",
      "must have required property 'b'",
      "must NOT have additional property 'c'",
    ],
  );
  assert.equal(runs, 1);
  assert.equal(compiled.check({ d: 1 }).valid, false);
  assert.deepEqual([makes, runs], [1, 2], "made once");
  assert.equal(compiled.check({ a: 1, b: 2 }).valid, true);
  assert.equal(runs, 2);
});

Deno.test("an invalid answer whose generated failures code throws leaves them to be read", () => {
  const schema = { type: "object", required: ["a"] };
  const base = plan(schema);
  let calls = 0;
  const throwing = {
    ...base,
    // The first run throws (as a bail on a deep $ref chain would): the
    // failures are then computed when read, by the same code.
    makeFailures: () => {
      const code = base.makeFailures!()!;
      return (value: unknown) => {
        if (calls++ === 0) throw new RangeError("stack");
        return code(value);
      };
    },
  } as FastPlan;
  const compiled = compiledWith(schema, throwing);
  const result = compiled.check({});
  assert.equal(result.valid, false);
  assert.equal(calls, 1);
  assert.equal(Object.getOwnPropertyDescriptor(result, "failures"), undefined, "not computed yet");
  assert.deepEqual(
    (result as { failures: { message: string }[] }).failures.map((f) => f.message),
    ["must have required property 'a'"],
  );
  assert.equal(calls, 2);
});

Deno.test("a compiled schema without Hyperjump answers, fails and throws as one with it", async () => {
  const schema = {
    $schema: D2020,
    type: "object",
    properties: { n: { type: "integer", minimum: 1 }, tags: { items: { enum: ["x", "y"] } } },
    required: ["n"],
  } as JsonSchema;
  const withHyperjump = await new DefaultValidator({ fastPath: false, maxDepth: 4 }).compile(
    schema,
  );
  const planned = plan(schema);
  assert.equal(planned.standalone, true);
  const alone = compiledSchema({
    schema,
    dialect: D2020,
    evaluate: undefined,
    planFast: undefined,
    plan: planned,
    trusted: new Map(),
    formatAssertion: false,
    maxDepth: 4,
  });
  const values = [{ n: 1 }, { n: 0, tags: ["z"] }, {}, { n: 2, f: () => 1 }, [[[[[1]]]]]];
  // The same answer and failures (Hyperjump's result computes them when read).
  const answer = (result: CheckResult) =>
    result.valid ? result : { valid: false, failures: result.failures };
  for (const value of values) {
    assert.deepEqual(
      outcome(() => answer(alone.check(value))),
      outcome(() => answer(withHyperjump.check(value))),
    );
  }
  const asserted = outcome(() => alone.assert({ n: 0 }, "input")) as unknown;
  assert.ok(typeof asserted === "string" && asserted.startsWith("threw SchemaValidationError"));
  try {
    alone.assert({ n: 0 }, "input");
  } catch (error) {
    assert.ok(error instanceof SchemaValidationError);
    assert.match(error.message, /must be >= 1/);
  }
  // Without Hyperjump, a plan must be standalone.
  assert.throws(() =>
    compiledSchema({
      schema: { items: { $ref: "#" } },
      dialect: D2020,
      evaluate: undefined,
      planFast: undefined,
      plan: plan({ items: { $ref: "#" } }),
      trusted: new Map(),
      formatAssertion: false,
      maxDepth: 4,
    }), TypeError);
});

Deno.test("property names: the same failures, and the same error on a lone surrogate", async () => {
  const schema = {
    additionalProperties: false,
    properties: { a: { type: "string" } },
    propertyNames: { maxLength: 0 },
  } as JsonSchema;
  const fast = await new DefaultValidator().compile(schema);
  const slow = await new DefaultValidator({ fastPath: false }).compile(schema);
  const values = [{ "\uD800": 1 }, { a: { "\uDC00x": 1 } }, { a: 1, "b\uD800": 2 }, { "x y": 1 }];
  for (const value of values) {
    const ours = outcome(() => (fast.check(value) as { failures: unknown }).failures);
    assert.deepEqual(ours, outcome(() => (slow.check(value) as { failures: unknown }).failures));
  }
  // Hyperjump cannot write the location of a lone surrogate (URI malformed): neither can we.
  assert.match(
    String(outcome(() => (fast.check({ "\uD800": 1 }) as { failures: unknown }).failures)),
    /InvalidSchemaError.*URI malformed/,
  );
});
