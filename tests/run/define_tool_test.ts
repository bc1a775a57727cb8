// defineTool: one value that runs in a Runner, converts with the adapters and
// is served by the gateway, from a JSON Schema literal, a zod 4 schema and a
// valibot schema; the schemas' own converters give the JSON Schema, our
// validator checks every value, and every way a schema can fail is loud.
import assert from "node:assert/strict";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import * as v from "valibot";
import { toStandardJsonSchema } from "@valibot/to-json-schema";
import * as z from "zod";
import {
  defaultRegistry,
  type DefinedTool,
  defineTool,
  InvalidToolError,
  isDefinedTool,
  type StandardJsonSchema,
} from "../../mod.ts";
import { Runner } from "../../run/mod.ts";
import { Gateway, serveHttp } from "../../serve/mod.ts";

/** The weather tool of one schema library: input `{ city, days? }`, output `{ city, celsius }`. */
function weatherTools(): Array<[string, DefinedTool<unknown, unknown>]> {
  const handler = ({ city, days }: { city: string; days?: number }) => ({
    city,
    celsius: city.length + (days ?? 0),
  });
  return [
    [
      "zod",
      defineTool({
        name: "weather",
        namespace: "forecast",
        description: "The weather of a city",
        inputSchema: z.object({ city: z.string().min(1), days: z.number().int().optional() }),
        outputSchema: z.object({ city: z.string(), celsius: z.number() }),
        handler,
      }),
    ],
    [
      "valibot",
      defineTool({
        name: "weather",
        namespace: "forecast",
        description: "The weather of a city",
        inputSchema: toStandardJsonSchema(
          v.object({ city: v.pipe(v.string(), v.minLength(1)), days: v.optional(v.number()) }),
        ),
        outputSchema: toStandardJsonSchema(v.object({ city: v.string(), celsius: v.number() })),
        handler,
      }),
    ],
    [
      "JSON Schema",
      defineTool({
        name: "weather",
        namespace: "forecast",
        description: "The weather of a city",
        inputSchema: {
          type: "object",
          properties: { city: { type: "string", minLength: 1 }, days: { type: "number" } },
          required: ["city"],
        },
        outputSchema: {
          type: "object",
          properties: { city: { type: "string" }, celsius: { type: "number" } },
          required: ["city", "celsius"],
        },
        handler,
      }),
    ],
  ];
}

for (const [library, weather] of weatherTools()) {
  Deno.test(`a ${library} tool runs in the Runner, its arguments and result checked by our validator`, async () => {
    assert.equal(isDefinedTool(weather), true);
    const schema = weather.tool.inputSchema;
    assert.equal(schema.$schema, undefined, "a $schema naming 2020-12 (the default) is dropped");
    assert.deepEqual(schema.required, ["city"]);
    assert.equal((schema.properties?.city as { minLength?: number }).minLength, 1);
    const runner = new Runner();
    runner.addLocalTool(weather);
    const ok = await runner.run("forecast:weather", { city: "Oslo", days: 2 });
    assert.deepEqual(ok.structured, { city: "Oslo", celsius: 6 });
    const empty = await runner.run("forecast:weather", { city: "" }).catch((e) => e);
    assert.equal(empty.code, "input_validation");
    assert.match(empty.message, /city/);
    const missing = await runner.run("forecast:weather", {}).catch((e) => e);
    assert.equal(missing.code, "input_validation");
    await runner.close();
  });

  Deno.test(`a ${library} tool converts with the adapters to every provider`, () => {
    const registry = defaultRegistry();
    const openai = registry.convert(weather.tool, "mcp", "openai", { strict: true }).tool as {
      function: { name: string; parameters: { required: string[] }; strict: boolean };
    };
    assert.equal(openai.function.name, "forecast__weather");
    assert.equal(openai.function.strict, true);
    assert.deepEqual(openai.function.parameters.required, ["city", "days"]);
    const anthropic = registry.convert(weather.tool, "mcp", "anthropic").tool as {
      input_schema: { properties: Record<string, unknown> };
    };
    assert.deepEqual(Object.keys(anthropic.input_schema.properties), ["city", "days"]);
    const gemini = registry.convert(weather.tool, "mcp", "gemini");
    assert.equal((gemini.tool as { name: string }).name, "forecast:weather");
  });

  Deno.test(`a ${library} tool is served by the gateway to an MCP client`, async () => {
    const runner = new Runner();
    runner.addLocalTool(weather);
    const gateway = await Gateway.create(runner);
    const serving = await serveHttp(gateway, { port: 0 });
    const client = new Client({ name: "define-tool-test", version: "1.0.0" });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(serving.url)));
      const { tools } = await client.listTools();
      assert.deepEqual(tools.map((t) => t.name), ["weather"]);
      assert.deepEqual(tools[0].inputSchema, weather.tool.inputSchema);
      const result = await client.callTool({ name: "weather", arguments: { city: "Rome" } });
      assert.deepEqual(result.structuredContent, { city: "Rome", celsius: 4 });
      const refused = await client.callTool({ name: "weather", arguments: { city: 7 } });
      assert.equal(refused.isError, true);
      assert.match(JSON.stringify(refused.content), /city/);
    } finally {
      await client.close();
      await serving.close();
      await gateway.close();
      await runner.close();
    }
  });
}

