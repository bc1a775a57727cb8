// Private: the texts of failures: a keyword's message from its value (and,
// for `type`, the value's), the messages of missing properties, of extra
// members and of failing `anyOf`/`oneOf` branches.

import type { KeywordSite } from "./_output_unit.ts";

/** A value as messages quote it (JSON, at most 60 characters). */
function quote(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? text.slice(0, 57) + "..." : text;
}

function list(values: unknown, limit = 10): string {
  if (!Array.isArray(values)) return quote(values);
  const shown = values.slice(0, limit).map(quote).join(", ");
  return values.length > limit ? `${shown}, ... (${values.length} in all)` : shown;
}

function typeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

function plural(n: unknown, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/** The word of the keywords whose false-schema units name the extra member, else undefined. */
export function extraWord(keyword: string): string | undefined {
  switch (keyword) {
    case "additionalProperties":
      return "additional property";
    case "unevaluatedProperties":
      return "unevaluated property";
    case "unevaluatedItems":
      return "unevaluated item";
    case "additionalItems":
      return "additional item";
    default:
      return undefined;
  }
}

/**
 * The message of `additionalProperties`, `additionalItems`,
 * `unevaluatedProperties` or `unevaluatedItems` (`keyword`) for the extra
 * member `name` its false subschema refuses.
 */
export function extraMessage(keyword: string, name: string | undefined): string {
  return `must NOT have ${extraWord(keyword)} ${quoteName(name)}`;
}

/**
 * The message of the failure of a unit of `keyword` (`"false"` for a false
 * schema) at `site` without nested units, other than `anyOf` and `oneOf`:
 * a string for every value, or, for `type`, a function of the value (of
 * its type name alone: "null", "boolean", "object", "array", "number",
 * "integer" or "string").
 */
export function soleMessage(
  keyword: string,
  site: KeywordSite,
): string | ((instance: unknown) => string) {
  const word = extraWord(keyword);
  if (word !== undefined) return `must NOT have ${word}s`;
  if (keyword === site.last && keyword !== "type") {
    return site.leaf ??= leafMessage(keyword, site.value, site.schema, undefined);
  }
  if (keyword !== "type") return leafMessage(keyword, site.value, site.schema, undefined);
  return (instance) => leafMessage(keyword, site.value, site.schema, instance);
}

function quoteName(name: string | undefined): string {
  return `'${name ?? ""}'`;
}

/**
 * The messages of `required`, `dependentRequired` or `dependencies` (whose
 * value is `value`) on `instance`: one per missing property.
 */
export function missingProperties(keyword: string, value: unknown, instance: unknown): string[] {
  if (typeof instance !== "object" || instance === null || Array.isArray(instance)) return [];
  const has = (p: string) => Object.hasOwn(instance, p);
  if (keyword === "required" && Array.isArray(value)) {
    return value.filter((p) => !has(p)).map((p) => `must have required property ${quoteName(p)}`);
  }
  if (typeof value !== "object" || value === null) return [];
  const out: string[] = [];
  for (const [trigger, needed] of Object.entries(value)) {
    if (!has(trigger) || !Array.isArray(needed)) continue;
    for (const p of needed) {
      if (!has(p)) {
        out.push(
          `must have property ${quoteName(p)} when property ${quoteName(trigger)} is present`,
        );
      }
    }
  }
  return out;
}

/**
 * The message of a failing `anyOf` or `oneOf` whose failing branches' parts
 * (`[index] messages`) are `parts` (none: more than one branch matched).
 */
export function branchText(keyword: string, parts: readonly string[]): string {
  return branchJoined(keyword, parts.length === 0 ? undefined : parts.join("; "));
}

/** {@linkcode branchText} of the parts joined by "; " (undefined: no part). */
export function branchJoined(keyword: string, joined: string | undefined): string {
  const head = keyword === "oneOf"
    ? "must match exactly one schema in oneOf"
    : "must match at least one schema in anyOf";
  if (joined === undefined) return `${head}, but matched more than one`;
  return `${head} (${joined})`;
}

/**
 * The message of a failure of `keyword` (`"false"` for a false schema) whose
 * value is `value` in `schema`, on `instance` (read by `type` alone).
 */
export function leafMessage(
  keyword: string,
  value: unknown,
  schema: Record<string, unknown> | undefined,
  instance: unknown,
): string {
  switch (keyword) {
    case "false":
      return "is not allowed (the schema here is false)";
    case "type":
      return `must be ${Array.isArray(value) ? value.join(" or ") : value}, found ${
        typeOf(instance)
      }`;
    case "enum":
      return `must be equal to one of the allowed values: ${list(value)}`;
    case "const":
      return `must be equal to constant ${quote(value)}`;
    case "minimum":
      return schema?.exclusiveMinimum === true ? `must be > ${value}` : `must be >= ${value}`;
    case "maximum":
      return schema?.exclusiveMaximum === true ? `must be < ${value}` : `must be <= ${value}`;
    case "exclusiveMinimum":
      return `must be > ${value}`;
    case "exclusiveMaximum":
      return `must be < ${value}`;
    case "multipleOf":
      return `must be a multiple of ${value}`;
    case "minLength":
      return `must NOT have fewer than ${plural(value, "character")}`;
    case "maxLength":
      return `must NOT have more than ${plural(value, "character")}`;
    case "minItems":
      return `must NOT have fewer than ${plural(value, "item")}`;
    case "maxItems":
      return `must NOT have more than ${plural(value, "item")}`;
    case "minProperties":
      return `must NOT have fewer than ${plural(value, "property")}`.replace(
        "propertys",
        "properties",
      );
    case "maxProperties":
      return `must NOT have more than ${plural(value, "property")}`.replace(
        "propertys",
        "properties",
      );
    case "uniqueItems":
      return "must NOT have duplicate items";
    case "pattern":
      return `must match pattern ${quote(value)}`;
    case "format":
      return `must match format ${quote(value)}`;
    case "contains":
      return `must contain at least ${schema?.minContains ?? 1} valid item(s)`;
    case "minContains":
      return `must contain at least ${value} valid item(s)`;
    case "maxContains":
      return `must contain at most ${value} valid item(s)`;
    case "not":
      return "must NOT be valid against the schema in 'not'";
    case "propertyNames":
      return "must have valid property names";
    case "required":
    case "dependentRequired":
    case "dependencies":
      return `must have the properties that '${keyword}' lists`;
    default:
      return `must pass '${keyword}'`;
  }
}
