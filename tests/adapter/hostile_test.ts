// Hostile schemas and names through the adapters: `__proto__` keys
// stay data, names such as `constructor` are looked up as own entries only,
// deep nesting and `$ref` cycles end in a typed, located error, never in a
// raw RangeError or a hang. Run with the accessor Node, Bun and browsers have:
//
//   deno test --unstable-unsafe-proto --allow-read tests/adapter/hostile_test.ts
//
// (without the flag, ./_proto.ts installs the accessor for each case itself).

import assert from "node:assert/strict";
import {
  type ConvertOptions,
  decodeToolName,
  defaultRegistry,
  encodeToolName,
  geminiAdapter,
  MAX_SCHEMA_DEPTH,
  MAX_VALUE_DEPTH,
  mcpAdapter,
  openaiAdapter,
  parseToolCall,
  preflight,
  ToolNameMap,
  UnknownFormatError,
} from "../../adapter/mod.ts";
import type { CanonicalTool } from "../../adapter/mod.ts";
import { InvalidSchemaError, SchemaShapeError } from "../../model/mod.ts";
import { foreignPrototypes, withoutProtoAccessor, withProtoAccessor } from "./_proto.ts";

type Obj = Record<string, unknown>;
const registry = defaultRegistry();

const TARGETS: { name: string; to: string; options?: ConvertOptions }[] = [
  { name: "mcp", to: "mcp" },
  { name: "openai strict", to: "openai", options: { strict: true } },
  { name: "openai non-strict", to: "openai", options: { strict: false } },
  { name: "openai auto", to: "openai", options: { strict: "auto" } },
  { name: "openai-responses", to: "openai-responses" },
  { name: "anthropic strict", to: "anthropic", options: { strict: true } },
  { name: "anthropic non-strict", to: "anthropic", options: { strict: false } },
  { name: "gemini parameters", to: "gemini" },
  {
    name: "gemini parametersJsonSchema",
    to: "gemini",
    options: { geminiSchema: "parametersJsonSchema" },
  },
];

/** The input schema of a tool in any format. */
function schemaOf(tool: unknown): Obj {
  const t = tool as Obj;
  const fn = (t.function ?? t) as Obj;
  return (fn.inputSchema ?? fn.parameters ?? fn.input_schema ?? fn.parametersJsonSchema) as Obj;
}

function nameOf(tool: unknown): string {
  const t = tool as Obj;
  return ((t.function ?? t) as Obj).name as string;
}

// ---------------------------------------------------------------- __proto__

// JSON text, as a server sends it: JSON.parse makes every "__proto__" an own key.
const PROTO_TOOL = `{
  "name": "proto",
  "inputSchema": {
    "type": "object",
    "properties": {
      "__proto__": {
        "type": "object",
        "properties": { "inner": { "type": "string" } },
        "default": { "__proto__": { "polluted": true } },
        "x-meta": { "__proto__": 2 }
      },
      "plain": {
        "type": "string",
        "enum": ["a", "b"],
        "examples": [{ "__proto__": 5 }]
      },
      "fixed": { "const": { "__proto__": 3 } }
    },
    "required": ["__proto__"],
    "additionalProperties": false
  }
}`;

function protoTool(): Obj {
  return JSON.parse(PROTO_TOOL);
}

