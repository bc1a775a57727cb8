// The failures a compiled schema gives (its answer, then each failure's
// instance and keyword locations, keyword and message, in order, or the error
// it throws) are those of the same schema with the fast path off (Hyperjump's
// DETAILED output): on every real MCP tool schema of the bench corpus and on
// every case of the JSON Schema Test Suite copy vendored in tests/fixtures,
// with values derived from each, read on the first failures read (Hyperjump's
// units) and on later ones (the generated code); and on the values where the
// fast failures take shortcuts: pointers known well formed, repeats dropped
// only where there can be any, the walk of a refused value by its named
// members.
import assert from "node:assert/strict";
import { isDeepStrictEqual } from "node:util";
import { type CompiledSchema, DefaultValidator, type JsonSchema } from "../../model/mod.ts";
import { corpus } from "../../bench/_validator_corpus.ts";
import { VENDORED_SUITE_DIR } from "../conformance/_suite_dir.ts";

const D2020 = "https://json-schema.org/draft/2020-12/schema";
const D07 = "http://json-schema.org/draft-07/schema#";

/** The answer to a value: valid, the failures, or the error thrown. */
function answer(compiled: CompiledSchema, value: unknown): unknown {
  try {
    const result = compiled.check(value);
    return result.valid ? { valid: true } : { valid: false, failures: result.failures };
  } catch (error) {
    return { threw: (error as Error)?.constructor?.name, message: (error as Error)?.message };
  }
}

/** Both validators' compiled schema, or undefined when either refuses the schema. */
async function both(
  schema: unknown,
): Promise<{ fast: CompiledSchema; slow: CompiledSchema } | undefined> {
  try {
    // Validators of their own: a cached equal schema with another key order
    // would report its keywords in that order.
    const fast = await new DefaultValidator().compile(schema as JsonSchema);
    const slow = await new DefaultValidator({ fastPath: false }).compile(schema as JsonSchema);
    return { fast, slow };
  } catch {
    return undefined;
  }
}

/**
 * Compares the answers to each value, each value checked and its failures
 * read twice (the first failures read of a schema takes Hyperjump's units,
 * the later ones its generated code); returns how many values failed.
 */
function compare(
  pair: { fast: CompiledSchema; slow: CompiledSchema },
  values: unknown[],
  where: string,
): number {
  let failing = 0;
  for (const value of values) {
    const expected = answer(pair.slow, value);
    for (let read = 0; read < 2; read++) {
      const actual = answer(pair.fast, value);
      if (!isDeepStrictEqual(actual, expected)) {
        assert.fail(
          `${where}, read ${read + 1}, on ${JSON.stringify(value)}:\n` +
            `${JSON.stringify(actual)}\n${JSON.stringify(expected)}`,
        );
      }
    }
    if ((expected as { valid?: boolean }).valid === false) failing++;
  }
  return failing;
}

/** Values derived from one: each member broken, removed, or joined by strays (odd names too). */
function variants(value: unknown): unknown[] {
  const out: unknown[] = [value, null, 7, 1.5, "text", true, [], {}, [value], { value }];
  if (typeof value === "object" && value !== null && !Array.isArray(value)) {
    out.push({ ...value, "zz extra/~": 1 }, { ...value, "line\nbreak": 1, "x\ny": [] });
    for (const key of Object.keys(value)) {
      for (const wrong of [null, 12345.5, "x", [], { "y z": [1] }, true, { "a\nb": 1 }]) {
        out.push({ ...value, [key]: wrong });
      }
      const { [key]: _, ...rest } = value as Record<string, unknown>;
      out.push(rest);
    }
  }
  return out;
}

Deno.test("real MCP tool schemas: every answer and failure is the fast path off's, read after read", async () => {
  const { real, seeds } = await corpus();
  let schemas = 0, failing = 0;
  for (const c of [...seeds, ...real]) {
    const pair = await both(c.schema);
    if (pair === undefined) continue;
    schemas++;
    failing += compare(pair, [...variants(c.valid), ...variants(c.invalid)], c.name);
  }
  assert.ok(schemas > 1000, `only ${schemas} schemas`);
  assert.ok(failing > 30_000, `only ${failing} failing values compared`);
});

interface Group {
  description: string;
  schema: unknown;
  tests: { data: unknown }[];
}

Deno.test("the JSON Schema Test Suite (vendored): every answer and failure is the fast path off's", async () => {
  let schemas = 0, failing = 0;
  for (const [name, dialect] of [["draft2020-12", D2020], ["draft7", D07]] as const) {
    const dir = `${VENDORED_SUITE_DIR}/tests/${name}`;
    for await (const entry of Deno.readDir(dir)) {
      if (!entry.isFile || !entry.name.endsWith(".json")) continue;
      const groups = JSON.parse(await Deno.readTextFile(`${dir}/${entry.name}`)) as Group[];
      for (const group of groups) {
        const schema = typeof group.schema === "object" && group.schema !== null &&
            !("$schema" in group.schema)
          ? { $schema: dialect, ...group.schema }
          : group.schema;
        const pair = await both(schema);
        if (pair === undefined) continue;
        schemas++;
        const values = [...group.tests.map((t) => t.data), ...variants(group.tests[0]?.data)];
        failing += compare(pair, values, `${name}/${entry.name} | ${group.description}`);
      }
    }
  }
  assert.ok(schemas > 500, `only ${schemas} schemas`);
  assert.ok(failing > 4_000, `only ${failing} failing values compared`);
});

