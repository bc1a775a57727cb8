import assert from "node:assert/strict";
import { getAllRegisteredSchemaUris } from "@hyperjump/json-schema/draft-2020-12";
import {
  DefaultValidator,
  ExternalRefError,
  formatFailures,
  InstanceDepthError,
  InvalidSchemaError,
  type JsonSchema,
  SchemaValidationError,
  type Tool,
  UnsupportedSchemaError,
  type ValidationFailure,
} from "../../model/mod.ts";

const D7 = "http://json-schema.org/draft-07/schema#";
const D7_ALT = "http://json-schema.org/draft-07/schema";

async function failures(v: DefaultValidator, schema: JsonSchema, value: unknown) {
  const result = (await v.compile(schema)).check(value);
  return result.valid ? [] : result.failures;
}
const valid = async (v: DefaultValidator, schema: JsonSchema, value: unknown) =>
  (await failures(v, schema, value)).length === 0;

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null) {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

Deno.test("no $schema validates with 2020-12 semantics (prefixItems, $defs)", async () => {
  const v = new DefaultValidator();
  const schema = {
    type: "array",
    prefixItems: [{ type: "string" }, { $ref: "#/$defs/n" }],
    items: false,
    $defs: { n: { type: "number" } },
  };
  assert.equal(await valid(v, schema, ["a", 1]), true);
  assert.equal(await valid(v, schema, ["a", "b"]), false);
  assert.equal(await valid(v, schema, ["a", 1, 2]), false);
  assert.equal((await v.compile(schema)).dialect, "https://json-schema.org/draft/2020-12/schema");
});

Deno.test("2020-12 rejects draft-07's array form of items as an invalid schema", async () => {
  await assert.rejects(
    new DefaultValidator().compile({ type: "array", items: [{ type: "string" }] }),
    (e) => e instanceof InvalidSchemaError && /\/items: must be object or boolean/.test(e.message),
  );
});

for (const dialect of [D7, D7_ALT]) {
  Deno.test(`draft-07 (${dialect}) gets draft-07 semantics: items arrays, definitions, dependencies`, async () => {
    const v = new DefaultValidator();
    const tuple = { $schema: dialect, items: [{ type: "string" }], additionalItems: false };
    assert.equal(await valid(v, tuple, ["a"]), true);
    assert.equal(await valid(v, tuple, ["a", "b"]), false);
    const defs = {
      $schema: dialect,
      properties: { a: { $ref: "#/definitions/pos" } },
      definitions: { pos: { type: "integer", minimum: 1 } },
    };
    assert.equal(await valid(v, defs, { a: 2 }), true);
    assert.equal(await valid(v, defs, { a: 0 }), false);
    const deps = {
      $schema: dialect,
      dependencies: { card: ["billing"], vip: { required: ["level"] } },
    };
    assert.equal(await valid(v, deps, { card: 1, billing: 2 }), true);
    assert.deepEqual((await failures(v, deps, { card: 1 })).map((f) => f.message), [
      "must have property 'billing' when property 'card' is present",
    ]);
    assert.equal(await valid(v, deps, { vip: true }), false);
    assert.equal((await v.compile(deps)).dialect, D7_ALT);
  });
}

Deno.test("an unsupported $schema is UnsupportedSchemaError naming it and the supported ones", async () => {
  for (const dialect of ["https://json-schema.org/draft/2019-09/schema", "http://example.com/x"]) {
    await assert.rejects(new DefaultValidator().compile({ $schema: dialect }), (e) => {
      assert.ok(e instanceof UnsupportedSchemaError);
      assert.equal(e.code, "unsupported_schema");
      assert.equal(e.dialect, dialect);
      assert.deepEqual(e.supported.slice(0, 3), [
        "https://json-schema.org/draft/2020-12/schema",
        D7,
        D7_ALT,
      ]);
      return true;
    });
  }
});

Deno.test("trusted documents resolve $ref without retrieval", async () => {
  const v = new DefaultValidator({
    schemas: {
      "https://example.com/common.json": {
        $defs: { email: { type: "string", pattern: "@" } },
      },
    },
  });
  const schema = {
    type: "object",
    properties: { to: { $ref: "https://example.com/common.json#/$defs/email" } },
  };
  assert.equal(await valid(v, schema, { to: "a@b" }), true);
  const [f] = await failures(v, schema, { to: "nope" });
  assert.equal(f.absoluteKeywordLocation, "https://example.com/common.json#/$defs/email/pattern");
  assert.equal(f.message, 'must match pattern "@"');
});

Deno.test("a $schema naming a trusted meta-schema built on 2020-12 or draft-07 is honoured", async () => {
  const meta2020 = {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    $id: "https://example.com/meta/2020",
    $vocabulary: {
      "https://json-schema.org/draft/2020-12/vocab/core": true,
      "https://json-schema.org/draft/2020-12/vocab/applicator": true,
      "https://json-schema.org/draft/2020-12/vocab/validation": true,
    },
    $dynamicAnchor: "meta",
    allOf: [{ $ref: "https://json-schema.org/draft/2020-12/schema" }],
  };
  const meta07 = {
    $schema: D7,
    $id: "https://example.com/meta/07",
    allOf: [{ $ref: D7_ALT }],
  };
  const v = new DefaultValidator({
    schemas: { "https://example.com/meta/2020": meta2020, "https://example.com/meta/07": meta07 },
  });
  const s2020 = { $schema: "https://example.com/meta/2020", prefixItems: [{ type: "string" }] };
  assert.equal(await valid(v, s2020, [1]), false);
  assert.equal(await valid(v, s2020, ["a"]), true);
  const s07 = { $schema: "https://example.com/meta/07", items: [{ type: "string" }] };
  assert.equal(await valid(v, s07, [1]), false);
  assert.equal(await valid(v, s07, ["a"]), true);
  assert.equal((await v.compile(s07)).dialect, "https://example.com/meta/07");
  const other = new DefaultValidator({
    schemas: {
      "https://example.com/meta/2019": { $schema: "https://json-schema.org/draft/2019-09/schema" },
    },
  });
  await assert.rejects(
    other.compile({ $schema: "https://example.com/meta/2019" }),
    UnsupportedSchemaError,
  );
});

Deno.test("external $ref is ExternalRefError and the server sees zero requests", async () => {
  let requests = 0;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () => {
    requests++;
    return Response.json({ type: "string" });
  });
  try {
    const base = `http://127.0.0.1:${server.addr.port}`;
    // Prove the server answers, so zero requests below means nothing was tried.
    assert.equal((await (await fetch(`${base}/probe.json`)).json()).type, "string");
    requests = 0;
    const v = new DefaultValidator();
    const cases: [JsonSchema, string][] = [
      [{ $ref: `${base}/a.json` }, `${base}/a.json`],
      [{ properties: { x: { $ref: `${base}/b.json#/$defs/y` } } }, `${base}/b.json#/$defs/y`],
      [{ $id: `${base}/root.json`, $ref: "c.json" }, "c.json"],
      [
        {
          $schema: D7,
          properties: { x: { $ref: "#/definitions/a" } },
          definitions: { a: { $ref: `${base}/d.json` } },
        },
        `${base}/d.json`,
      ],
      [{ $ref: "urn:example:nowhere" }, "urn:example:nowhere"],
    ];
    for (const [schema, ref] of cases) {
      await assert.rejects(v.compile(schema), (e) => {
        assert.ok(e instanceof ExternalRefError, String(e));
        assert.equal(e.code, "external_ref");
        assert.equal(e.ref, ref);
        assert.ok(e.cause !== undefined);
        return true;
      });
    }
    assert.equal(requests, 0);
  } finally {
    await server.shutdown();
  }
});