for (const target of TARGETS) {
  Deno.test(`a property named __proto__ survives conversion to ${target.name} and back where __proto__ is an accessor`, () => {
    const convert = () => {
      const out = registry.convert(protoTool(), "mcp", target.to, target.options);
      const back = registry.convert(out.tool, target.to, "mcp");
      return { out, back };
    };
    const hostile = withProtoAccessor(convert);
    const plain = withoutProtoAccessor(convert);
    // Same result whether or not assigning "__proto__" would set a prototype.
    assert.equal(JSON.stringify(hostile.out.tool), JSON.stringify(plain.out.tool));
    assert.deepEqual(hostile.out.warnings, plain.out.warnings);
    assert.equal(JSON.stringify(hostile.back.tool), JSON.stringify(plain.back.tool));
    for (const tool of [hostile.out.tool, hostile.back.tool]) {
      assert.deepEqual(foreignPrototypes(tool), [], "no object got another prototype");
      const schema = schemaOf(tool);
      const props = schema.properties as Obj;
      assert.ok(Object.hasOwn(props, "__proto__"), "the property is still there");
      assert.ok((schema.required as string[]).includes("__proto__"), "and still required");
      assert.equal(Object.getPrototypeOf(props), Object.prototype);
      assert.equal(({} as Obj).polluted, undefined);
    }
    // Nested values holding a "__proto__" key stay data wherever the target keeps them.
    const text = JSON.stringify(hostile.out.tool);
    if (target.to === "mcp") assert.deepEqual(hostile.out.tool, protoTool());
    if (text.includes('"default"')) assert.ok(text.includes('{"__proto__":{"polluted":true}}'));
    if (text.includes('"x-meta"')) assert.ok(text.includes('"x-meta":{"__proto__":2}'));
    if (text.includes('"const"')) assert.ok(text.includes('"const":{"__proto__":3}'));
    if (text.includes('"examples"')) assert.ok(text.includes('"examples":[{"__proto__":5}]'));
  });
}

Deno.test("a canonical tool with __proto__ keys converts the same with and without the accessor, in every adapter", () => {
  const canonical = (): CanonicalTool => {
    const tool = mcpAdapter.toCanonical(protoTool()).tool;
    tool.providerFields = JSON.parse('{"openai":{"__proto__":{"x":1}},"gemini":{"__proto__":1}}');
    return tool;
  };
  for (const format of registry.list()) {
    const write = () => registry.get(format).fromCanonical(canonical()).tool;
    const hostile = withProtoAccessor(write);
    assert.equal(JSON.stringify(hostile), JSON.stringify(withoutProtoAccessor(write)), format);
    assert.deepEqual(foreignPrototypes(hostile), [], format);
  }
});

Deno.test("provider fields named __proto__ survive a provider → MCP → provider round trip", () => {
  const source = JSON.parse(
    '{"name":"t","input_schema":{"type":"object"},"__proto__":{"cache":1},"cache_control":{"type":"ephemeral"}}',
  );
  const trip = () => {
    const mcp = registry.convert(source, "anthropic", "mcp").tool;
    return registry.convert(mcp, "mcp", "anthropic").tool as Obj;
  };
  const back = withProtoAccessor(trip);
  assert.ok(Object.hasOwn(back, "__proto__"));
  assert.deepEqual(back, source);
});

Deno.test("strict input normalizers keep an argument named __proto__ as data and never set a prototype", () => {
  const tool = {
    name: "t",
    inputSchema: {
      type: "object",
      properties: {
        __proto__: { type: "object", properties: { a: { type: "string" } } },
        opt: { type: "string" },
        map: { type: "object", additionalProperties: { type: "string" } },
      },
    },
  };
  const args = '{"__proto__":{"isAdmin":true},"opt":null,"map":"{\\"__proto__\\":{\\"x\\":1}}"}';
  for (const target of TARGETS.filter((t) => t.name.includes("strict") || t.to === "gemini")) {
    const normalized = withProtoAccessor(() => {
      const { normalizer } = registry.convert(JSON.parse(JSON.stringify(tool)), "mcp", target.to, {
        ...target.options,
        strict: target.to === "gemini" ? undefined : true,
      });
      return normalizer.normalize(JSON.parse(args)) as Obj;
    });
    assert.ok(Object.hasOwn(normalized, "__proto__"), target.name);
    assert.equal(normalized.isAdmin, undefined, target.name);
    assert.deepEqual(foreignPrototypes(normalized), [], target.name);
  }
});

// -------------------------------------------------------------------- names

const INHERITED = ["__proto__", "constructor", "toString", "hasOwnProperty", "valueOf"];