Deno.test("a member name with a lone surrogate: the same error as Hyperjump's, wherever it is", async () => {
  const pair = (await both({
    type: "object",
    properties: {
      a: { type: "object", properties: { b: { type: "string" } }, additionalProperties: false },
    },
    additionalProperties: { type: "string" },
    propertyNames: { maxLength: 3 },
  }))!;
  const values = [
    { "\ud800": 1 },
    { "\ud800": "ok" },
    { a: { "\udc00": 1 } },
    { a: { b: 1 }, "x\udc00y": 1 },
    { a: { b: 1 } },
    { "long\ud800": "x" },
  ];
  compare(pair, values, "lone surrogates");
  // Hyperjump's URIError, typed as the validator types its errors.
  assert.match(
    JSON.stringify(answer(pair.fast, { "\ud800": 1 })),
    /"threw":"InvalidSchemaError".*URI malformed/,
  );
});

Deno.test("repeats: dropped where references repeat a failure, kept apart where line breaks differ", async () => {
  const repeated = (await both({
    $defs: { s: { type: "string" } },
    allOf: [{ $ref: "#/$defs/s" }, { $ref: "#/$defs/s" }],
    properties: { a: { $ref: "#/$defs/s" } },
  }))!;
  compare(repeated, [1, { a: 1 }, "x"], "repeated references");
  assert.equal((answer(repeated.fast, 1) as { failures: unknown[] }).failures.length, 1);
  // Extra members whose names hold line breaks: each its own failure, as Hyperjump gives them.
  const closed = (await both({ type: "object", additionalProperties: false }))!;
  const names = ["a\nb", "a", "b\na", "\n", "\n\n"];
  const value = Object.fromEntries(names.map((n) => [n, 1]));
  compare(closed, [value, { "x\ny": { "x\ny": 1 } }], "extra members with line breaks");
  const newlineKeys = (await both({
    properties: { "a\nb": { type: "string" }, a: { properties: { b: { type: "string" } } } },
    patternProperties: { "^b": { type: "number" } },
  }))!;
  compare(newlineKeys, [{ "a\nb": 1, a: { b: 1 }, "b\nc": "x" }], "schema names with line breaks");
});

Deno.test("a refused value walked by its named members: not JSON, inherited, polluted, hidden, too deep", async () => {
  const schema = {
    type: "object",
    properties: { a: { type: "string" }, toString: { type: "string" }, b: {} },
    required: ["a"],
  };
  const pair = (await both(schema))!;
  const hidden = { a: 1 };
  Object.defineProperty(hidden, "c", { value: undefined, enumerable: false });
  let deep: unknown = 1;
  for (let i = 0; i < 70; i++) deep = { b: deep };
  const values: unknown[] = [
    { a: 1 },
    { a: undefined },
    { a: 1, b: undefined },
    { a: 1, b: NaN },
    { a: 1, b: () => 1 },
    { a: 1, b: new Date(0) },
    { a: 1, toString: 1 },
    { a: 1, c: undefined },
    Object.create({ a: 1 }),
    Object.assign(Object.create(null), { a: 1 }),
    hidden,
    { a: 1, b: deep },
    { a: 1, b: [1, [undefined]] },
  ];
  compare(pair, values, "refused values");
  // A name the schema declares, inherited from a polluted Object.prototype:
  // not a member of the value (which, here, is not JSON).
  const plain = (await both({ properties: { a: { type: "string" }, b: {} }, required: ["a"] }))!;
  const proto = Object.prototype as Record<string, unknown>;
  proto.a = "inherited";
  try {
    const values = [{ b: 1, c: undefined }, { c: undefined }, {}, { b: 1 }];
    compare(pair, values, "polluted Object.prototype");
    compare(plain, values, "polluted Object.prototype");
  } finally {
    delete proto.a;
  }
});

Deno.test("missing and extra members with odd names (quotes, line breaks, lone surrogates, prototype names): the fast path off's failures", async () => {
  // Names a literal could get wrong: quotes, a backslash, line breaks (whose
  // failures are looked at for repeats), lone surrogates (whose location
  // cannot be URI-encoded: the same error), an astral character, a
  // prototype's member, the empty name.
  const odd = [
    `q"uote`,
    "back\\slash",
    "it's",
    "line\nbreak",
    "line\nbreak ",
    "\r",
    "\u2028",
    "\ud800",
    "x\udc00",
    "\u{1F600}",
    "toString",
    "__proto__",
    "",
    "a",
  ];
  const schemas = [
    {
      $schema: D2020,
      required: odd,
      properties: { a: true },
      additionalProperties: false,
    },
    {
      $schema: D2020,
      properties: { n: { required: odd, additionalProperties: false } },
      additionalProperties: false,
    },
    { $schema: D07, required: odd, additionalProperties: false },
    { $schema: D07, type: "array", items: [true], additionalItems: false },
  ];
  for (const [s, schema] of schemas.entries()) {
    const pair = await both(schema);
    assert.ok(pair !== undefined, `schema ${s}`);
    const values: unknown[] = [{}, { a: 1 }, [1, 2, 3], { n: {} }, { n: { a: 1, b: 2 } }];
    for (const name of odd) {
      // Each stray alone, beside its twin with a line break, and nested.
      values.push({ [name]: 1 }, { [name]: 1, [name + "\n"]: 2, b: 3 }, { n: { [name]: 1 } });
      // Each listed name present but one.
      values.push(Object.fromEntries(odd.filter((n) => n !== name).map((n) => [n, 1])));
      values.push({ n: Object.fromEntries(odd.filter((n) => n !== name).map((n) => [n, 1])) });
    }
    assert.ok(compare(pair, values, `schema ${s}`) > 0);
  }
});
