/**
 * The Gemini adapter: function declarations with `parameters` (the OpenAPI 3.0
 * subset) or `parametersJsonSchema`, and `response` / `responseJsonSchema`.
 *
 * @module
 */

import type { ToolIssue } from "../../model/errors.ts";
import type { ToolObjectSchema as ToolObjectSchemaLike } from "../../model/tool.ts";
import type { CanonicalTool } from "../canonical_tool.ts";
import { clone, type Obj, put, WarningSink } from "../_schema/mod.ts";
import { escapePointerToken } from "../../model/json_pointer.ts";
import { isNonArrayObject } from "../../model/plain_object.ts";
import { IDENTITY_NORMALIZER } from "../normalizer.ts";
import { GEMINI_PROFILE } from "./profile.ts";
import { describeGeminiTool } from "./_preflight.ts";
import { readGeminiCall } from "./_tool_call.ts";
import type {
  Adapter,
  CanonicalResult,
  ConversionResult,
  ConvertOptions,
  PreflightProblem,
  PreflightTool,
} from "../adapter.ts";
import { writeGeminiSchema } from "./_schema.ts";
import { createNormalizer } from "../_normalizer/mod.ts";
import { fromOpenApi } from "../_openapi/mod.ts";
import {
  canonicalName,
  check,
  checkNameAndDescription,
  dropToolFields,
  fieldsOf,
  otherFields,
  providerName,
  requireObject,
} from "../_provider/mod.ts";

/** A Gemini function declaration. */
export interface GeminiFunctionDeclaration {
  /** The function name (`[A-Za-z0-9_:.-]`, at most 128). */
  name: string;
  /** What the function does. */
  description?: string;
  /** The arguments as an OpenAPI 3.0 Schema subset (exclusive with `parametersJsonSchema`). */
  parameters?: Record<string, unknown>;
  /** The arguments as JSON Schema (exclusive with `parameters`). */
  parametersJsonSchema?: Record<string, unknown>;
  /** The result as an OpenAPI 3.0 Schema subset. */
  response?: Record<string, unknown>;
  /** The result as JSON Schema. */
  responseJsonSchema?: Record<string, unknown>;
  /** Any other field of the API, kept as it is. */
  [field: string]: unknown;
}

/**
 * Gemini's own conversion options, given as `{ providers: { gemini: {...} } }`
 * in {@linkcode ConvertOptions}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { defaultRegistry, type GeminiOptions } from "@toolfoundation/core/adapter";
 *
 * const gemini: GeminiOptions = { schema: "parametersJsonSchema" };
 * const out = defaultRegistry().convert(
 *   { name: "t", inputSchema: { type: "object" } },
 *   "mcp",
 *   "gemini",
 *   { providers: { gemini } },
 * );
 * assert.deepEqual(out.tool, { name: "t", parametersJsonSchema: { type: "object" } });
 * ```
 */
export interface GeminiOptions {
  /** Write `parameters` (OpenAPI subset, the default) or `parametersJsonSchema`. */
  schema?: "parameters" | "parametersJsonSchema";
}

/** The schema field asked for: the deprecated `geminiSchema` first, then `providers.gemini.schema`. */
function schemaFieldOption(options: ConvertOptions | undefined): unknown {
  if (options?.geminiSchema !== undefined) return options.geminiSchema;
  const own = options?.providers !== undefined && Object.hasOwn(options.providers, "gemini")
    ? options.providers.gemini
    : undefined;
  return isNonArrayObject(own) ? (own as GeminiOptions).schema : undefined;
}

const FIELDS = [
  "name",
  "description",
  "parameters",
  "parametersJsonSchema",
  "response",
  "responseJsonSchema",
];

function hasProperties(schema: Obj): boolean {
  return isNonArrayObject(schema.properties) && Object.keys(schema.properties).length > 0;
}

