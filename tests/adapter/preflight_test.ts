import assert from "node:assert/strict";
import {
  ANTHROPIC_PROFILE,
  defaultRegistry,
  OPENAI_PROFILE,
  preflight,
  type ProviderProfile,
  UnknownFormatError,
} from "../../adapter/mod.ts";
import { SEED_TOOLS } from "./_cases.ts";

const codes = (problems: { code: string; path: string }[]) =>
  problems.map((p) => `${p.code} ${p.path}`);

Deno.test("preflight reports illegal, too long and duplicate names with pointers", () => {
  const tool = (name: string) => ({
    type: "function",
    function: { name, parameters: { type: "object" } },
  });
  assert.deepEqual(
    codes(preflight([tool("a.b"), tool("x".repeat(65)), tool("ok"), tool("ok")], "openai")),
    [
      "invalid_name /0/function/name",
      "name_too_long /1/function/name",
      "duplicate_name /3/function/name",
    ],
  );
});

Deno.test("preflight reports a root that is not an object, and root combinators where they are rejected", () => {
  assert.deepEqual(
    codes(preflight([{ name: "t", input_schema: { type: "string" } }], "anthropic")),
    [
      "root_not_object /0/input_schema/type",
    ],
  );
  assert.deepEqual(
    codes(
      preflight([{ name: "t", input_schema: { type: "object", oneOf: [{}, {}] } }], "anthropic"),
    ),
    ["root_combinator /0/input_schema/oneOf"],
  );
});

Deno.test("preflight accepts non-strict OpenAI tools with any keywords", () => {
  const out = defaultRegistry().convert(SEED_TOOLS.api_request, "mcp", "openai", { strict: false });
  assert.deepEqual(preflight([out.tool], "openai"), []);
});

Deno.test("preflight finds every strict-incompatible keyword of a raw schema marked strict", () => {
  const problems = preflight([{
    type: "function",
    name: "t",
    strict: true,
    parameters: {
      type: "object",
      properties: {
        a: { type: "string", minLength: 1, format: "uri" },
        b: { $ref: "#/$defs/b", description: "x" },
      },
      required: ["a", "b"],
      additionalProperties: false,
      $defs: { b: { type: "string" } },
    },
  }], "openai-responses");
  assert.deepEqual(codes(problems), [
    "unsupported_keyword /0/parameters/properties/a/minLength",
    "unsupported_format /0/parameters/properties/a/format",
    "ref_siblings /0/parameters/properties/b",
  ]);
});

Deno.test("preflight applies the profile's size limits", () => {
  const properties: Record<string, unknown> = {};
  for (let i = 0; i < 101; i++) properties[`p${i}`] = { type: "string" };
  const tool = {
    type: "function",
    function: {
      name: "big",
      strict: true,
      parameters: {
        type: "object",
        properties,
        required: Object.keys(properties),
        additionalProperties: false,
      },
    },
  };
  assert.deepEqual(preflight([tool], "openai"), []);
  const azure: ProviderProfile = {
    ...OPENAI_PROFILE,
    strictSchema: { ...OPENAI_PROFILE.strictSchema!, limits: { maxProperties: 100, maxDepth: 5 } },
  };
  assert.deepEqual(codes(preflight([tool], "openai", { profile: azure })), [
    "limit_exceeded /0/function/parameters",
  ]);
});

Deno.test("preflight reports nesting deeper than the strict limit", () => {
  let schema: Record<string, unknown> = { type: "string" };
  for (let i = 0; i < 11; i++) {
    schema = {
      type: "object",
      properties: { x: schema },
      required: ["x"],
      additionalProperties: false,
    };
  }
  const tool = { type: "function", function: { name: "deep", strict: true, parameters: schema } };
  assert.deepEqual(codes(preflight([tool], "openai")), ["limit_exceeded /0/function/parameters"]);
});

