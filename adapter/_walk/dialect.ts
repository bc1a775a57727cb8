// Private: the keyword rules of the schema walk for the dialect: `$schema`,
// definitions, tuples and `dependencies`, whose draft-07 forms are written as
// JSON Schema 2020-12 whenever the schema is normalized for a target.

import { clone, dropEffect, type Obj, put } from "../_schema/mod.ts";
import { escapePointerToken } from "../../model/json_pointer.ts";
import { isNonArrayObject } from "../../model/plain_object.ts";
import type { KeywordRule, NodeScope } from "./context.ts";

function schemaKeyword(
  scope: NodeScope,
  key: string,
  value: unknown,
  keywordPointer: string,
): boolean {
  const walker = scope.walker;
  if (scope.isRoot && walker.keep === undefined && !walker.options.dropSchema) {
    scope.out.$schema = value;
  } else {
    walker.warn(
      keywordPointer,
      key,
      "dropped",
      "none",
      scope.isRoot
        ? `${walker.options.to} takes no $schema; the schema is written as JSON Schema 2020-12`
        : "$schema inside a subschema is dropped",
    );
  }
  return true;
}

/** `$defs` and `definitions`: hoisted, inlined or passed through with the references. */
function definitions(
  scope: NodeScope,
  key: string,
  value: unknown,
  keywordPointer: string,
): boolean {
  const walker = scope.walker;
  if (walker.profile.refs === "inline") {
    walker.warn(
      keywordPointer,
      key,
      "rewritten",
      "none",
      "definitions are inlined where they are referenced",
    );
  } else if (walker.profile.refs === "keep" && key === "definitions") {
    walker.warn(
      keywordPointer,
      key,
      "rewritten",
      "none",
      "draft-07 definitions are written as $defs",
    );
  } else if (walker.profile.refs === "pass") {
    if (!walker.allowed(key)) scope.drop(key, value, "none", scope.unsupported(key));
    else if (key === "definitions" && walker.draft07 && scope.sourceSchema.$defs === undefined) {
      walker.warn(
        keywordPointer,
        key,
        "rewritten",
        "none",
        "draft-07 definitions is $defs in 2020-12",
      );
      scope.out.$defs = walker.convertSchemaMap(value, keywordPointer);
    } else scope.out[key] = walker.convertSchemaMap(value, keywordPointer);
  }
  return true;
}

/** Array-form `items` (a draft-07 tuple) is `prefixItems` in 2020-12. */
function items(scope: NodeScope, key: string, value: unknown, keywordPointer: string): boolean {
  if (!Array.isArray(value)) return false;
  const walker = scope.walker;
  if (walker.allowed("prefixItems") && (walker.normalize || walker.allowed("items"))) {
    if (walker.normalize) {
      walker.warn(
        keywordPointer,
        key,
        "rewritten",
        "none",
        "draft-07 array-form items is prefixItems in 2020-12",
      );
      scope.out.prefixItems = scope.convertSubschemas(value, keywordPointer);
    } else scope.out.items = scope.convertSubschemas(value, keywordPointer);
  } else {
    scope.tupleDropped = true;
    scope.drop(
      key,
      value,
      "widens",
      `tuple validation (array-form items) is not supported by ${walker.options.to}`,
    );
  }
  return true;
}

/** `additionalItems` beside a draft-07 tuple is `items` in 2020-12. */
function additionalItems(
  scope: NodeScope,
  key: string,
  value: unknown,
  keywordPointer: string,
): boolean {
  const walker = scope.walker;
  if (!walker.normalize) return false;
  if (Array.isArray(scope.sourceSchema.items)) {
    if (!scope.tupleDropped && walker.allowed("items")) {
      walker.warn(
        keywordPointer,
        key,
        "rewritten",
        "none",
        "draft-07 additionalItems is items in 2020-12",
      );
      scope.out.items = scope.convertSubschema(value, keywordPointer);
    } else scope.drop(key, value, dropEffect(key, value), scope.unsupported(key));
  } else {
    walker.warn(
      keywordPointer,
      key,
      "dropped",
      "none",
      "additionalItems without array-form items has no effect",
    );
  }
  return true;
}

function prefixItems(scope: NodeScope, key: string, value: unknown): boolean {
  if (scope.walker.allowed(key)) return false;
  scope.tupleDropped = true;
  scope.drop(key, value, "widens", scope.unsupported(key));
  return true;
}

/** `dependencies` is `dependentRequired` and `dependentSchemas` in 2020-12. */
function dependencies(
  scope: NodeScope,
  key: string,
  value: unknown,
  keywordPointer: string,
): boolean {
  if (!isNonArrayObject(value)) return false;
  const walker = scope.walker;
  if (!walker.normalize) {
    const deps: Obj = {};
    for (const [name, dependency] of Object.entries(value)) {
      const dependencyPointer = `${keywordPointer}/${escapePointerToken(name)}`;
      put(
        deps,
        name,
        Array.isArray(dependency)
          ? clone(dependency, walker.toolPointer(dependencyPointer))
          : scope.convertSubschema(dependency, dependencyPointer),
      );
    }
    scope.out[key] = deps;
    return true;
  }
  const req: Obj = {};
  const sch: Obj = {};
  for (const [name, dependency] of Object.entries(value)) {
    put(Array.isArray(dependency) ? req : sch, name, dependency);
  }
  for (
    const [keyword2020, group] of [["dependentRequired", req], ["dependentSchemas", sch]] as const
  ) {
    if (Object.keys(group).length === 0) continue;
    if (walker.allowed(keyword2020)) {
      walker.warn(
        keywordPointer,
        key,
        "rewritten",
        "none",
        `draft-07 dependencies is ${keyword2020} in 2020-12`,
      );
      scope.out[keyword2020] = keyword2020 === "dependentRequired"
        ? clone(group, walker.toolPointer(keywordPointer))
        : walker.convertSchemaMap(group, keywordPointer);
    } else walker.warn(keywordPointer, key, "dropped", "widens", scope.unsupported(key));
  }
  return true;
}

/** The dialect rules by keyword. */
export const DIALECT_RULES: Record<string, KeywordRule> = {
  $schema: schemaKeyword,
  $defs: definitions,
  definitions,
  items,
  additionalItems,
  prefixItems,
  dependencies,
};
