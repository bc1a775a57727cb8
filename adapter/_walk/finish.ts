// Private: the rules of the schema walk applied to each finished output node,
// after its keywords: a type where every schema needs one, closed objects,
// `required` names without a property schema removed, and (OpenAI strict)
// every property required, the optional ones made nullable and marked for the
// input normalizer.

import {
  acceptsNull,
  ANY_TYPES,
  dropEffect,
  inferType,
  isObjectSchema,
  put,
  show,
} from "../_schema/mod.ts";
import { escapePointerToken } from "../../model/json_pointer.ts";
import { isNonArrayObject } from "../../model/plain_object.ts";
import { makeNullable } from "./nullable.ts";
import { encodeMap } from "./json_text.ts";
import type { NodeScope } from "./context.ts";

/** Applies the node rules to the output of `scope`. */
export function finishNode(scope: NodeScope): void {
  const { walker, sourceSchema, out } = scope;
  if (scope.jsonText) return encodeMap(scope);
  if (
    walker.profile.typeRequired && out.type === undefined && out.anyOf === undefined &&
    out.enum === undefined && !Object.hasOwn(out, "const") && out.$ref === undefined
  ) {
    const inferred = inferType(sourceSchema);
    if (inferred !== undefined) {
      out.type = inferred;
      walker.warn(
        scope.keywordPointer("type"),
        "type",
        "rewritten",
        "narrows",
        `every schema needs a type; "${inferred}" is inferred from its keywords and other types are rejected now`,
      );
    } else {
      out.type = [...ANY_TYPES];
      walker.warn(
        scope.keywordPointer("type"),
        "type",
        "rewritten",
        "narrows",
        "every schema needs a type; only scalars (string, number, boolean, null) are accepted now",
      );
    }
  }
  if (!isObjectSchema(out)) {
    if (walker.profile.closeObjects && sourceSchema.additionalProperties !== undefined) {
      walker.warn(
        scope.keywordPointer("additionalProperties"),
        "additionalProperties",
        "dropped",
        dropEffect("additionalProperties", sourceSchema.additionalProperties),
        "additionalProperties outside an object schema is dropped",
      );
    }
    return;
  }
  if (walker.profile.closeObjects) closeObject(scope);
  if (walker.keep !== undefined) dropUnknownRequired(scope);
  if (walker.profile.requireAll) requireAll(scope);
}

function closeObject(scope: NodeScope): void {
  const { sourceSchema, out } = scope;
  const ap = sourceSchema.additionalProperties;
  if (ap !== false) {
    const same = sourceSchema.unevaluatedProperties === false;
    scope.walker.warn(
      scope.keywordPointer("additionalProperties"),
      "additionalProperties",
      "rewritten",
      same ? "none" : "narrows",
      ap === undefined || ap === true
        ? "objects must be closed (additionalProperties: false); properties not listed are rejected now"
        : "objects must be closed (additionalProperties: false); the values of unlisted keys that the schema allowed are rejected now",
    );
  }
  if (out.properties === undefined) out.properties = {};
  out.additionalProperties = false;
}

function dropUnknownRequired(scope: NodeScope): void {
  const out = scope.out;
  if (!Array.isArray(out.required)) return;
  const props = isNonArrayObject(out.properties) ? out.properties : undefined;
  const missing = (out.required as unknown[]).filter((n) =>
    typeof n !== "string" || props === undefined || !Object.hasOwn(props, n)
  );
  if (missing.length === 0) return;
  out.required = (out.required as unknown[]).filter((n) => !missing.includes(n));
  if ((out.required as unknown[]).length === 0) delete out.required;
  scope.walker.warn(
    scope.keywordPointer("required"),
    "required",
    "rewritten",
    "widens",
    `required names without a property schema (${
      missing.map((n) => show(n)).join(", ")
    }) are removed`,
  );
}

function requireAll(scope: NodeScope): void {
  const { walker, sourceSchema, out } = scope;
  const props = isNonArrayObject(out.properties) ? out.properties : undefined;
  if (props === undefined) return;
  const required = Array.isArray(sourceSchema.required)
    ? sourceSchema.required.filter((n): n is string => typeof n === "string")
    : [];
  const source = isNonArrayObject(sourceSchema.properties) ? sourceSchema.properties : {};
  for (const name of Object.keys(props)) {
    if (required.includes(name)) continue;
    const known = Object.hasOwn(source, name);
    const propPointer = known
      ? scope.propertyPointer(name)
      : `${scope.pointer}/properties/${escapePointerToken(name)}`;
    if (acceptsNull(known ? source[name] : undefined, walker.refs)) {
      walker.warn(
        propPointer,
        "required",
        "rewritten",
        "narrows",
        `optional property ${
          JSON.stringify(name)
        } already accepts null, so it is made required as it is: the model can no longer omit it`,
      );
      continue;
    }
    put(props, name, makeNullable(props[name]));
    let set = walker.nullable.get(out);
    if (set === undefined) walker.nullable.set(out, set = new Set());
    set.add(name);
    walker.warn(
      propPointer,
      "required",
      "rewritten",
      "none",
      `optional property ${
        JSON.stringify(name)
      } is required and nullable; the input normalizer turns null back into absent`,
    );
  }
  out.required = Object.keys(props);
}