Deno.test("schemas may be objects, JSON text or bytes; anything else is InvalidSchemaError", async () => {
  const v = new DefaultValidator();
  const text = '{"type":"integer"}';
  for (const s of [JSON.parse(text), text, new TextEncoder().encode(text)]) {
    assert.equal(await valid(v, s, 1), true);
    assert.equal(await valid(v, s, "1"), false);
  }
  assert.equal(await valid(v, true, 1), true);
  assert.equal(await valid(v, false, 1), false);
  for (const bad of ["", "  ", "{", "5", "null", "[]", new Uint8Array(), 5, null, []]) {
    await assert.rejects(v.compile(bad as never), InvalidSchemaError, JSON.stringify(bad));
  }
});

Deno.test("meta-schema failures name the offending keyword", async () => {
  await assert.rejects(
    new DefaultValidator().compile({ type: "object", properties: { a: { type: "strin" } } }),
    (e) => e instanceof InvalidSchemaError && e.message.includes("/properties/a/type"),
  );
  await assert.rejects(
    new DefaultValidator().compile({ type: "string", pattern: "(" }),
    /Invalid regular expression/,
  );
});

Deno.test("caller objects are never mutated (deep-frozen schema and instance)", async () => {
  const schema = deepFreeze({
    $schema: D7,
    type: "object",
    properties: { a: { type: "array", items: [{ type: "string" }] } },
    definitions: { x: { default: null } },
    required: ["a"],
  });
  const instance = deepFreeze({ a: ["x", 1], b: { c: null } });
  const before = JSON.stringify([schema, instance]);
  const v = new DefaultValidator({ schemas: deepFreeze({ "https://e.com/s": { type: "null" } }) });
  await v.validate(schema, instance);
  await assert.rejects(v.validate(schema, { a: [1] }), SchemaValidationError);
  assert.equal(JSON.stringify([schema, instance]), before);
});