Deno.test("inherited names are unknown formats in the registry, preflight and the name functions", () => {
  for (const name of INHERITED) {
    assert.equal(registry.has(name), false, name);
    assert.throws(() => registry.get(name), UnknownFormatError, name);
    assert.throws(() => registry.convert({ name: "t" }, name, "mcp"), UnknownFormatError, name);
    assert.throws(() => registry.convert(protoTool(), "mcp", name), UnknownFormatError, name);
    assert.throws(() => preflight([], name), UnknownFormatError, name);
    assert.throws(() => preflight([{ name: "t" }], name), UnknownFormatError, name);
    assert.throws(() => encodeToolName("t", name), UnknownFormatError, name);
    assert.throws(() => decodeToolName("t", name), UnknownFormatError, name);
    assert.throws(() => new ToolNameMap(["t"], name), UnknownFormatError, name);
  }
});

function callFor(format: string, providerName: string): unknown {
  switch (format) {
    case "openai":
      return { id: "c1", type: "function", function: { name: providerName, arguments: "{}" } };
    case "openai-responses":
      return { type: "function_call", call_id: "c1", name: providerName, arguments: "{}" };
    case "anthropic":
      return { type: "tool_use", id: "c1", name: providerName, input: {} };
    case "gemini":
      return { functionCall: { name: providerName, args: {} } };
    default:
      return { name: providerName, arguments: {} };
  }
}

for (const name of INHERITED.filter((n) => n !== "hasOwnProperty")) {
  for (const namespace of [undefined, "constructor"]) {
    const id = namespace === undefined ? name : `${namespace}:${name}`;
    Deno.test(`a tool with ID ${id} converts to every format and its calls decode`, () => {
      const tool: Obj = {
        name,
        ...(namespace === undefined ? {} : { namespace }),
        inputSchema: { type: "object", properties: { toString: { type: "string" } } },
      };
      for (const target of TARGETS) {
        const out = registry.convert(tool, "mcp", target.to, target.options);
        const back = registry.convert(out.tool, target.to, "mcp").tool as Obj;
        assert.equal(back.name, name, target.name);
        assert.equal(back.namespace, namespace, target.name);
        const providerName = nameOf(out.tool);
        // An MCP call names the tool without its namespace.
        const expected = target.to === "mcp" ? name : id;
        const names = target.to === "mcp" ? undefined : new ToolNameMap([id], target.to);
        if (names !== undefined) assert.equal(names.toCanonical(providerName), id);
        for (const options of [{}, { names }, { normalizers: {} }, { names, normalizers: {} }]) {
          const call = parseToolCall(callFor(target.to, providerName), options);
          assert.equal(call.toolId, expected, target.name);
          assert.deepEqual(call.arguments, {});
        }
        const own = parseToolCall(callFor(target.to, providerName), {
          names,
          normalizers: {
            [expected]: { identity: false, normalize: () => "own", denormalize: (a) => a },
          },
        });
        assert.equal(own.arguments, "own");
      }
    });
  }
}

Deno.test("a property named constructor is optional and nullable in OpenAI strict mode like any other", () => {
  const tool = {
    name: "t",
    inputSchema: {
      type: "object",
      properties: { constructor: { type: "string" }, toString: { type: "integer" } },
      required: ["toString"],
    },
  };
  const { tool: out, normalizer } = registry.convert(tool, "mcp", "openai", { strict: true });
  const params = schemaOf(out);
  assert.deepEqual(params.required, ["constructor", "toString"]);
  assert.deepEqual((params.properties as Obj).constructor, { type: ["string", "null"] });
  assert.deepEqual(normalizer.normalize({ constructor: null, toString: 1 }), { toString: 1 });
  assert.deepEqual(normalizer.denormalize({ toString: 1 }), { toString: 1, constructor: null });
});

// -------------------------------------------------------------------- depth

function nested(levels: number, leaf: unknown = { type: "string" }): Obj {
  let schema = leaf as Obj;
  for (let i = 0; i < levels; i++) schema = { type: "object", properties: { a: schema } };
  return schema;
}

