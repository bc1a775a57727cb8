// Private: the kit of the provider adapters: names (name_codec.ts), tool-level
// fields, shape checks, the strict-mode decision (strict.ts), the pass-through
// schema rules.

import type { ToolIssue } from "../../model/errors.ts";
import { parseToolId } from "../../model/tool_id.ts";
import type { CanonicalTool } from "../canonical_tool.ts";
import { InvalidProviderToolError } from "../errors.ts";
import { clone, type Obj, put, type WarningSink } from "../_schema/mod.ts";
import { escapePointerToken } from "../../model/json_pointer.ts";
import { isNonArrayObject } from "../../model/plain_object.ts";
import { decodeToolName, encodeToolName } from "./name_codec.ts";
import type { ProviderProfile, SchemaProfile } from "../profile.ts";
import type { ConvertOptions } from "../adapter.ts";

export { decodeWith, encodeWith } from "./name_codec.ts";
export { strictNormalizer, strictOrNot } from "./strict.ts";

const TOOL_FIELDS = [
  "title",
  "outputSchema",
  "annotations",
  "icons",
  "execution",
  "_meta",
  "version",
  "tags",
] as const;

/** Warns about every tool-level field the target has no place for. */
export function dropToolFields(
  tool: CanonicalTool,
  sink: WarningSink,
  keep: readonly string[] = [],
): void {
  for (const field of TOOL_FIELDS) {
    if (tool[field] === undefined || keep.includes(field)) continue;
    sink.add(`/${field}`, field, "dropped", "none", `${sink.to} tools have no ${field}`);
  }
}

/** The provider name of a canonical tool, warning when it needs a name map to decode. */
export function providerName(
  tool: CanonicalTool,
  profile: ProviderProfile,
  options: ConvertOptions | undefined,
  sink: WarningSink,
): string {
  const id = tool.namespace ? `${tool.namespace}:${tool.name}` : tool.name;
  const name = options?.names !== undefined
    ? options.names.toProvider(id)
    : encodeToolName(id, profile);
  if (decodeToolName(name, profile) !== id) {
    sink.add(
      "/name",
      "name",
      "rewritten",
      "none",
      `tool ID ${JSON.stringify(id)} is written as ${
        JSON.stringify(name)
      }; map tool calls back with a ToolNameMap`,
    );
  }
  return name;
}

/** The canonical name and namespace of a provider name. */
export function canonicalName(
  name: string,
  profile: ProviderProfile,
  options: ConvertOptions | undefined,
  sink: WarningSink,
): { name: string; namespace?: string } {
  let id: string | undefined;
  if (options?.names?.has(name)) id = options.names.toCanonical(name);
  else id = decodeToolName(name, profile);
  if (id !== undefined) {
    const parsed = parseToolId(id);
    return parsed.namespace === ""
      ? { name: parsed.name }
      : { name: parsed.name, namespace: parsed.namespace };
  }
  const safe = name.replace(/[^A-Za-z0-9_.-]/g, "_").slice(0, 128) || "_";
  sink.add(
    "/name",
    "name",
    "rewritten",
    "none",
    `provider name ${
      JSON.stringify(name)
    } cannot be decoded into a tool ID without a ToolNameMap; it is kept as the name ${
      JSON.stringify(safe)
    }`,
  );
  return { name: safe };
}

/** The tool as an object, or InvalidProviderToolError when it is not one. */
export function requireObject(format: string, tool: unknown): Obj {
  if (!isNonArrayObject(tool)) {
    throw new InvalidProviderToolError(format, [{ path: "", message: "must be an object" }]);
  }
  return tool;
}

/** Checks the `name` and `description` every provider format shares, under `root`. */
export function checkNameAndDescription(fn: Obj, root: string, issues: ToolIssue[]): void {
  if (typeof fn.name !== "string" || fn.name === "") {
    issues.push({ path: `${root}/name`, message: "must be a non-empty string" });
  }
  if (fn.description !== undefined && typeof fn.description !== "string") {
    issues.push({ path: `${root}/description`, message: "must be a string" });
  }
}

/** Throws when issues were found. */
export function check(format: string, issues: ToolIssue[]): void {
  if (issues.length > 0) throw new InvalidProviderToolError(format, issues);
}

/** Reads an input schema: an object schema, `type: "object"` added when absent. */
export function readInputSchema(
  format: string,
  value: unknown,
  path: string,
  sink: WarningSink,
  issues: ToolIssue[],
): Obj {
  if (value === undefined) return { type: "object" };
  if (!isNonArrayObject(value)) {
    issues.push({ path, message: "must be a JSON Schema object" });
    return { type: "object" };
  }
  const schema = clone(value, path);
  if (schema.type === undefined) {
    sink.add(
      "/inputSchema/type",
      "type",
      "rewritten",
      "none",
      `${format} schema has no root type; tool arguments are objects, so type "object" is added`,
    );
    return { type: "object", ...schema };
  }
  if (schema.type !== "object") {
    issues.push({
      path: `${path}/type`,
      message: `must be "object", found ${JSON.stringify(schema.type)}`,
    });
  }
  return schema;
}

/** The fields of `tool` (found at `at`) other than `known`, copied. */
export function otherFields(tool: Obj, known: readonly string[], at = ""): Obj {
  const out: Obj = {};
  for (const [key, value] of Object.entries(tool)) {
    if (!known.includes(key)) put(out, key, clone(value, `${at}/${escapePointerToken(key)}`));
  }
  return out;
}

/** Provider fields of a format from a canonical tool (empty object when none). */
export function fieldsOf(tool: CanonicalTool, format: string): Obj {
  const fields = tool.providerFields;
  const found = isNonArrayObject(fields) && Object.hasOwn(fields, format)
    ? fields[format]
    : undefined;
  return isNonArrayObject(found) ? found : {};
}

/** The schema rules of a target that takes any JSON Schema unchanged. */
export const PASS: SchemaProfile = {
  keywords: "any",
  rootCombinators: true,
  refs: "pass",
  refSiblings: true,
  recursion: true,
  oneOf: "keep",
  allOf: "keep",
  closeObjects: false,
  requireAll: false,
  typeRequired: false,
  simplePatterns: false,
};