Deno.test("equal schemas compile once, whatever their key order; failures are cached too", async () => {
  const v = new DefaultValidator();
  const a = await v.compile({
    type: "object",
    properties: { x: { type: "string", minLength: 1 } },
  });
  const b = await v.compile('{"properties":{"x":{"minLength":1,"type":"string"}},"type":"object"}');
  assert.equal(a, b);
  const first = await v.compile({ $ref: "https://nowhere.example/x" }).catch((e) => e);
  const second = await v.compile({ $ref: "https://nowhere.example/x" }).catch((e) => e);
  assert.ok(first instanceof ExternalRefError);
  assert.equal(first, second);
});

Deno.test("compiling leaves Hyperjump's registry as it was, so compile cost cannot grow", async () => {
  const v = new DefaultValidator({ schemas: { "https://e.com/t": { type: "string" } } });
  const before = getAllRegisteredSchemaUris().length;
  for (let i = 0; i < 50; i++) {
    await v.compile({ properties: { [`p${i}`]: { $ref: "https://e.com/t" } } });
  }
  await v.compile({ $ref: "https://nowhere.example/x" }).catch(() => {});
  assert.equal(getAllRegisteredSchemaUris().length, before);
});

Deno.test("concurrent validations with many schemas give the right answers", async () => {
  const v = new DefaultValidator();
  const jobs = Array.from({ length: 60 }, async (_, i) => {
    const schema = { type: "object", properties: { n: { type: "integer", minimum: i % 7 } } };
    const ok = await valid(v, schema, { n: 3 });
    return ok === 3 >= i % 7;
  });
  assert.ok((await Promise.all(jobs)).every(Boolean));
});