/**
 * Gemini function declarations. `parameters` by default (types mapped to
 * `STRING`, `OBJECT`, ..., `nullable`, string-only enums, local `$ref`s
 * inlined with recursion cut and reported); `{ providers: { gemini: { schema:
 * "parametersJsonSchema" } } }` ({@linkcode GeminiOptions}) writes near-full
 * JSON Schema instead. An output
 * schema becomes `response` / `responseJsonSchema`.
 *
 * Gemini rejects an `OBJECT` without properties at any depth, so in
 * `parameters` such an object (a free-form map, a recursion cut to "any
 * object") is declared as a `STRING` whose description says it holds a JSON
 * object as JSON text, with a warning; the conversion's `normalizer` parses
 * the model's text back into the object (text that is not a JSON object stays
 * a string, for the validator to reject). `response` gets the same
 * declaration, described as a JSON object; the function's result is not
 * converted. A `response` root without properties is left out, with a warning.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { defaultRegistry } from "@toolfoundation/core/adapter";
 *
 * const tool = {
 *   name: "search",
 *   inputSchema: {
 *     type: "object",
 *     properties: { q: { type: ["string", "null"] }, n: { type: "integer", exclusiveMinimum: 0 } },
 *   },
 * };
 * const out = defaultRegistry().convert(tool, "mcp", "gemini");
 * assert.deepEqual(out.tool, {
 *   name: "search",
 *   parameters: {
 *     type: "OBJECT",
 *     properties: { q: { type: "STRING", nullable: true }, n: { type: "INTEGER", minimum: 1 } },
 *   },
 * });
 * ```
 *
 * @example Objects without properties as JSON text
 * ```ts
 * import assert from "node:assert/strict";
 * import { defaultRegistry } from "@toolfoundation/core/adapter";
 *
 * const tool = {
 *   name: "fill",
 *   inputSchema: {
 *     type: "object",
 *     properties: { values: { type: "object", additionalProperties: { type: "string" } } },
 *   },
 * };
 * const out = defaultRegistry().convert(tool, "mcp", "gemini");
 * assert.deepEqual(out.tool, {
 *   name: "fill",
 *   parameters: {
 *     type: "OBJECT",
 *     properties: {
 *       values: {
 *         type: "STRING",
 *         description: 'Holds a JSON object as JSON text; values: {"type":"string"}',
 *       },
 *     },
 *   },
 * });
 * assert.deepEqual(out.normalizer.normalize({ values: '{"a":"b"}' }), { values: { a: "b" } });
 * ```
 */
