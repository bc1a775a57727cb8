/**
 * `defineTool`: a tool's definition and its handler in one value, the
 * handler's arguments typed from the input schema: a JSON Schema literal or a
 * schema of any library that implements Standard JSON Schema (zod, valibot,
 * ArkType). The same value runs in a `Runner` (`runner.addLocalTool(tool)`),
 * converts with the adapters (`tool.tool`) and is served by `Gateway.create`.
 *
 * Runtime-neutral: no I/O, no schema library loaded.
 *
 * @module
 */

import {
  type InferJsonSchema,
  InvalidToolError,
  isNonArrayObject,
  isStandardSchema,
  type StandardInput,
  type StandardJsonSchema,
  standardJsonSchemaOf,
  type StandardTyped,
  type Tool,
  type ToolObjectSchema,
  validateTool,
} from "../model/mod.ts";
import type { LocalHandler, ToolContext } from "./local.ts";

/** A JSON Schema literal of a tool's arguments or result: an object schema. */
export interface ObjectSchemaLiteral {
  /** Always `"object"` at the root of a tool schema. */
  readonly type: "object";
  /** Any other keyword and its value. */
  readonly [keyword: string]: unknown;
}

/** What a tool schema may be given as: a JSON Schema literal, or a Standard JSON Schema. */
export type ToolSchemaSource = ObjectSchemaLiteral | StandardJsonSchema;

/**
 * The type of the values a tool schema accepts: a Standard schema's input
 * type, or the type of a JSON Schema literal ({@linkcode InferJsonSchema}).
 */
export type InferToolSchema<S> = S extends StandardTyped ? StandardInput<S>
  : InferJsonSchema<S>;

/**
 * A handler's arguments: the input schema's type, or any object when it infers none.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import type { ToolArgs } from "@toolfoundation/core";
 *
 * const args: ToolArgs<{ type: "object"; properties: { n: { type: "number" } }; required: ["n"] }> = {
 *   n: 1,
 * };
 * assert.equal(args.n, 1);
 * ```
 */
export type ToolArgs<S> = unknown extends InferToolSchema<S> ? Record<string, unknown>
  : InferToolSchema<S>;

/**
 * A handler's result: the output schema's type, or anything without an output schema.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import type { ToolResult } from "@toolfoundation/core";
 *
 * const result: ToolResult<{ type: "object"; properties: { ok: { type: "boolean" } } }> = { ok: true };
 * const anything: ToolResult<undefined> = "free";
 * assert.deepEqual([result, anything], [{ ok: true }, "free"]);
 * ```
 */
export type ToolResult<S> = [S] extends [undefined] ? unknown : InferToolSchema<S>;

/**
 * What a handler may return for a result of type `R`: the value, a promise of
 * it, or an async generator whose yields are `chunk` events and whose return
 * value is the result.
 */
export type HandlerReturn<R> =
  | R
  | PromiseLike<R>
  | AsyncGenerator<unknown, R, undefined>;

/**
 * A typed tool handler: the checked arguments and the run's context.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import type { TypedHandler } from "@toolfoundation/core";
 *
 * const twice: TypedHandler<{ n: number }, number> = ({ n }) => n * 2;
 * assert.equal(twice({ n: 2 }, undefined as never), 4);
 * ```
 */
export type TypedHandler<Args, Result> = (
  args: Args,
  ctx: ToolContext,
) => HandlerReturn<Result>;

/** Options of {@linkcode defineTool}: the tool's fields, its schemas and its handler. */
export interface DefineToolOptions<
  I extends ToolSchemaSource,
  O extends ToolSchemaSource | undefined,
> extends Omit<Tool, "inputSchema" | "outputSchema"> {
  /** The arguments: a JSON Schema literal (root `type: "object"`) or a Standard JSON Schema. */
  inputSchema: I;
  /** The structured result, when the tool has one; checked on every run. */
  outputSchema?: O;
  /**
   * Runs the tool. The runner calls it only with arguments its validator
   * accepted under `inputSchema` (unless the runner's validation is turned
   * off), so the arguments have the schema's type.
   */
  handler: TypedHandler<ToolArgs<I>, ToolResult<O>>;
}

/**
 * A tool and its handler. `tool` is a plain {@linkcode Tool} (JSON Schemas
 * only), for the adapters and anything else that takes a tool; `handler` is
 * its implementation as the runner calls it. `types` exists in types only.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { type DefinedTool, defineTool } from "@toolfoundation/core";
 *
 * const echo: DefinedTool<{ text?: string }, unknown> = defineTool({
 *   name: "echo",
 *   inputSchema: { type: "object", properties: { text: { type: "string" } } },
 *   handler: ({ text }) => text,
 * });
 * assert.deepEqual(echo.tool.inputSchema.properties, { text: { type: "string" } });
 * assert.equal(echo.types, undefined);
 * ```
 */
export interface DefinedTool<Args = Record<string, unknown>, Result = unknown> {
  /** The tool: every field given, the schemas as JSON Schema. */
  readonly tool: Tool;
  /** The handler, as a runner's local handler. */
  readonly handler: LocalHandler;
  /** The argument and result types (never set at run time). */
  readonly types?: { readonly args: Args; readonly result: Result };
}

