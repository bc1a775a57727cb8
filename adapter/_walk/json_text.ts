// Private: maps in a target that closes every object (OpenAI and Anthropic
// strict). An object below the root without properties whose
// `additionalProperties` is not `false` (or an untyped schema whose only
// keyword is an `additionalProperties` schema) cannot be declared, so it is
// declared as a string holding the object as JSON text (see ../_json_text/),
// like Gemini's `parameters` do; the strict input normalizer parses the text
// back.

import { inferType, type Obj, show, typesOf } from "../_schema/mod.ts";
import { isNonArrayObject } from "../../model/plain_object.ts";
import {
  ambiguousText,
  jsonSchemaDialect,
  sourceNotes,
  textDescription,
  textMessage,
} from "../_json_text/mod.ts";
import { resolve } from "../_normalizer/mod.ts";
import type { NodeScope, WalkContext } from "./context.ts";

const NOT_A_MAP = ["anyOf", "oneOf", "allOf", "enum", "const", "$ref", "not", "if"];

/** Whether the source schema `sourceSchema` is a map the walk declares as JSON text. */
export function isTextMap(walker: WalkContext, sourceSchema: Obj, isRoot: boolean): boolean {
  if (walker.profile.jsonTextMaps !== true || isRoot) return false;
  const types = typesOf(sourceSchema);
  if (types.length === 0) {
    if (!isUntypedMap(sourceSchema)) return false;
  } else if (!types.includes("object") || types.some((t) => t !== "object" && t !== "null")) {
    return false;
  }
  if (
    isNonArrayObject(sourceSchema.properties) && Object.keys(sourceSchema.properties).length > 0
  ) {
    return false;
  }
  if (sourceSchema.additionalProperties === false || sourceSchema.unevaluatedProperties === false) {
    return false;
  }
  return !NOT_A_MAP.some((k) => sourceSchema[k] !== undefined);
}

/**
 * Whether `sourceSchema` has no `type` and says only that it is a map: an
 * `additionalProperties` schema and no keyword of another type.
 */
function isUntypedMap(sourceSchema: Obj): boolean {
  return sourceSchema.type === undefined && isNonArrayObject(sourceSchema.additionalProperties) &&
    inferType(sourceSchema) === "object";
}

function why(walker: WalkContext): string {
  return `${walker.options.to} strict mode closes every object, so a map (an object without properties) cannot be declared`;
}

/** Rewrites, in place, the finished output of a map into a string holding JSON text. */
export function encodeMap(scope: NodeScope): void {
  const { walker, sourceSchema, out } = scope;
  const describe = walker.options.describe;
  const { notes, described } = sourceNotes(sourceSchema, describe);
  if (isNonArrayObject(sourceSchema.additionalProperties)) {
    walker.warn(
      scope.keywordPointer("additionalProperties"),
      "additionalProperties",
      described ? "moved-to-description" : "dropped",
      "widens",
      `the value schema of a map held as JSON text is not checked by ${walker.options.to}${
        described ? "; it is stated in the description" : ""
      }`,
    );
  }
  if (Array.isArray(out.required) && out.required.length > 0) {
    if (describe) notes.push(`required keys: ${show(out.required, 200)}`);
    walker.warn(
      scope.keywordPointer("required"),
      "required",
      describe ? "moved-to-description" : "dropped",
      "widens",
      `required keys of a map held as JSON text are not checked by ${walker.options.to}`,
    );
  }
  notes.push(...scope.notes.splice(0));
  const text: Obj = {
    type: typesOf(sourceSchema).includes("null") ? ["string", "null"] : "string",
  };
  if (out.title !== undefined) text.title = out.title;
  text.description = textDescription(out.description, notes, false);
  for (const key of Object.keys(out)) delete out[key];
  Object.assign(out, text);
  walker.jsonText.add(out);
  const untyped = sourceSchema.type === undefined;
  const warning = walker.warn(
    scope.pointer,
    "type",
    "rewritten",
    untyped ? "narrows" : "widens",
    textMessage(why(walker), "string", false) + (untyped ? UNTYPED : ""),
  );
  if (warning !== undefined) walker.textWarnings.set(out, warning);
}

const UNTYPED =
  "; the schema has no type and is read as a map, so values other than objects and strings are rejected now; a string that is not JSON object text stays a string, which the untyped schema accepts, and one holding JSON object text reaches the handler as that object";

/** Marks the warnings of JSON-text nodes that another `anyOf` branch makes ambiguous. */
export function settleJsonText(walker: WalkContext, schema: Obj): void {
  if (walker.jsonText.size === 0) return;
  const dialect = jsonSchemaDialect((node) => resolve(node, schema));
  for (const node of ambiguousText(schema, walker.jsonText, dialect)) {
    const warning = walker.textWarnings.get(node);
    if (warning === undefined) continue;
    const index = walker.sink.list.indexOf(warning);
    walker.sink.list[index] = {
      ...warning,
      effect: "narrows",
      message: textMessage(why(walker), "string", true) +
        (warning.message.endsWith(UNTYPED) ? UNTYPED : ""),
    };
  }
}