/** Runs `fn`, which must throw a SchemaShapeError, and returns it. */
function structureError(fn: () => unknown, message?: string): SchemaShapeError {
  try {
    fn();
  } catch (error) {
    if (error instanceof SchemaShapeError) {
      assert.ok(error instanceof InvalidSchemaError);
      assert.equal(error.code, "invalid_schema");
      return error;
    }
    throw error;
  }
  assert.fail(`expected a SchemaShapeError${message ? ` (${message})` : ""}`);
}

const A = "/properties/a";

Deno.test("a 10,000-level nested schema is refused by every conversion with a located error", () => {
  const tool = { name: "deep", inputSchema: nested(10_000) };
  for (const target of TARGETS) {
    const error = structureError(
      () => registry.convert(tool, "mcp", target.to, target.options),
      target.name,
    );
    assert.equal(error.problem, "depth");
    assert.ok(error.keywordLocation.startsWith(`/inputSchema${A}${A}`), error.keywordLocation);
    assert.ok(error.message.length < 600, "the message is short; the pointer is in .pointer");
  }
});

Deno.test("a 10,000-level nested schema in each provider format is refused where it is read", () => {
  const deep = nested(10_000);
  const openapi = JSON.parse(JSON.stringify(deep).replaceAll('"object"', '"OBJECT"'));
  const cases: [string, unknown, string][] = [
    ["openai", { type: "function", function: { name: "d", parameters: deep } }, "/function"],
    ["openai-responses", { type: "function", name: "d", parameters: deep }, ""],
    ["anthropic", { name: "d", input_schema: deep }, "/input_schema"],
    ["gemini", { name: "d", parameters: openapi }, "/parameters"],
    ["gemini", { name: "d", parametersJsonSchema: deep }, "/parametersJsonSchema"],
  ];
  for (const [format, tool, prefix] of cases) {
    const error = structureError(() => registry.convert(tool, format, "mcp"), format);
    const at = prefix === ""
      ? "/parameters"
      : prefix.startsWith("/function")
      ? `${prefix}/parameters`
      : prefix;
    assert.ok(
      error.keywordLocation.startsWith(`${at}${A}${A}`),
      `${format}: ${error.keywordLocation.slice(0, 80)}`,
    );
  }
});

Deno.test(`schemas just inside ${MAX_SCHEMA_DEPTH} levels convert to every target and back`, () => {
  const tool = { name: "deep", inputSchema: nested(MAX_SCHEMA_DEPTH - 12) };
  for (const target of TARGETS) {
    const out = registry.convert(tool, "mcp", target.to, target.options);
    registry.convert(out.tool, target.to, "mcp");
  }
});

Deno.test("the schema depth limit is exact and reported at the first schema beyond it (Gemini)", () => {
  // The root is level 1; nested(n) has n + 1 schema levels.
  registry.convert({ name: "d", inputSchema: nested(MAX_SCHEMA_DEPTH - 1) }, "mcp", "gemini");
  const error = structureError(() =>
    registry.convert({ name: "d", inputSchema: nested(MAX_SCHEMA_DEPTH) }, "mcp", "gemini")
  );
  assert.equal(error.limit, MAX_SCHEMA_DEPTH);
  assert.equal(error.keywordLocation, `/inputSchema${A.repeat(MAX_SCHEMA_DEPTH)}`);
});

Deno.test("a long chain of definitions inlined for Gemini is refused at the depth limit, kept elsewhere", () => {
  const defs: Obj = {};
  const n = 3000;
  for (let i = 0; i < n; i++) {
    defs[`d${i}`] = {
      type: "object",
      properties: { x: i + 1 < n ? { $ref: `#/$defs/d${i + 1}` } : { type: "string" } },
    };
  }
  const tool = {
    name: "chain",
    inputSchema: { type: "object", properties: { r: { $ref: "#/$defs/d0" } }, $defs: defs },
  };
  const error = structureError(() => registry.convert(tool, "mcp", "gemini"));
  assert.equal(error.problem, "depth");
  assert.match(error.keywordLocation, /^\/inputSchema\/\$defs\/d\d+$/);
  for (const target of TARGETS.filter((t) => t.to !== "gemini" || t.options !== undefined)) {
    registry.convert(tool, "mcp", target.to, target.options);
  }
});