Deno.test("preflight enforces Anthropic's request-wide strict budgets", () => {
  const tool = (i: number) => ({
    name: `t${i}`,
    strict: true,
    input_schema: {
      type: "object",
      properties: { a: { type: "string" }, u: { type: ["string", "integer"] } },
      additionalProperties: false,
    },
  });
  const tools = Array.from({ length: 21 }, (_, i) => tool(i));
  const problems = preflight(tools, "anthropic").filter((p) => p.code === "budget_exceeded");
  assert.equal(problems.length, 3);
  assert.match(problems[0].message, /strict tools .* 21; anthropic allows 20/);
  assert.match(problems[1].message, /optional parameters .* 42; anthropic allows 24/);
  assert.match(problems[2].message, /union-typed parameters .* 21; anthropic allows 16/);
  assert.deepEqual(preflight(tools.slice(0, 8), "anthropic"), []);
  assert.equal(ANTHROPIC_PROFILE.requestLimits?.maxStrictTools, 20);
});

Deno.test("preflight checks Gemini's OpenAPI subset", () => {
  const problems = preflight([{
    name: "f",
    parameters: {
      type: "OBJECT",
      properties: {
        a: { type: "string", enum: [1], additionalProperties: false },
        b: { type: "STRING", format: "uri" },
      },
      required: ["a", "c"],
    },
  }], "gemini");
  assert.deepEqual(codes(problems), [
    "invalid_type /0/parameters/properties/a/type",
    "invalid_enum /0/parameters/properties/a/enum",
    "unsupported_keyword /0/parameters/properties/a/additionalProperties",
    "unsupported_format /0/parameters/properties/b/format",
    "required_missing /0/parameters/required/1",
  ]);
  assert.deepEqual(
    codes(
      preflight([{
        name: "f",
        parametersJsonSchema: { $schema: "x", type: "object" },
        parameters: {},
      }], "gemini"),
    ),
    [
      "invalid_shape /0/parametersJsonSchema",
      "root_not_object /0/parameters/type",
      "unsupported_keyword /0/parametersJsonSchema/$schema",
    ],
  );
  assert.deepEqual(codes(preflight([{ name: "f", parameters: { type: "OBJECT" } }], "gemini")), [
    "empty_object /0/parameters/properties",
  ]);
});

Deno.test("preflight reports a nested Gemini OBJECT without properties, in parameters and response", () => {
  const empty = { type: "OBJECT", description: "free-form" };
  const problems = preflight([{
    name: "f",
    parameters: {
      type: "OBJECT",
      properties: {
        a: empty,
        b: { type: "ARRAY", items: { type: "OBJECT", properties: {} } },
        c: { anyOf: [{ type: "STRING" }, empty] },
        d: { type: "OBJECT", properties: { e: { type: "STRING" } } },
      },
    },
    response: { type: "OBJECT", properties: { r: { type: "OBJECT", nullable: true } } },
  }], "gemini");
  assert.deepEqual(codes(problems), [
    "empty_object /0/parameters/properties/a/properties",
    "empty_object /0/parameters/properties/b/items/properties",
    "empty_object /0/parameters/properties/c/anyOf/1/properties",
    "empty_object /0/response/properties/r/properties",
  ]);
  assert.ok(problems.every((p) => p.tool === "f" && /nested OBJECT/.test(p.message)));
  // the root keeps its own advice
  assert.match(
    preflight([{ name: "f", parameters: { type: "OBJECT", properties: {} } }], "gemini")[0]
      .message,
    /omit parameters/,
  );
  // parametersJsonSchema is JSON Schema: a free-form nested object is fine there
  assert.deepEqual(
    preflight([{
      name: "f",
      parametersJsonSchema: { type: "object", properties: { a: { type: "object" } } },
    }], "gemini"),
    [],
  );
});

Deno.test("preflight checks MCP tools with validateTool", () => {
  assert.deepEqual(codes(preflight([{ name: "a b", inputSchema: { type: "object" } }], "mcp")), [
    "invalid_tool /0/name",
  ]);
});

Deno.test("preflight throws on an unknown target", () => {
  assert.throws(() => preflight([], "cohere"), UnknownFormatError);
});