function schemaOf(source: unknown, path: string): ToolObjectSchema {
  if (isStandardSchema(source)) {
    return standardJsonSchemaOf(source as StandardJsonSchema, path) as ToolObjectSchema;
  }
  if (!isNonArrayObject(source)) {
    throw new InvalidToolError([{
      path,
      message: "must be a JSON Schema object or a Standard JSON Schema (zod, valibot, ArkType)",
    }]);
  }
  return JSON.parse(JSON.stringify(source)) as ToolObjectSchema;
}

/**
 * Defines a tool with its handler. The handler's arguments are typed from
 * `inputSchema`, its result from `outputSchema`:
 *
 * - a JSON Schema literal (written inline, or `as const`): the type of the
 *   values it accepts ({@linkcode InferJsonSchema});
 * - a Standard JSON Schema (zod ≥ 4.2, ArkType ≥ 2.1.28, valibot ≥ 1.2 via
 *   `toStandardJsonSchema`): its input type. Its JSON Schema comes from the
 *   schema's own converter (`~standard.jsonSchema.input`, draft 2020-12);
 *   the library's own validation is not used: the runner checks arguments
 *   and results with its validator against that JSON Schema, so transforms
 *   and defaults of the library do not apply.
 *
 * The tool is checked as `validateTool` checks it, once, here.
 *
 * @example A JSON Schema literal
 * ```ts
 * import assert from "node:assert/strict";
 * import { defineTool } from "@toolfoundation/core";
 * import { Runner } from "@toolfoundation/core/run";
 *
 * const add = defineTool({
 *   name: "add",
 *   description: "Adds two numbers",
 *   inputSchema: {
 *     type: "object",
 *     properties: { a: { type: "number" }, b: { type: "number" } },
 *     required: ["a", "b"],
 *     additionalProperties: false,
 *   },
 *   outputSchema: { type: "object", properties: { sum: { type: "number" } }, required: ["sum"] },
 *   handler: ({ a, b }) => ({ sum: a + b }), // a and b are numbers
 * });
 * const runner = new Runner();
 * runner.addLocalTool(add);
 * assert.deepEqual((await runner.run("add", { a: 1, b: 2 })).structured, { sum: 3 });
 * await runner.close();
 * ```
 *
 * @example Any Standard JSON Schema (here a hand-made one)
 * ```ts
 * import assert from "node:assert/strict";
 * import {
 *   type AnthropicTool,
 *   defaultRegistry,
 *   defineTool,
 *   type StandardJsonSchema,
 * } from "@toolfoundation/core";
 *
 * const city: StandardJsonSchema<{ city: string }> = {
 *   "~standard": {
 *     version: 1,
 *     vendor: "handmade",
 *     jsonSchema: {
 *       input: () => ({ type: "object", properties: { city: { type: "string" } }, required: ["city"] }),
 *       output: () => ({ type: "object", properties: { city: { type: "string" } }, required: ["city"] }),
 *     },
 *   },
 * };
 * const weather = defineTool({
 *   name: "weather",
 *   inputSchema: city,
 *   handler: (args) => `sunny in ${args.city}`,
 * });
 * const converted = defaultRegistry().convert(weather.tool, "mcp", "anthropic").tool as AnthropicTool;
 * assert.deepEqual(converted.input_schema.required, ["city"]);
 * ```
 *
 * @param options The tool's fields, its schemas and its handler.
 * @returns The tool (plain JSON Schemas) and its handler.
 * @throws {InvalidToolError} When the tool breaks the model's rules, or a
 *   schema cannot be written as JSON Schema (the converter's error is the cause).
 */
export function defineTool<
  const I extends ToolSchemaSource,
  const O extends ToolSchemaSource | undefined = undefined,
>(options: DefineToolOptions<I, O>): DefinedTool<ToolArgs<I>, ToolResult<O>> {
  const { handler, inputSchema, outputSchema, ...fields } = options;
  if (typeof handler !== "function") {
    throw new InvalidToolError([{ path: "/handler", message: "must be a function" }]);
  }
  const tool: Tool = { ...fields, inputSchema: schemaOf(inputSchema, "/inputSchema") };
  if (outputSchema !== undefined) tool.outputSchema = schemaOf(outputSchema, "/outputSchema");
  validateTool(tool);
  return Object.freeze({ tool, handler: handler as unknown as LocalHandler });
}

/**
 * Whether a value is a {@linkcode DefinedTool} (a `tool` and a `handler`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { defineTool, isDefinedTool } from "@toolfoundation/core";
 *
 * const ping = defineTool({ name: "ping", inputSchema: { type: "object" }, handler: () => "pong" });
 * assert.equal(isDefinedTool(ping), true);
 * assert.equal(isDefinedTool(ping.tool), false);
 * ```
 *
 * @param value Any value.
 * @returns `true` when it has a `tool` object and a `handler` function.
 */
export function isDefinedTool(value: unknown): value is DefinedTool<unknown, unknown> {
  return isNonArrayObject(value) && isNonArrayObject(value.tool) &&
    typeof value.handler === "function";
}
