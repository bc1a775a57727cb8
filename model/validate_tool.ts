/**
 * Tool definition checks: every rule of the tool model and the MCP spec, every
 * problem reported at once with a JSON Pointer.
 *
 * @module
 */

import { InvalidToolError, type ToolIssue } from "./errors.ts";
import { normalizeTag } from "./tags.ts";
import type { Tool } from "./tool.ts";
import { isNonArrayObject } from "./plain_object.ts";
import { nameProblems } from "./_name.ts";

const SEMVER =
  /^v?(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[A-Za-z-][0-9A-Za-z-]*)(?:\.(?:0|[1-9]\d*|\d*[A-Za-z-][0-9A-Za-z-]*))*))?(?:\+([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?$/;

const HINTS = ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"] as const;
const TASK_SUPPORT = ["forbidden", "optional", "required"];

/**
 * Whether a version string is `1.2.3` or `v1.2.3`, with optional pre-release
 * and build parts (Semantic Versioning 2.0.0).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isValidVersion } from "@toolfoundation/core/model";
 *
 * assert.equal(isValidVersion("v1.2.3-rc.1+build.5"), true);
 * assert.equal(isValidVersion("1.2"), false);
 * ```
 *
 * @param version The version string.
 * @returns `true` when it is a semantic version.
 */
export function isValidVersion(version: string): boolean {
  return SEMVER.test(version);
}

function checkObjectSchema(value: unknown, path: string, issues: ToolIssue[]): void {
  if (!isNonArrayObject(value)) {
    issues.push({ path, message: "must be a JSON Schema object" });
  } else if (value.type !== "object") {
    issues.push({
      path: `${path}/type`,
      message: `must be "object" (MCP tool schemas describe an object), found ${
        value.type === undefined ? "no type" : JSON.stringify(value.type)
      }`,
    });
  }
}

function checkOptionalString(
  obj: Record<string, unknown>,
  key: string,
  path: string,
  issues: ToolIssue[],
): void {
  if (obj[key] !== undefined && typeof obj[key] !== "string") {
    issues.push({ path: `${path}/${key}`, message: "must be a string" });
  }
}

function checkTags(tags: unknown, issues: ToolIssue[]): void {
  if (!Array.isArray(tags)) {
    issues.push({ path: "/tags", message: "must be an array of strings" });
    return;
  }
  const seen = new Set<string>();
  tags.forEach((tag, i) => {
    if (typeof tag !== "string") {
      issues.push({ path: `/tags/${i}`, message: "must be a string" });
    } else if (normalizeTag(tag) !== tag || tag === "") {
      issues.push({
        path: `/tags/${i}`,
        message: `is not normalized; normalizeTags gives ${JSON.stringify(normalizeTag(tag))}`,
      });
    } else if (seen.has(tag)) {
      issues.push({ path: `/tags/${i}`, message: `duplicates ${JSON.stringify(tag)}` });
    }
    if (typeof tag === "string") seen.add(tag);
  });
  if (tags.length > 20) {
    issues.push({ path: "/tags", message: `has ${tags.length} tags; the limit is 20` });
  }
}

function checkAnnotations(value: unknown, issues: ToolIssue[]): void {
  if (!isNonArrayObject(value)) {
    issues.push({ path: "/annotations", message: "must be an object" });
    return;
  }
  checkOptionalString(value, "title", "/annotations", issues);
  for (const hint of HINTS) {
    if (value[hint] !== undefined && typeof value[hint] !== "boolean") {
      issues.push({ path: `/annotations/${hint}`, message: "must be a boolean" });
    }
  }
}

function checkIcons(value: unknown, issues: ToolIssue[]): void {
  if (!Array.isArray(value)) {
    issues.push({ path: "/icons", message: "must be an array of icons" });
    return;
  }
  value.forEach((icon, i) => {
    const path = `/icons/${i}`;
    if (!isNonArrayObject(icon)) {
      issues.push({ path, message: "must be an object with `src`" });
      return;
    }
    if (typeof icon.src !== "string" || icon.src === "") {
      issues.push({ path: `${path}/src`, message: "must be a non-empty URI string" });
    }
    checkOptionalString(icon, "mimeType", path, issues);
    if (
      icon.sizes !== undefined &&
      (!Array.isArray(icon.sizes) || icon.sizes.some((s) => typeof s !== "string"))
    ) {
      issues.push({ path: `${path}/sizes`, message: "must be an array of strings" });
    }
    if (icon.theme !== undefined && icon.theme !== "light" && icon.theme !== "dark") {
      issues.push({ path: `${path}/theme`, message: 'must be "light" or "dark"' });
    }
  });
}

/**
 * Checks a tool definition and reports every problem at once: name and
 * namespace (1-128 characters of `[A-Za-z0-9_.-]`, each offending character
 * named once), version (semver), tags (already normalized), `inputSchema`
 * (present, an object schema), `outputSchema` (an object schema when present),
 * and the shape of `title`, `description`, `annotations`, `icons`,
 * `execution` and `_meta`.
 *
 * Unlike the Go original, namespace, version, tags and the schemas' root type
 * are checked too.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { InvalidToolError, validateTool } from "@toolfoundation/core/model";
 *
 * validateTool({ name: "get_time", inputSchema: { type: "object" } }); // passes
 * assert.throws(
 *   () => validateTool({ name: "a b", namespace: "x:y", inputSchema: { type: "object" } }),
 *   (error) =>
 *     error instanceof InvalidToolError &&
 *     error.issues.map((issue) => issue.path).join(" ") === "/name /namespace",
 * );
 * ```
 *
 * @param tool The definition (any value: it often comes from JSON or YAML).
 * @throws {InvalidToolError} Listing every problem, each with a JSON Pointer.
 */
export function validateTool(tool: unknown): asserts tool is Tool {
  if (!isNonArrayObject(tool)) {
    throw new InvalidToolError([{ path: "", message: "must be an object" }]);
  }
  const issues: ToolIssue[] = [];
  for (const message of nameProblems(tool.name, "name")) issues.push({ path: "/name", message });
  if (tool.namespace !== undefined) {
    for (const message of nameProblems(tool.namespace, "namespace")) {
      issues.push({ path: "/namespace", message });
    }
  }
  if (tool.version !== undefined) {
    if (typeof tool.version !== "string" || !isValidVersion(tool.version)) {
      issues.push({
        path: "/version",
        message: `must be a semantic version like "1.2.3" or "v1.2.3", found ${
          JSON.stringify(tool.version)
        }`,
      });
    }
  }
  if (tool.tags !== undefined) checkTags(tool.tags, issues);
  checkOptionalString(tool, "title", "", issues);
  checkOptionalString(tool, "description", "", issues);
  if (tool.inputSchema === undefined || tool.inputSchema === null) {
    issues.push({ path: "/inputSchema", message: "is required" });
  } else {
    checkObjectSchema(tool.inputSchema, "/inputSchema", issues);
  }
  if (tool.outputSchema !== undefined) {
    checkObjectSchema(tool.outputSchema, "/outputSchema", issues);
  }
  if (tool.annotations !== undefined) checkAnnotations(tool.annotations, issues);
  if (tool.icons !== undefined) checkIcons(tool.icons, issues);
  if (tool.execution !== undefined) {
    if (!isNonArrayObject(tool.execution)) {
      issues.push({ path: "/execution", message: "must be an object" });
    } else if (
      tool.execution.taskSupport !== undefined &&
      !TASK_SUPPORT.includes(tool.execution.taskSupport as string)
    ) {
      issues.push({
        path: "/execution/taskSupport",
        message: `must be one of ${TASK_SUPPORT.join(", ")}`,
      });
    }
  }
  if (tool._meta !== undefined && !isNonArrayObject(tool._meta)) {
    issues.push({ path: "/_meta", message: "must be an object" });
  }
  if (issues.length > 0) throw new InvalidToolError(issues);
}
