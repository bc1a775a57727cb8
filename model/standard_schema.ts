/**
 * The Standard Schema interfaces (`@standard-schema/spec` 1.1) a tool schema
 * may come from, declared here so that the package depends on no schema
 * library at all: zod ≥ 4.2, ArkType ≥ 2.1.28 and valibot ≥ 1.2 (through
 * `@valibot/to-json-schema`'s `toStandardJsonSchema`) implement them, and any
 * other library that does is accepted the same way. Only the types and the
 * JSON Schema converter are used; values are validated by this package's own
 * validator against the JSON Schema the converter gives.
 *
 * @module
 */

import { InvalidToolError } from "./errors.ts";
import { findUnencodable } from "./json_text.ts";
import { isNonArrayObject } from "./plain_object.ts";
import { SCHEMA_DIALECT_2020_12 } from "./tool.ts";

/**
 * The part of the Standard interfaces every schema has: its vendor, the
 * version of the standard, and the types it infers (`@standard-schema/spec`
 * `StandardTypedV1`).
 */
export interface StandardTyped<Input = unknown, Output = Input> {
  /** The Standard properties. */
  readonly "~standard": StandardTypedProps<Input, Output>;
}

/** The Standard properties of {@linkcode StandardTyped}. */
export interface StandardTypedProps<Input = unknown, Output = Input> {
  /** The version of the standard: 1. */
  readonly version: 1;
  /** The schema library, e.g. `"zod"`, `"valibot"`, `"arktype"`. */
  readonly vendor: string;
  /** The types the schema infers; present in types only. */
  readonly types?: StandardTypes<Input, Output> | undefined;
}

/** The inferred types of a Standard schema. */
export interface StandardTypes<Input = unknown, Output = Input> {
  /** The type of the values the schema accepts. */
  readonly input: Input;
  /** The type of the values the schema's own parsing returns. */
  readonly output: Output;
}

/** Options of a Standard JSON Schema converter. */
export interface StandardJsonSchemaOptions {
  /** The JSON Schema version asked for (this package asks for `"draft-2020-12"`). */
  readonly target: "draft-2020-12" | "draft-07" | "openapi-3.0" | (string & Record<never, never>);
  /** Options of the library itself. */
  readonly libraryOptions?: Record<string, unknown> | undefined;
}

/** The converter of a Standard JSON Schema: the JSON Schema of its input and of its output. */
export interface StandardJsonSchemaConverter {
  /** The JSON Schema of the values the schema accepts; may throw. */
  readonly input: (options: StandardJsonSchemaOptions) => Record<string, unknown>;
  /** The JSON Schema of the values the schema's own parsing returns; may throw. */
  readonly output: (options: StandardJsonSchemaOptions) => Record<string, unknown>;
}

/** The Standard properties of a {@linkcode StandardJsonSchema}. */
export interface StandardJsonSchemaProps<Input = unknown, Output = Input>
  extends StandardTypedProps<Input, Output> {
  /** Converts the schema to JSON Schema. */
  readonly jsonSchema: StandardJsonSchemaConverter;
}

/**
 * A schema of any library that implements Standard JSON Schema
 * (`@standard-schema/spec` 1.1 `StandardJSONSchemaV1`): a zod 4.2+ schema,
 * an ArkType 2.1.28+ type, a valibot schema wrapped by `toStandardJsonSchema`.
 *
 * @example Any object with the standard's shape is one
 * ```ts
 * import assert from "node:assert/strict";
 * import { type StandardJsonSchema, standardJsonSchemaOf } from "@toolfoundation/core/model";
 *
 * const schema: StandardJsonSchema<{ city: string }> = {
 *   "~standard": {
 *     version: 1,
 *     vendor: "handmade",
 *     jsonSchema: {
 *       input: () => ({ type: "object", properties: { city: { type: "string" } } }),
 *       output: () => ({ type: "object", properties: { city: { type: "string" } } }),
 *     },
 *   },
 * };
 * assert.deepEqual(standardJsonSchemaOf(schema, "/inputSchema").properties, {
 *   city: { type: "string" },
 * });
 * ```
 */
