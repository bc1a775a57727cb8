// The types defineTool gives a handler, checked by the compiler: `deno test`
// (and `deno task check`) type-check this file, so each `@ts-expect-error`
// line is code that must NOT compile (the check fails if it ever does), and
// every other line must compile. The runtime part only makes the file a test.
import assert from "node:assert/strict";
import * as v from "valibot";
import { toStandardJsonSchema } from "@valibot/to-json-schema";
import * as z from "zod";
import { defineTool, type InferJsonSchema, type ToolArgs } from "../../mod.ts";
import { Runner } from "../../run/mod.ts";

/** `true` when A and B are the same type (each assignable to the other, exactly). */
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2) ? true
  : false;
function same<_T extends true>(): void {}

// --- JSON Schema literals, written inline (the const type parameter keeps them literal).

const add = defineTool({
  name: "add",
  inputSchema: {
    type: "object",
    properties: { a: { type: "number" }, b: { type: "integer" } },
    required: ["a", "b"],
    additionalProperties: false,
  },
  outputSchema: { type: "object", properties: { sum: { type: "number" } }, required: ["sum"] },
  handler: ({ a, b }) => {
    same<Equal<typeof a, number>>();
    same<Equal<typeof b, number>>();
    return { sum: a + b };
  },
});
same<Equal<NonNullable<typeof add.types>["args"], { a: number; b: number }>>();

defineTool({
  name: "closed",
  inputSchema: {
    type: "object",
    properties: { city: { type: "string" } },
    required: ["city"],
    additionalProperties: false,
  },
  handler: (args) => {
    // @ts-expect-error a member the schema does not declare, on a closed object
    args.cty;
    // @ts-expect-error city is a string
    const n: number = args.city;
    return n;
  },
});

defineTool({
  name: "output",
  inputSchema: { type: "object" },
  outputSchema: { type: "object", properties: { sum: { type: "number" } }, required: ["sum"] },
  // @ts-expect-error the result must match the output schema
  handler: () => ({ sum: "three" }),
});

defineTool({
  name: "asyncOutput",
  inputSchema: { type: "object" },
  outputSchema: { type: "object", properties: { sum: { type: "number" } }, required: ["sum"] },
  handler: async () => ({ sum: await Promise.resolve(3) }),
});

defineTool({
  name: "generator",
  inputSchema: { type: "object", properties: { n: { type: "integer" } }, required: ["n"] },
  outputSchema: { type: "object", properties: { done: { type: "boolean" } }, required: ["done"] },
  handler: async function* ({ n }, ctx) {
    for (let i = 0; i < n; i++) {
      ctx.progress(i);
      yield i;
    }
    return { done: true };
  },
});

/** Calls that must not compile (and would throw at run time): never called. */
function _refused(): void {
  // @ts-expect-error a tool's input schema is an object schema
  defineTool({ name: "notObject", inputSchema: { type: "string" }, handler: () => 1 });
  // @ts-expect-error the handler is required
  defineTool({ name: "noHandler", inputSchema: { type: "object" } });
  // A bare valibot schema implements Standard Schema but not Standard JSON Schema.
  // @ts-expect-error no JSON Schema converter
  defineTool({ name: "bare", inputSchema: v.object({ q: v.string() }), handler: () => 1 });
}

// --- The keywords the literal inference understands.