Deno.test("failures carry pointers, keyword and a human message", async () => {
  const v = new DefaultValidator();
  const schema = {
    type: "object",
    properties: {
      to: { type: "string" },
      age: { type: "integer", minimum: 0 },
      "a/b": { enum: ["x", "y"] },
      list: { type: "array", maxItems: 1, items: { type: "string", maxLength: 2 } },
    },
    required: ["to", "subject"],
    additionalProperties: false,
  };
  const fs = await failures(v, schema, { age: -1, "a/b": "z", list: ["abc", "d"], extra: 1 });
  const rows = fs.map((f) => [f.instanceLocation, f.keyword, f.keywordLocation, f.message]);
  assert.deepEqual(rows, [
    ["/age", "minimum", "/properties/age/minimum", "must be >= 0"],
    [
      "/a~1b",
      "enum",
      "/properties/a~1b/enum",
      'must be equal to one of the allowed values: "x", "y"',
    ],
    ["/list", "maxItems", "/properties/list/maxItems", "must NOT have more than 1 item"],
    [
      "/list/0",
      "maxLength",
      "/properties/list/items/maxLength",
      "must NOT have more than 2 characters",
    ],
    ["", "required", "/required", "must have required property 'to'"],
    ["", "required", "/required", "must have required property 'subject'"],
    [
      "",
      "additionalProperties",
      "/additionalProperties",
      "must NOT have additional property 'extra'",
    ],
  ]);
  assert.equal(fs[0].absoluteKeywordLocation, "#/properties/age/minimum");
});

Deno.test("oneOf and anyOf failures summarize each branch in one failure", async () => {
  const schema = {
    oneOf: [{ type: "string", enum: ["fast", "safe"] }, {
      type: "number",
      minimum: 1,
      maximum: 10,
    }],
  };
  const [f] = await failures(new DefaultValidator(), schema, 11);
  assert.equal(f.keyword, "oneOf");
  assert.equal(
    f.message,
    'must match exactly one schema in oneOf ([0] must be string, found integer, must be equal to one of the allowed values: "fast", "safe"; [1] must be <= 10)',
  );
  const [both] = await failures(new DefaultValidator(), { oneOf: [{}, { type: "integer" }] }, 1);
  assert.equal(both.message, "must match exactly one schema in oneOf, but matched more than one");
});

Deno.test("SchemaValidationError keeps the instance and formats one repairable line", async () => {
  const tool: Tool = {
    name: "send",
    namespace: "mail",
    inputSchema: { type: "object", properties: { to: { type: "string" } }, required: ["to"] },
  };
  const args = { to: 5 };
  const error = await new DefaultValidator().validateInput(tool, args).catch((e) => e);
  assert.ok(error instanceof SchemaValidationError);
  assert.equal(error.code, "schema_validation");
  assert.equal(error.instance, args);
  assert.equal(
    error.message,
    'input of tool "mail:send" is invalid: /to: must be string, found integer',
  );
  assert.equal(formatFailures(error.failures), "/to: must be string, found integer");
});

Deno.test("validateInput needs a tool with an inputSchema; validateOutput skips without outputSchema", async () => {
  const v = new DefaultValidator();
  await assert.rejects(v.validateInput(undefined, {}), InvalidSchemaError);
  await assert.rejects(v.validateInput({ name: "x" } as Tool, {}), /has no inputSchema/);
  await v.validateOutput({ name: "x", inputSchema: { type: "object" } }, Symbol("anything"));
  const withOutput: Tool = {
    name: "x",
    inputSchema: { type: "object" },
    outputSchema: { type: "object", required: ["r"] },
  };
  await v.validateOutput(withOutput, { r: 1 });
  await assert.rejects(v.validateOutput(withOutput, {}), /output of tool "x" is invalid/);
});