Deno.test("a value nested deeper than the value limit is refused with its pointer", () => {
  let value: unknown = 1;
  for (let i = 0; i < 3000; i++) value = [value];
  const tool = { name: "v", inputSchema: { type: "object", default: value } };
  for (const target of TARGETS) {
    const error = structureError(() => registry.convert(tool, "mcp", target.to, target.options));
    assert.equal(error.limit, MAX_VALUE_DEPTH);
    // The schema is level 1 and the default 2, so the array at level MAX_VALUE_DEPTH + 1,
    // below MAX_VALUE_DEPTH - 1 others, is the first refused.
    const inner = "/0".repeat(MAX_VALUE_DEPTH - 1);
    assert.equal(error.keywordLocation, `/inputSchema/default${inner}`);
  }
});

Deno.test("preflight reports a 10,000-level schema as too_deep instead of overflowing the stack", () => {
  const deep = nested(10_000);
  const openapi = JSON.parse(JSON.stringify(deep).replaceAll('"object"', '"OBJECT"'));
  const cases: [unknown, string][] = [
    [{ type: "function", function: { name: "d", parameters: deep, strict: true } }, "openai"],
    [{ type: "function", function: { name: "d", parameters: deep } }, "openai"],
    [{ name: "d", input_schema: deep, strict: true }, "anthropic"],
    [{ name: "d", parameters: openapi }, "gemini"],
    [{ name: "d", parametersJsonSchema: deep }, "gemini"],
  ];
  for (const [tool, target] of cases) {
    const problems = preflight([tool], target).filter((p) => p.code === "too_deep");
    assert.equal(problems.length, 1, target);
    assert.ok(problems[0].path.endsWith(A.repeat(3)), problems[0].path.slice(-40));
  }
});

Deno.test("a hostile canonical tool given to fromCanonical directly converts or ends in a typed error, never a RangeError", () => {
  // 100,000 levels of nested definitions, never referenced, and an anchor
  // reference that makes the resolver index the whole document.
  let defs: Obj = { type: "string", $anchor: "leaf" };
  for (let i = 0; i < 100_000; i++) defs = { $defs: { d: defs } };
  let allOf: Obj = { type: "string" };
  for (let i = 0; i < 100_000; i++) allOf = { allOf: [allOf] };
  const schemas: Obj[] = [
    { type: "object", properties: { x: { $ref: "#leaf" } }, ...defs },
    { type: "object", properties: { x: { $ref: "#/$defs/d" } }, $defs: { d: allOf } },
    { type: "object", properties: { x: allOf } },
  ];
  for (const inputSchema of schemas) {
    for (const format of registry.list()) {
      const adapter = registry.get(format);
      for (const options of [{}, { strict: true }]) {
        const tool = { name: "h", inputSchema } as CanonicalTool;
        try {
          adapter.fromCanonical(tool, options); // e.g. Gemini drops the allOf unread
        } catch (error) {
          assert.ok(error instanceof SchemaShapeError, `${format}: ${error}`);
        }
      }
    }
  }
});

// ------------------------------------------------------------------- cycles

const CYCLES: [string, Obj, string][] = [
  ["a → a", { $defs: { a: { $ref: "#/$defs/a" } } }, "/$defs/a/$ref"],
  [
    "a → b → a",
    { $defs: { a: { $ref: "#/$defs/b" }, b: { $ref: "#/$defs/a" } } },
    "/$defs/b/$ref",
  ],
  [
    "a → anyOf → a",
    { $defs: { a: { anyOf: [{ type: "string" }, { $ref: "#/$defs/a" }] } } },
    "/$defs/a/anyOf/1/$ref",
  ],
  [
    "a → allOf → b → not → a",
    {
      $defs: {
        a: { allOf: [{ $ref: "#/$defs/b" }] },
        b: { not: { $ref: "#/$defs/a" } },
      },
    },
    "/$defs/b/not/$ref",
  ],
  [
    "a → if/then → a",
    { $defs: { a: { if: { type: "string" }, then: { $ref: "#/$defs/a" } } } },
    "/$defs/a/then/$ref",
  ],
  [
    "anchor → itself",
    { $defs: { a: { $anchor: "self", oneOf: [{ $ref: "#self" }, { type: "null" }] } } },
    "/$defs/a/oneOf/0/$ref",
  ],
];