export const geminiAdapter: Adapter<GeminiFunctionDeclaration> = {
  format: "gemini",
  profile: GEMINI_PROFILE,

  toCanonical(value: unknown, options?: ConvertOptions): CanonicalResult {
    const tool = requireObject("gemini", value);
    const profile = options?.profile ?? GEMINI_PROFILE;
    const sink = new WarningSink("gemini", "canonical");
    const issues: ToolIssue[] = [];
    checkNameAndDescription(tool, "", issues);
    if (tool.parameters !== undefined && tool.parametersJsonSchema !== undefined) {
      issues.push({
        path: "/parametersJsonSchema",
        message: "parameters and parametersJsonSchema are mutually exclusive",
      });
    }
    for (const key of ["parameters", "parametersJsonSchema", "response", "responseJsonSchema"]) {
      if (tool[key] !== undefined && !isNonArrayObject(tool[key])) {
        issues.push({ path: `/${key}`, message: "must be a schema object" });
      }
    }
    check("gemini", issues);
    const json = tool.parametersJsonSchema !== undefined;
    let input: Obj = json
      ? clone(tool.parametersJsonSchema as Obj, "/parametersJsonSchema")
      : tool.parameters !== undefined
      ? fromOpenApi(tool.parameters, "/parameters") as Obj
      : { type: "object" };
    if (input.type === undefined) input = { type: "object", ...input };
    if (input.type !== "object") {
      check("gemini", [{
        path: json ? "/parametersJsonSchema/type" : "/parameters/type",
        message: `must be OBJECT, found ${JSON.stringify(input.type)}`,
      }]);
    }
    const canonical: CanonicalTool = {
      ...canonicalName(tool.name as string, profile, options, sink),
      ...(typeof tool.description === "string" ? { description: tool.description } : {}),
      inputSchema: input as ToolObjectSchemaLike,
    };
    const response = tool.responseJsonSchema !== undefined
      ? clone(tool.responseJsonSchema as Obj, "/responseJsonSchema")
      : tool.response !== undefined
      ? fromOpenApi(tool.response, "/response") as Obj
      : undefined;
    if (response !== undefined) {
      if (response.type === "object") canonical.outputSchema = response as ToolObjectSchemaLike;
      else {
        const key = tool.responseJsonSchema !== undefined ? "responseJsonSchema" : "response";
        sink.add(
          `/${key}`,
          key,
          "dropped",
          "none",
          "an MCP output schema must describe an object; this response schema does not",
        );
      }
    }
    const extra = otherFields(tool, FIELDS);
    if (json) extra.schemaField = "parametersJsonSchema";
    if (Object.keys(extra).length > 0) canonical.providerFields = { gemini: extra };
    return {
      tool: canonical,
      warnings: sink.list.map((w) => ({ ...w, path: geminiAdapter.sourcePointer(w.path, tool) })),
    };
  },

  fromCanonical(
    tool: CanonicalTool,
    options?: ConvertOptions,
  ): ConversionResult<GeminiFunctionDeclaration> {
    const profile = options?.profile ?? GEMINI_PROFILE;
    const sink = new WarningSink("canonical", "gemini");
    const name = providerName(tool, profile, options, sink);
    dropToolFields(tool, sink, ["outputSchema"]);
    const fields = fieldsOf(tool, "gemini");
    const json = (schemaFieldOption(options) ?? fields.schemaField) === "parametersJsonSchema";
    const describe = options?.describeDropped ?? true;
    const out: Obj = { name };
    if (tool.description !== undefined) out.description = tool.description;
    const params = writeGeminiSchema(
      tool.inputSchema,
      "/inputSchema",
      json,
      sink,
      describe,
      profile.schema,
    );
    if (json) out.parametersJsonSchema = params.schema;
    else if (hasProperties(params.schema) || params.schema.anyOf !== undefined) {
      out.parameters = params.schema;
    } else if (tool.inputSchema.properties !== undefined) {
      sink.add(
        "/inputSchema/properties",
        "properties",
        "dropped",
        "none",
        "a function without arguments is declared without parameters (Gemini rejects an OBJECT without properties)",
      );
    }
    if (tool.outputSchema !== undefined) {
      const response = writeGeminiSchema(
        tool.outputSchema,
        "/outputSchema",
        json,
        sink,
        describe,
        profile.schema,
      );
      if (json) out.responseJsonSchema = response.schema;
      else if (hasProperties(response.schema) || response.schema.anyOf !== undefined) {
        out.response = response.schema;
      } else {
        sink.add(
          "/outputSchema",
          "outputSchema",
          "dropped",
          "widens",
          "Gemini rejects a response OBJECT without properties; the function is declared without a response schema",
        );
      }
    }
    for (const [key, value] of Object.entries(fields)) {
      if (key !== "schemaField" && !Object.hasOwn(out, key)) {
        put(out, key, clone(value, `/providerFields/gemini/${escapePointerToken(key)}`));
      }
    }
    return {
      tool: out as GeminiFunctionDeclaration,
      warnings: sink.list,
      normalizer:
        createNormalizer(params.schema, { dialect: "openapi", jsonText: params.jsonText }) ??
          IDENTITY_NORMALIZER,
    };
  },

  sourcePointer(pointer: string, tool: unknown): string {
    const json = isNonArrayObject(tool) && tool.parametersJsonSchema !== undefined;
    const jsonOut = isNonArrayObject(tool) && tool.responseJsonSchema !== undefined;
    if (pointer.startsWith("/inputSchema")) {
      return `/${json ? "parametersJsonSchema" : "parameters"}${pointer.slice(12)}`;
    }
    if (pointer.startsWith("/outputSchema")) {
      return `/${jsonOut ? "responseJsonSchema" : "response"}${pointer.slice(13)}`;
    }
    return pointer;
  },

  preflightTool(
    tool: Record<string, unknown>,
    path: string,
    problems: PreflightProblem[],
  ): PreflightTool {
    return describeGeminiTool(tool, path, problems);
  },

  readToolCall: readGeminiCall,
};
