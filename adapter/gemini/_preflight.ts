// Private: the preflight rules of Gemini function declarations: `parameters`
// and `parametersJsonSchema` exclusive, the OpenAPI-subset schemas
// (`parameters`, `response`) checked here, the JSON Schema ones
// (`parametersJsonSchema`, `responseJsonSchema`) by the shared checks without a
// root `$schema`.

import { escapePointerToken } from "../../model/json_pointer.ts";
import { isNonArrayObject } from "../../model/plain_object.ts";
import type { ProviderProfile } from "../profile.ts";
import type { PreflightProblem, PreflightSchema, PreflightTool } from "../adapter.ts";
import { tooDeepProblem } from "../_preflight/mod.ts";
import { MAX_SCHEMA_DEPTH } from "../limits.ts";

const OPENAPI_TYPES = new Set([
  "STRING",
  "NUMBER",
  "INTEGER",
  "BOOLEAN",
  "ARRAY",
  "OBJECT",
  "NULL",
]);

/** Checks a Gemini OpenAPI-subset schema. */
function checkOpenApi(
  schema: unknown,
  path: string,
  tool: string | undefined,
  profile: ProviderProfile,
  root: boolean,
  out: PreflightProblem[],
  level = 0,
): void {
  if (!isNonArrayObject(schema)) {
    out.push({ code: "root_not_object", path, tool, message: "the schema must be an object" });
    return;
  }
  if (level >= MAX_SCHEMA_DEPTH) {
    out.push(tooDeepProblem(path, tool));
    return;
  }
  const allowed = profile.schema.keywords === "any" ? undefined : new Set(profile.schema.keywords);
  const formats = profile.schema.formats === undefined
    ? undefined
    : new Set(profile.schema.formats);
  if (root && schema.type !== "OBJECT") {
    out.push({
      code: "root_not_object",
      path: `${path}/type`,
      tool,
      message: `the root must be type OBJECT, found ${JSON.stringify(schema.type)}`,
    });
  }
  if (
    schema.type === "OBJECT" &&
    !(isNonArrayObject(schema.properties) && Object.keys(schema.properties).length > 0)
  ) {
    out.push({
      code: "empty_object",
      path: `${path}/properties`,
      tool,
      message: root
        ? "properties must be non-empty for an OBJECT; omit parameters for a function without arguments"
        : "properties must be non-empty for an OBJECT, at any depth; Gemini rejects a nested OBJECT without properties",
    });
  }
  for (const [key, value] of Object.entries(schema)) {
    const p = `${path}/${escapePointerToken(key)}`;
    if (allowed !== undefined && !allowed.has(key)) {
      out.push({
        code: "unsupported_keyword",
        path: p,
        tool,
        message: `Gemini's Schema has no field ${key}`,
      });
      continue;
    }
    if (key === "type" && (typeof value !== "string" || !OPENAPI_TYPES.has(value))) {
      out.push({
        code: "invalid_type",
        path: p,
        tool,
        message: `type must be one of ${[...OPENAPI_TYPES].join(", ")}`,
      });
    } else if (
      key === "enum" && (!Array.isArray(value) || value.some((v) => typeof v !== "string"))
    ) {
      out.push({ code: "invalid_enum", path: p, tool, message: "enum values must be strings" });
    } else if (key === "format" && formats !== undefined && !formats.has(value as string)) {
      out.push({
        code: "unsupported_format",
        path: p,
        tool,
        message: `format ${JSON.stringify(value)} is not supported`,
      });
    } else if (key === "required" && Array.isArray(value)) {
      const props = isNonArrayObject(schema.properties) ? schema.properties : {};
      value.forEach((n, i) => {
        if (typeof n !== "string" || !Object.hasOwn(props, n)) {
          out.push({
            code: "required_missing",
            path: `${p}/${i}`,
            tool,
            message: `required ${JSON.stringify(n)} is not in properties`,
          });
        }
      });
    } else if (key === "properties" && isNonArrayObject(value)) {
      for (const [name, v] of Object.entries(value)) {
        checkOpenApi(v, `${p}/${escapePointerToken(name)}`, tool, profile, false, out, level + 1);
      }
    } else if (key === "items") checkOpenApi(value, p, tool, profile, false, out, level + 1);
    else if (key === "anyOf" && Array.isArray(value)) {
      value.forEach((v, i) => checkOpenApi(v, `${p}/${i}`, tool, profile, false, out, level + 1));
    }
  }
}

function checkOpenApiRoot(
  schema: unknown,
  path: string,
  profile: ProviderProfile,
  tool: string | undefined,
): PreflightProblem[] {
  const problems: PreflightProblem[] = [];
  checkOpenApi(schema, path, tool, profile, true, problems);
  return problems;
}

/** Describes a Gemini function declaration for preflight. */
export function describeGeminiTool(
  tool: Record<string, unknown>,
  path: string,
  problems: PreflightProblem[],
): PreflightTool {
  if (tool.parameters !== undefined && tool.parametersJsonSchema !== undefined) {
    problems.push({
      code: "invalid_shape",
      path: `${path}/parametersJsonSchema`,
      message: "parameters and parametersJsonSchema are mutually exclusive",
    });
  }
  const schemas: PreflightSchema[] = [];
  for (const key of ["parameters", "response"]) {
    if (tool[key] !== undefined) {
      schemas.push({ schema: tool[key], path: `${path}/${key}`, check: checkOpenApiRoot });
    }
  }
  for (const key of ["parametersJsonSchema", "responseJsonSchema"]) {
    if (tool[key] !== undefined) {
      schemas.push({ schema: tool[key], path: `${path}/${key}`, rootSchemaKeyword: false });
    }
  }
  return { name: tool.name, namePath: `${path}/name`, schemas, strict: false };
}