/** Targets that rewrite the schema (and check it); the others copy it as it is. */
const REWRITING = TARGETS.filter((t) =>
  !(t.to === "mcp" || (t.to.startsWith("openai") && t.options?.strict !== true))
);

for (const [label, extra, at] of CYCLES) {
  Deno.test(`a $ref cycle without progress (${label}) is refused by every rewriting conversion`, () => {
    const tool = {
      name: "cycle",
      inputSchema: { type: "object", properties: { x: { $ref: "#/$defs/a" } }, ...extra },
    };
    for (const target of TARGETS) {
      let result: unknown;
      try {
        result = registry.convert(tool, "mcp", target.to, target.options);
      } catch (error) {
        if (!(error instanceof InvalidSchemaError)) throw error;
        if (error instanceof SchemaShapeError) {
          assert.equal(error.problem, "cycle");
          assert.equal(error.keywordLocation, `/inputSchema${at}`, target.name);
        }
        continue;
      }
      // Copying targets pass the schema through unchanged (or refuse it).
      assert.ok(!REWRITING.includes(target), `${target.name} must refuse it`);
      assert.deepEqual(schemaOf((result as { tool: unknown }).tool), tool.inputSchema);
    }
  });
}

Deno.test("a root that applies itself in place (allOf: [{$ref: '#'}]) is refused", () => {
  const tool = { name: "r", inputSchema: { type: "object", allOf: [{ $ref: "#" }] } };
  for (const target of REWRITING) {
    const error = structureError(() => registry.convert(tool, "mcp", target.to, target.options));
    assert.equal(error.keywordLocation, "/inputSchema/allOf/0/$ref", target.name);
  }
});

Deno.test("recursion that makes progress (a linked list, a tree through items) still converts everywhere", () => {
  const list = {
    name: "list",
    inputSchema: {
      type: "object",
      properties: { head: { $ref: "#/$defs/node" } },
      $defs: {
        node: {
          type: "object",
          properties: { value: { type: "string" }, next: { $ref: "#/$defs/node" } },
          anyOf: [{ required: ["value"] }, { required: ["next"] }],
        },
      },
    },
  };
  const tree = {
    name: "tree",
    inputSchema: {
      type: "object",
      properties: { children: { type: "array", items: { $ref: "#" } } },
    },
  };
  for (const tool of [list, tree]) {
    for (const target of TARGETS) {
      const out = registry.convert(tool, "mcp", target.to, target.options);
      registry.convert(out.tool, target.to, "mcp");
    }
  }
});

Deno.test("an OpenAI tool read back with a cycle keeps the cycle's location in the OpenAI tool", () => {
  const tool = {
    type: "function",
    function: {
      name: "c",
      parameters: {
        type: "object",
        properties: { x: { $ref: "#/$defs/a" } },
        $defs: { a: { $ref: "#/$defs/a" } },
      },
    },
  };
  const error = structureError(() => registry.convert(tool, "openai", "gemini"));
  assert.equal(error.keywordLocation, "/function/parameters/$defs/a/$ref");
  const direct = structureError(() =>
    geminiAdapter.fromCanonical(openaiAdapter.toCanonical(tool).tool)
  );
  assert.equal(direct.keywordLocation, "/inputSchema/$defs/a/$ref");
});

// ------------------------------------------------------------------- effort