Deno.test("a Standard schema's own validation never runs: arguments are checked against its JSON Schema", async () => {
  const schema = z.object({ word: z.string().refine((s) => s === "yes", "must be yes") });
  let validated = 0;
  const spy: StandardJsonSchema<{ word: string }> = {
    "~standard": {
      ...schema["~standard"],
      validate: (value: unknown) => {
        validated++;
        return schema["~standard"].validate(value);
      },
    } as StandardJsonSchema<{ word: string }>["~standard"],
  };
  const echo = defineTool({ name: "echo", inputSchema: spy, handler: ({ word }) => word });
  const runner = new Runner();
  runner.addLocalTool(echo);
  // The refinement has no JSON Schema: the JSON Schema (a string) accepts "no".
  assert.equal((await runner.run("echo", { word: "no" })).structured, "no");
  assert.equal((await runner.run("echo", { word: 1 }).catch((e) => e)).code, "input_validation");
  assert.equal(validated, 0);
  await runner.close();
});

Deno.test("a schema its library cannot write as JSON Schema is an InvalidToolError with the library's error as cause", () => {
  const error = (() => {
    try {
      defineTool({ name: "when", inputSchema: z.object({ at: z.date() }), handler: () => 1 });
    } catch (e) {
      return e;
    }
    return undefined;
  })();
  assert.ok(error instanceof InvalidToolError);
  assert.equal(error.issues[0].path, "/inputSchema");
  assert.match(error.message, /"zod" schema cannot be written as JSON Schema 2020-12/);
  assert.ok(error.cause instanceof Error, "the converter's error is kept");
  assert.match((error.cause as Error).message, /Date/);
});

Deno.test("a Standard Schema without a JSON Schema converter is refused, naming what to use", () => {
  const bare = v.object({ q: v.string() });
  assert.throws(
    () => defineTool({ name: "bare", inputSchema: bare as never, handler: () => 1 }),
    (error) =>
      error instanceof InvalidToolError && error.issues[0].path === "/inputSchema" &&
      /"valibot" without a JSON Schema converter/.test(error.message) &&
      /toStandardJsonSchema/.test(error.message),
  );
});

Deno.test("a converter that returns something other than a JSON object is refused at its schema's path", () => {
  const returning = (value: unknown): StandardJsonSchema => ({
    "~standard": {
      version: 1,
      vendor: "odd",
      jsonSchema: { input: () => value as Record<string, unknown>, output: () => ({}) },
    },
  });
  for (const value of [[], "schema", { type: "object", big: 1n }]) {
    assert.throws(
      () =>
        defineTool({
          name: "odd",
          inputSchema: { type: "object" },
          outputSchema: returning(value),
          handler: () => ({}),
        }),
      (error) => error instanceof InvalidToolError && error.issues[0].path === "/outputSchema",
      JSON.stringify(String(value)),
    );
  }
});

Deno.test("defineTool checks the tool as validateTool does and copies the schema it was given", () => {
  assert.throws(
    () => defineTool({ name: "bad name", inputSchema: { type: "object" }, handler: () => 1 }),
    (error) => error instanceof InvalidToolError && error.issues[0].path === "/name",
  );
  assert.throws(
    () => defineTool({ name: "nohandler", inputSchema: { type: "object" } } as never),
    (error) => error instanceof InvalidToolError && error.issues[0].path === "/handler",
  );
  const schema = { type: "object" as const, properties: { a: { type: "string" as const } } };
  const tool = defineTool({ name: "copy", inputSchema: schema, handler: () => 1 });
  schema.properties.a.type = "number" as never;
  assert.deepEqual(tool.tool.inputSchema.properties, { a: { type: "string" } });
  assert.equal(Object.isFrozen(tool), true);
});

Deno.test("addLocalTool without a handler and without a defined tool says what it takes", () => {
  const runner = new Runner();
  assert.throws(
    () => runner.addLocalTool({ name: "x", inputSchema: { type: "object" } } as never),
    TypeError,
    "defineTool",
  );
});
