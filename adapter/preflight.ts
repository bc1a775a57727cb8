/**
 * Preflight: the problems a provider would reject a request for, found before
 * anything is sent.
 *
 * @module
 */

import { validateTool } from "../model/validate_tool.ts";
import { InvalidToolError } from "../model/errors.ts";
import { isNonArrayObject } from "../model/_json_pointer.ts";
import { resolveProfile } from "./_profiles.ts";
import { checkJson, type Counts } from "./_preflight_checks.ts";
import { checkOpenApi } from "./_preflight_openapi.ts";
import type { ProviderProfile } from "./profile.ts";

/** One problem the provider would reject. */
export interface PreflightProblem {
  /** Stable code, e.g. `invalid_name`, `not_closed`, `unsupported_keyword`, `budget_exceeded`. */
  code: string;
  /** JSON Pointer into the `tools` array, e.g. `/0/function/parameters/properties/x/default`. */
  path: string;
  /** The tool's name as written, when known. */
  tool?: string;
  /** What is wrong. */
  message: string;
}

/** Options of {@linkcode preflight}. */
export interface PreflightOptions {
  /** A profile that replaces the target's built-in one (other limits or names). */
  profile?: ProviderProfile;
}

interface Entry {
  index: number;
  name: unknown;
  namePath: string;
  schemas: { schema: unknown; path: string; kind: "json" | "openapi" }[];
  strict: boolean;
}

function entries(tools: readonly unknown[], format: string, out: PreflightProblem[]): Entry[] {
  const list: Entry[] = [];
  tools.forEach((tool, index) => {
    const p = `/${index}`;
    if (!isNonArrayObject(tool)) {
      out.push({ code: "invalid_shape", path: p, message: "a tool must be an object" });
      return;
    }
    switch (format) {
      case "mcp": {
        try {
          validateTool(tool);
        } catch (error) {
          if (!(error instanceof InvalidToolError)) throw error;
          for (const issue of error.issues) {
            out.push({
              code: "invalid_tool",
              path: p + issue.path,
              tool: String(tool.name),
              message: issue.message,
            });
          }
        }
        list.push({ index, name: tool.name, namePath: `${p}/name`, schemas: [], strict: false });
        return;
      }
      case "openai":
      case "openai-responses": {
        const flat = format === "openai-responses";
        const fn = flat ? tool : tool.function;
        if (tool.type !== "function") {
          out.push({ code: "invalid_shape", path: `${p}/type`, message: 'must be "function"' });
        }
        if (!isNonArrayObject(fn)) {
          out.push({ code: "invalid_shape", path: `${p}/function`, message: "must be an object" });
          return;
        }
        const root = flat ? p : `${p}/function`;
        const schemas = fn.parameters === undefined
          ? []
          : [{ schema: fn.parameters, path: `${root}/parameters`, kind: "json" as const }];
        list.push({
          index,
          name: fn.name,
          namePath: `${root}/name`,
          schemas,
          strict: fn.strict === true,
        });
        return;
      }
      case "anthropic":
        if (tool.input_schema === undefined) {
          out.push({ code: "invalid_shape", path: `${p}/input_schema`, message: "is required" });
        }
        list.push({
          index,
          name: tool.name,
          namePath: `${p}/name`,
          schemas: tool.input_schema === undefined
            ? []
            : [{ schema: tool.input_schema, path: `${p}/input_schema`, kind: "json" }],
          strict: tool.strict === true,
        });
        return;
      case "gemini": {
        if (tool.parameters !== undefined && tool.parametersJsonSchema !== undefined) {
          out.push({
            code: "invalid_shape",
            path: `${p}/parametersJsonSchema`,
            message: "parameters and parametersJsonSchema are mutually exclusive",
          });
        }
        const schemas: Entry["schemas"] = [];
        for (const key of ["parameters", "response"]) {
          if (tool[key] !== undefined) {
            schemas.push({ schema: tool[key], path: `${p}/${key}`, kind: "openapi" });
          }
        }
        for (const key of ["parametersJsonSchema", "responseJsonSchema"]) {
          if (tool[key] !== undefined) {
            schemas.push({ schema: tool[key], path: `${p}/${key}`, kind: "json" });
          }
        }
        list.push({ index, name: tool.name, namePath: `${p}/name`, schemas, strict: false });
        return;
      }
    }
  });
  return list;
}