const every = {
  type: "object",
  properties: {
    s: { type: "string" },
    nullable: { type: ["string", "null"] },
    e: { enum: ["a", "b", 1] },
    c: { const: "fixed" },
    list: { type: "array", items: { type: "number" } },
    anyList: { type: "array" },
    either: { anyOf: [{ type: "string" }, { type: "boolean" }] },
    one: { oneOf: [{ type: "integer" }, { type: "null" }] },
    both: {
      allOf: [
        { type: "object", properties: { x: { type: "number" } }, required: ["x"] },
        { type: "object", properties: { y: { type: "string" } }, required: ["y"] },
      ],
    },
    map: { type: "object", additionalProperties: { type: "boolean" } },
    ref: { $ref: "#/$defs/x" },
    yes: true,
  },
  required: ["s", "nullable", "e", "c", "list", "anyList", "either", "one", "both", "map", "ref"],
  additionalProperties: false,
} as const;
type Every = InferJsonSchema<typeof every>;
same<Equal<Every["s"], string>>();
same<Equal<Every["nullable"], string | null>>();
same<Equal<Every["e"], "a" | "b" | 1>>();
same<Equal<Every["c"], "fixed">>();
same<Equal<Every["list"], number[]>>();
same<Equal<Every["anyList"], unknown[]>>();
same<Equal<Every["either"], string | boolean>>();
same<Equal<Every["one"], number | null>>();
same<Equal<Every["both"]["x"], number>>();
same<Equal<Every["both"]["y"], string>>();
same<Equal<Every["map"], { [key: string]: boolean }>>();
same<Equal<Every["ref"], unknown>>(); // not understood: unknown, never narrower
same<Equal<Every["yes"], unknown>>();
same<Equal<InferJsonSchema<false>, never>>();

// An object without additionalProperties: false accepts other members.
type Open = InferJsonSchema<{ type: "object"; properties: { a: { type: "number" } } }>;
const open: Open = { a: 1, other: "x" };
// @ts-expect-error a is a number
const wrongOpen: Open = { a: "1" };
// A required member no property declares is still required.
type Undeclared = InferJsonSchema<{ type: "object"; required: readonly ["id"] }>;
// @ts-expect-error id is required
const missingId: Undeclared = {};
// A root that infers nothing gives the handler any object.
same<Equal<ToolArgs<{ type: "object"; $ref: "#/x" }>, { [key: string]: unknown }>>();

// --- Standard JSON Schema: zod 4.

const zodWeather = defineTool({
  name: "weather",
  inputSchema: z.object({ city: z.string(), days: z.number().int().optional() }),
  outputSchema: z.object({ celsius: z.number() }),
  handler: ({ city, days }) => {
    same<Equal<typeof city, string>>();
    same<Equal<typeof days, number | undefined>>();
    return { celsius: city.length + (days ?? 0) };
  },
});
same<Equal<NonNullable<typeof zodWeather.types>["result"], { celsius: number }>>();

defineTool({
  name: "zodInput",
  // The handler gets the schema's input type: no transform runs before it.
  inputSchema: z.object({ n: z.string().transform((s) => s.length) }),
  handler: ({ n }) => {
    same<Equal<typeof n, string>>();
    return n;
  },
});

defineTool({
  name: "zodOutput",
  inputSchema: z.object({}),
  outputSchema: z.object({ celsius: z.number() }),
  // @ts-expect-error the result must match the zod output schema
  handler: () => ({ celsius: "warm" }),
});

defineTool({
  name: "zodTypo",
  inputSchema: z.object({ city: z.string() }),
  handler: (args) => {
    // @ts-expect-error zod objects declare their members
    return args.cty;
  },
});

// --- Standard JSON Schema: valibot through @valibot/to-json-schema.

defineTool({
  name: "valibot",
  inputSchema: toStandardJsonSchema(
    v.object({ query: v.string(), limit: v.optional(v.number()) }),
  ),
  handler: ({ query, limit }) => {
    same<Equal<typeof query, string>>();
    same<Equal<typeof limit, number | undefined>>();
    return query;
  },
});

Deno.test("the typed tools of this file register and run: the types test compiles", async () => {
  const runner = new Runner();
  runner.addLocalTool(add);
  runner.addLocalTool(zodWeather);
  assert.deepEqual((await runner.run("add", { a: 1, b: 2 })).structured, { sum: 3 });
  assert.deepEqual((await runner.run("weather", { city: "Oslo" })).structured, { celsius: 4 });
  assert.ok(open && wrongOpen && missingId);
  await runner.close();
});