export interface StandardJsonSchema<Input = unknown, Output = Input> {
  /** The Standard properties. */
  readonly "~standard": StandardJsonSchemaProps<Input, Output>;
}

/**
 * The type a Standard schema accepts (`StandardTypedV1.InferInput`): what a
 * tool's handler receives, since the arguments are checked against the JSON
 * Schema of the schema's input and not parsed by the library (no transforms,
 * no defaults filled in).
 */
export type StandardInput<S extends StandardTyped> = NonNullable<
  S["~standard"]["types"]
>["input"];

/**
 * Whether a value is a Standard schema (it has a `~standard` object of
 * version 1).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isStandardSchema } from "@toolfoundation/core/model";
 *
 * assert.equal(isStandardSchema({ "~standard": { version: 1, vendor: "x" } }), true);
 * assert.equal(isStandardSchema({ type: "object" }), false);
 * ```
 *
 * @param value Any value.
 * @returns `true` when it carries the Standard properties.
 */
export function isStandardSchema(value: unknown): value is StandardTyped {
  if ((typeof value !== "object" && typeof value !== "function") || value === null) return false;
  const props = (value as Record<string, unknown>)["~standard"];
  return isNonArrayObject(props) && props.version === 1;
}

function issue(path: string, message: string, cause?: unknown): InvalidToolError {
  return new InvalidToolError([{ path, message }], cause === undefined ? undefined : { cause });
}

/**
 * The JSON Schema (2020-12) of a Standard JSON Schema's input, from the
 * schema's own converter: a private JSON copy, without a `$schema` that only
 * names 2020-12 (the default of tool schemas). A converter that throws, a
 * schema without a converter and a result that is not a JSON object are
 * `InvalidToolError`s located at `path`, with the converter's error as cause.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { InvalidToolError, standardJsonSchemaOf } from "@toolfoundation/core/model";
 *
 * const noConverter = { "~standard": { version: 1, vendor: "old", validate: () => ({ value: 1 }) } };
 * assert.throws(
 *   () => standardJsonSchemaOf(noConverter as never, "/inputSchema"),
 *   (error) => error instanceof InvalidToolError && error.issues[0].path === "/inputSchema",
 * );
 * ```
 *
 * @param schema The Standard JSON Schema.
 * @param path Where the schema is in the tool, for errors (`/inputSchema`).
 * @returns The JSON Schema of the schema's input.
 * @throws {InvalidToolError} When no JSON Schema can be had from it.
 */
export function standardJsonSchemaOf(
  schema: StandardJsonSchema,
  path: string,
): Record<string, unknown> {
  const props = (schema as { "~standard"?: Partial<StandardJsonSchemaProps> })["~standard"];
  const vendor = typeof props?.vendor === "string" ? props.vendor : "unknown";
  const convert = props?.jsonSchema?.input;
  if (typeof convert !== "function") {
    throw issue(
      path,
      `a Standard Schema of ${JSON.stringify(vendor)} without a JSON Schema converter ` +
        "(`~standard.jsonSchema.input`): use a version that implements Standard JSON Schema " +
        "(zod >= 4.2, ArkType >= 2.1.28; valibot >= 1.2 through @valibot/to-json-schema's " +
        "toStandardJsonSchema), or give the JSON Schema itself",
    );
  }
  let converted: unknown;
  try {
    converted = convert.call(props!.jsonSchema, { target: "draft-2020-12" });
  } catch (error) {
    throw issue(
      path,
      `the ${JSON.stringify(vendor)} schema cannot be written as JSON Schema 2020-12: ${
        error instanceof Error ? error.message : String(error)
      }`,
      error,
    );
  }
  const bad = findUnencodable(converted);
  if (!isNonArrayObject(converted) || bad !== undefined) {
    throw issue(
      path,
      `the ${JSON.stringify(vendor)} converter returned ${
        bad === undefined ? "something other than a JSON object" : `a ${bad.problem}`
      } instead of a JSON Schema object`,
    );
  }
  const copy = JSON.parse(JSON.stringify(converted)) as Record<string, unknown>;
  if (copy.$schema === SCHEMA_DIALECT_2020_12) delete copy.$schema;
  return copy;
}
