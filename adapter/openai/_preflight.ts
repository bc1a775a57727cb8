// Private: the preflight rules of OpenAI function tools (Chat Completions and
// Responses): `type: "function"`, the function object, its JSON Schema
// `parameters` and its `strict` flag.

import { isNonArrayObject } from "../../model/plain_object.ts";
import type { PreflightProblem, PreflightTool } from "../adapter.ts";

/** Describes an OpenAI function tool (`flat` for Responses) for preflight. */
export function describeFunctionTool(
  tool: Record<string, unknown>,
  path: string,
  flat: boolean,
  problems: PreflightProblem[],
): PreflightTool | undefined {
  const fn = flat ? tool : tool.function;
  if (tool.type !== "function") {
    problems.push({ code: "invalid_shape", path: `${path}/type`, message: 'must be "function"' });
  }
  if (!isNonArrayObject(fn)) {
    problems.push({
      code: "invalid_shape",
      path: `${path}/function`,
      message: "must be an object",
    });
    return undefined;
  }
  const root = flat ? path : `${path}/function`;
  return {
    name: fn.name,
    namePath: `${root}/name`,
    schemas: fn.parameters === undefined
      ? []
      : [{ schema: fn.parameters, path: `${root}/parameters` }],
    strict: fn.strict === true,
  };
}