function checkName(
  e: Entry,
  profile: ProviderProfile,
  seen: Map<string, number>,
  out: PreflightProblem[],
): void {
  const tool = typeof e.name === "string" ? e.name : undefined;
  if (tool === undefined || tool === "") {
    out.push({
      code: "invalid_name",
      path: e.namePath,
      message: "the name must be a non-empty string",
    });
    return;
  }
  const rules = profile.names;
  const mcp = profile.format === "mcp"; // validateTool has checked MCP names already
  if (!mcp && tool.length > rules.maxLength) {
    out.push({
      code: "name_too_long",
      path: e.namePath,
      tool,
      message:
        `the name is ${tool.length} characters long; ${profile.format} allows ${rules.maxLength}`,
    });
  }
  const bad = mcp ? [] : [...new Set(tool.match(new RegExp(`[^${rules.allowed}]`, "g")) ?? [])];
  if (bad.length > 0) {
    out.push({
      code: "invalid_name",
      path: e.namePath,
      tool,
      message: `the name contains ${
        bad.map((c) => JSON.stringify(c)).join(", ")
      }, not allowed by ${profile.format}`,
    });
  }
  if (rules.firstChar !== undefined && !new RegExp(`^[${rules.firstChar}]`).test(tool)) {
    out.push({
      code: "invalid_name",
      path: e.namePath,
      tool,
      message: `the name must start with [${rules.firstChar}]`,
    });
  }
  const before = seen.get(tool);
  if (before !== undefined) {
    out.push({
      code: "duplicate_name",
      path: e.namePath,
      tool,
      message: `the name is also used by tool ${before}`,
    });
  } else seen.set(tool, e.index);
}

/**
 * Finds what the provider would reject in a request with these tools (in the
 * target's format): root not an object, illegal, too long or duplicate names,
 * strict-incompatible keywords, unresolvable references, size limits,
 * Gemini `OBJECT`s without properties (at any depth of `parameters` and
 * `response`), and Anthropic's request-wide strict budgets. Every problem has a JSON Pointer
 * into the `tools` array. An empty list means no known problem.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { preflight } from "@toolfoundation/core/adapter";
 *
 * const problems = preflight([{
 *   type: "function",
 *   function: {
 *     name: "math:add",
 *     parameters: { type: "object", properties: { a: { type: "number", default: 1 } } },
 *     strict: true,
 *   },
 * }], "openai");
 * assert.deepEqual(problems.map((p) => `${p.code} ${p.path}`), [
 *   "invalid_name /0/function/name",
 *   "not_required /0/function/parameters/properties/a",
 *   "not_closed /0/function/parameters/additionalProperties",
 *   "unsupported_keyword /0/function/parameters/properties/a/default",
 * ]);
 * ```
 *
 * @param tools The tools, in the target's format.
 * @param target The format name (`mcp`, `openai`, `openai-responses`, `anthropic`, `gemini`).
 * @param options A replacement profile.
 * @returns The problems, in tool order (request-wide budgets last).
 * @throws {UnknownFormatError} When the target is not a built-in format.
 */
export function preflight(
  tools: readonly unknown[],
  target: string,
  options?: PreflightOptions,
): PreflightProblem[] {
  const builtin = resolveProfile(target);
  const profile = options?.profile ?? builtin;
  const out: PreflightProblem[] = [];
  const seen = new Map<string, number>();
  const budget = { tools: 0, optional: 0, unions: 0 };
  for (const e of entries(tools, target, out)) {
    checkName(e, profile, seen, out);
    const tool = typeof e.name === "string" ? e.name : undefined;
    const counts: Counts = { properties: 0, depth: 0, chars: 0, enums: 0, optional: 0, unions: 0 };
    const mode = e.strict ? profile.strictSchema : undefined;
    const strictName = `${target} strict mode`;
    for (const s of e.schemas) {
      if (s.kind === "openapi") {
        checkOpenApi(s.schema, s.path, tool, profile, true, out);
        continue;
      }
      checkJson(s.schema, s.path, tool, mode, strictName, target, counts, out, {
        rootCombinators: target !== "anthropic" && !(e.strict && mode?.rootCombinators === false),
        noRootSchema: target === "gemini",
        requireAll: mode?.requireAll === true,
      });
    }
    const limits = mode?.limits;
    if (limits !== undefined) {
      const base = e.schemas[0]?.path ?? `/${e.index}`;
      const over = (what: string, value: number, max: number | undefined) => {
        if (max !== undefined && value > max) {
          out.push({
            code: "limit_exceeded",
            path: base,
            tool,
            message: `${what} is ${value}; ${target} allows ${max}`,
          });
        }
      };
      over("the number of properties", counts.properties, limits.maxProperties);
      over("the nesting depth", counts.depth, limits.maxDepth);
      over("the length of names and enum values", counts.chars, limits.maxStringChars);
      over("the number of enum values", counts.enums, limits.maxEnumValues);
    }
    if (e.strict) {
      budget.tools++;
      budget.optional += counts.optional;
      budget.unions += counts.unions;
    }
  }
  const req = profile.requestLimits;
  if (req !== undefined) {
    const over = (what: string, value: number, max: number) => {
      if (value > max) {
        out.push({
          code: "budget_exceeded",
          path: "",
          message: `${what} across strict tools is ${value}; ${target} allows ${max} per request`,
        });
      }
    };
    over("the number of strict tools", budget.tools, req.maxStrictTools);
    over("the number of optional parameters", budget.optional, req.maxOptionalParams);
    over("the number of union-typed parameters", budget.unions, req.maxUnionParams);
  }
  return out;
}