Deno.test("instance depth is capped with InstanceDepthError instead of a stack overflow", async () => {
  const deep: Record<string, unknown> = {};
  let cur = deep;
  for (let i = 0; i < 5000; i++) cur = (cur.a = {}) as Record<string, unknown>;
  const recursive = {
    $defs: { n: { properties: { a: { $ref: "#/$defs/n" } } } },
    $ref: "#/$defs/n",
  };
  const v = new DefaultValidator();
  const compiled = await v.compile(recursive);
  assert.throws(() => compiled.check(deep), (e) => {
    assert.ok(e instanceof InstanceDepthError);
    assert.equal(e.code, "instance_too_deep");
    assert.equal(e.maxDepth, 256);
    return true;
  });
  const cyclic: Record<string, unknown> = {};
  cyclic.self = cyclic;
  assert.throws(() => compiled.check(cyclic), InstanceDepthError);
  const shallow = await new DefaultValidator({ maxDepth: 3 }).compile({});
  assert.equal(shallow.check({ a: { b: { c: 1 } } }).valid, true); // three nested objects
  assert.throws(() => shallow.check({ a: { b: { c: {} } } }), /deeper than 3 levels at \/a\/b\/c/);
});

Deno.test("values that are not JSON fail with a clear message", async () => {
  const compiled = await new DefaultValidator().compile({});
  for (
    const [value, where, what] of [
      [{ a: undefined }, "/a", "undefined"],
      [[1, () => 1], "/1", "function"],
      [{ n: NaN }, "/n", "NaN"],
      [{ d: new Date(0) }, "/d", "a Date object"],
    ] as const
  ) {
    const result = compiled.check(value);
    assert.ok(!result.valid);
    const [f] = result.failures as ValidationFailure[];
    assert.equal(f.instanceLocation, where);
    assert.equal(f.message, `must be a JSON value, found ${what}`);
  }
});

Deno.test("format is an annotation by default and asserts only on the validator that asks", async () => {
  const schema = { type: "string", format: "email" };
  const d7 = { $schema: D7, type: "string", format: "email" };
  const plain = new DefaultValidator();
  const strict = new DefaultValidator({ formatAssertion: true });
  for (let i = 0; i < 3; i++) {
    assert.equal(await valid(plain, schema, "not-an-email"), true);
    assert.equal(await valid(strict, schema, "not-an-email"), false);
    assert.equal(await valid(plain, d7, "not-an-email"), true);
    assert.equal(await valid(strict, d7, "not-an-email"), false);
  }
  assert.equal(await valid(strict, schema, "a@example.com"), true);
  assert.deepEqual((await failures(strict, schema, "x")).map((f) => f.message), [
    'must match format "email"',
  ]);
});

Deno.test("results are deterministic across runs and validators", async () => {
  const schema = { properties: { a: { type: "string" }, b: { minimum: 3 } }, required: ["c", "d"] };
  const value = { a: 1, b: 1 };
  const one = await failures(new DefaultValidator(), schema, value);
  const two = await failures(
    new DefaultValidator(),
    structuredClone(schema),
    structuredClone(value),
  );
  assert.deepEqual(one, two);
  assert.equal(one.length, 4);
});

Deno.test("a schema object changed after its first use is compiled afresh", async () => {
  const v = new DefaultValidator();
  const schema: Record<string, unknown> = { type: "string" };
  assert.equal(await valid(v, schema, "a"), true);
  schema.type = "number";
  assert.equal(await valid(v, schema, "a"), false);
  assert.equal(await valid(v, schema, 1), true);
});

Deno.test("a property name that fails propertyNames is reported at the property, as a name", async () => {
  for (const fastPath of [true, false]) {
    const compiled = await new DefaultValidator({ fastPath }).compile({
      type: "object",
      properties: { x: { propertyNames: { maxLength: 2 } } },
    });
    const result = compiled.check({ x: { abc: 1, ok: 2, "a/b~c": 3 } });
    assert.equal(result.valid, false);
    if (result.valid) continue;
    assert.deepEqual(
      result.failures.map((f) => [f.instanceLocation, f.keywordLocation, f.message]),
      [
        [
          "/x/abc",
          "/properties/x/propertyNames/maxLength",
          "property name must NOT have more than 2 characters",
        ],
        [
          "/x/a~1b~0c",
          "/properties/x/propertyNames/maxLength",
          "property name must NOT have more than 2 characters",
        ],
      ],
      `fastPath: ${fastPath}`,
    );
  }
});
