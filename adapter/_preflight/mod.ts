// Private: the preflight checks every provider shares (shape, names, JSON
// Schema rules, size limits, request budgets), driven by the adapter's
// description of each tool.

import { isNonArrayObject } from "../../model/plain_object.ts";
import type { Adapter, PreflightOptions, PreflightProblem, PreflightTool } from "../adapter.ts";
import type { ProviderProfile } from "../profile.ts";
import { checkJson, type Counts } from "./json_checks.ts";

export { tooDeepProblem } from "./json_checks.ts";

interface Entry extends PreflightTool {
  index: number;
}

function describeTools(
  tools: readonly unknown[],
  adapter: Adapter,
  problems: PreflightProblem[],
): Entry[] {
  const list: Entry[] = [];
  tools.forEach((tool, index) => {
    const path = `/${index}`;
    if (!isNonArrayObject(tool)) {
      problems.push({ code: "invalid_shape", path, message: "a tool must be an object" });
      return;
    }
    const described = adapter.preflightTool !== undefined
      ? adapter.preflightTool(tool, path, problems)
      : { name: tool.name, namePath: `${path}/name`, schemas: [], strict: false };
    if (described !== undefined) list.push({ ...described, index });
  });
  return list;
}

function checkName(
  entry: Entry,
  profile: ProviderProfile,
  seen: Map<string, number>,
  problems: PreflightProblem[],
): void {
  const tool = typeof entry.name === "string" ? entry.name : undefined;
  if (tool === undefined || tool === "") {
    problems.push({
      code: "invalid_name",
      path: entry.namePath,
      message: "the name must be a non-empty string",
    });
    return;
  }
  const rules = profile.names;
  const checked = entry.nameChecked === true;
  if (!checked && tool.length > rules.maxLength) {
    problems.push({
      code: "name_too_long",
      path: entry.namePath,
      tool,
      message:
        `the name is ${tool.length} characters long; ${profile.format} allows ${rules.maxLength}`,
    });
  }
  const bad = checked ? [] : [...new Set(tool.match(new RegExp(`[^${rules.allowed}]`, "g")) ?? [])];
  if (bad.length > 0) {
    problems.push({
      code: "invalid_name",
      path: entry.namePath,
      tool,
      message: `the name contains ${
        bad.map((character) => JSON.stringify(character)).join(", ")
      }, not allowed by ${profile.format}`,
    });
  }
  if (rules.firstChar !== undefined && !new RegExp(`^[${rules.firstChar}]`).test(tool)) {
    problems.push({
      code: "invalid_name",
      path: entry.namePath,
      tool,
      message: `the name must start with [${rules.firstChar}]`,
    });
  }
  const before = seen.get(tool);
  if (before !== undefined) {
    problems.push({
      code: "duplicate_name",
      path: entry.namePath,
      tool,
      message: `the name is also used by tool ${before}`,
    });
  } else seen.set(tool, entry.index);
}

/** Runs the preflight of `adapter`'s format over a request's tools. */
export function runPreflight(
  adapter: Adapter,
  tools: readonly unknown[],
  options: PreflightOptions | undefined,
): PreflightProblem[] {
  const target = adapter.format;
  const profile = options?.profile ?? adapter.profile;
  const problems: PreflightProblem[] = [];
  const seen = new Map<string, number>();
  const budget = { tools: 0, optional: 0, unions: 0 };
  for (const entry of describeTools(tools, adapter, problems)) {
    checkName(entry, profile, seen, problems);
    const tool = typeof entry.name === "string" ? entry.name : undefined;
    const counts: Counts = { properties: 0, depth: 0, chars: 0, enums: 0, optional: 0, unions: 0 };
    const mode = entry.strict ? profile.strictSchema : undefined;
    const strictName = `${target} strict mode`;
    for (const schema of entry.schemas) {
      if (schema.check !== undefined) {
        problems.push(...schema.check(schema.schema, schema.path, profile, tool));
        continue;
      }
      checkJson(schema.schema, schema.path, tool, mode, strictName, target, counts, problems, {
        rootCombinators: schema.rootCombinators !== false &&
          !(entry.strict && mode?.rootCombinators === false),
        noRootSchema: schema.rootSchemaKeyword === false,
        requireAll: mode?.requireAll === true,
      });
    }
    const limits = mode?.limits;
    if (limits !== undefined) {
      const base = entry.schemas[0]?.path ?? `/${entry.index}`;
      const over = (what: string, value: number, max: number | undefined) => {
        if (max !== undefined && value > max) {
          problems.push({
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
    if (entry.strict) {
      budget.tools++;
      budget.optional += counts.optional;
      budget.unions += counts.unions;
    }
  }
  const requestLimits = profile.requestLimits;
  if (requestLimits !== undefined) {
    const over = (what: string, value: number, max: number) => {
      if (value > max) {
        problems.push({
          code: "budget_exceeded",
          path: "",
          message: `${what} across strict tools is ${value}; ${target} allows ${max} per request`,
        });
      }
    };
    over("the number of strict tools", budget.tools, requestLimits.maxStrictTools);
    over("the number of optional parameters", budget.optional, requestLimits.maxOptionalParams);
    over("the number of union-typed parameters", budget.unions, requestLimits.maxUnionParams);
  }
  return problems;
}