/** `d0 … d(n-1)`, each an `anyOf` of the next one twice: 2^n routes, n + 1 schemas. */
function sharedDag(n: number): Obj {
  const defs: Obj = {};
  for (let i = 0; i < n; i++) {
    const next = { $ref: `#/$defs/d${i + 1}` };
    defs[`d${i}`] = { anyOf: [next, { ...next }, { type: "integer" }] };
  }
  defs[`d${n}`] = { type: "object", additionalProperties: { type: "string" } };
  return { type: "object", properties: { p: { $ref: "#/$defs/d0" } }, $defs: defs };
}

// Generous bounds: on an idle machine these take milliseconds; the exponential
// behaviour they guard against takes hours.
const WITHIN_MS = 10_000;

Deno.test("references shared under anyOf (2^40 routes) are refused by convert like the validator refuses them", () => {
  const tool = { name: "dag", inputSchema: sharedDag(40) };
  for (const target of TARGETS) {
    const started = performance.now();
    const error = structureError(() => registry.convert(tool, "mcp", target.to, target.options));
    assert.equal(error.problem, "size");
    const took = performance.now() - started;
    assert.ok(took < WITHIN_MS, `${target.name} took ${took.toFixed(0)} ms`);
  }
});

Deno.test("references shared under anyOf (2^40 routes) convert in the adapters without exploring every route", () => {
  const canonical =
    registry.get("mcp").toCanonical({ name: "dag", inputSchema: sharedDag(40) }).tool;
  for (const target of TARGETS) {
    const started = performance.now();
    const out = registry.get(target.to).fromCanonical(canonical, target.options);
    out.normalizer.normalize({ p: 5 });
    out.normalizer.normalize({ p: '{"a":"b"}' });
    preflight([out.tool], target.to);
    const took = performance.now() - started;
    assert.ok(took < WITHIN_MS, `${target.name} took ${took.toFixed(0)} ms`);
  }
});

Deno.test("the strict normalizer checks deeply nested arguments against shared branches once", () => {
  const node = (t: string) => ({
    type: "object",
    properties: { x: { $ref: "#/$defs/node" }, a: { type: t } },
    required: ["x", "a"],
    additionalProperties: false,
  });
  const tool = {
    name: "nest",
    inputSchema: {
      type: "object",
      properties: {
        root: { $ref: "#/$defs/node" },
        map: { type: "object", additionalProperties: { type: "string" } },
      },
      $defs: { node: { anyOf: [node("string"), node("integer"), { type: "null" }] } },
    },
  };
  const { normalizer } = registry.convert(tool, "mcp", "openai", { strict: true });
  // Each level matches the first branch but for its leaf, which matches none:
  // without memory, both branches re-check the whole rest at every level (2^40).
  let value: unknown = true;
  for (let i = 0; i < 40; i++) value = { x: value, a: "s" };
  const started = performance.now();
  assert.deepEqual(normalizer.normalize({ root: value, map: '{"k":"v"}' }), {
    root: value,
    map: { k: "v" },
  });
  assert.ok(performance.now() - started < WITHIN_MS);
});

Deno.test("a chain of 20,000 kept definitions under a nullable anyOf converts (no stack overflow)", () => {
  const defs: Obj = {};
  const n = 20_000;
  for (let i = 0; i < n; i++) {
    defs[`d${i}`] = {
      type: "object",
      properties: {
        x: i + 1 < n
          ? { $ref: `#/$defs/d${i + 1}` }
          : { type: "object", additionalProperties: { type: "string" } },
      },
      required: ["x"],
      additionalProperties: false,
    };
  }
  const tool = {
    name: "chain",
    inputSchema: {
      type: "object",
      properties: { r: { anyOf: [{ $ref: "#/$defs/d0" }, { type: "string" }] } },
      $defs: defs,
    },
  };
  for (const target of TARGETS) {
    try {
      const out = registry.convert(tool, "mcp", target.to, target.options);
      assert.deepEqual(out.normalizer.normalize({ r: "text" }), { r: "text" });
    } catch (error) {
      // Gemini inlines definitions: 20,000 levels are refused at the depth limit.
      assert.ok(error instanceof SchemaShapeError && target.to === "gemini", String(error));
    }
  }
});
