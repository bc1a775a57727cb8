// Private: maps in a target that closes every object (OpenAI and Anthropic
// strict). An object below the root without properties whose
// `additionalProperties` is not `false` (or an untyped schema whose only
// keyword is an `additionalProperties` schema) cannot be declared, so it is
// declared as a string holding the object as JSON text (see _json_text.ts),
// like Gemini's `parameters` do; the strict input normalizer parses the text
// back.

import { isObj, type Obj, show } from "./_json.ts";
import { sourceNotes, textDescription, textMessage } from "./_json_text.ts";
import { inferType, typesOf } from "./_keywords.ts";
import { resolve } from "./_normalizer.ts";
import { ambiguousText, jsonSchemaDialect } from "./_openapi_ambiguity.ts";
import type { Walker } from "./_walk.ts";
import type { NodeScope } from "./_walk_keywords.ts";

const NOT_A_MAP = ["anyOf", "oneOf", "allOf", "enum", "const", "$ref", "not", "if"];

/** Whether the source schema `s` is a map the walk declares as JSON text. */
export function isTextMap(w: Walker, s: Obj, isRoot: boolean): boolean {
  if (w.profile.jsonTextMaps !== true || isRoot) return false;
  const types = typesOf(s);
  if (types.length === 0) {
    if (!isUntypedMap(s)) return false;
  } else if (!types.includes("object") || types.some((t) => t !== "object" && t !== "null")) {
    return false;
  }
  if (isObj(s.properties) && Object.keys(s.properties).length > 0) return false;
  if (s.additionalProperties === false || s.unevaluatedProperties === false) return false;
  return !NOT_A_MAP.some((k) => s[k] !== undefined);
}

/**
 * Whether `s` has no `type` and says only that it is a map: an
 * `additionalProperties` schema and no keyword of another type.
 */
function isUntypedMap(s: Obj): boolean {
  return s.type === undefined && isObj(s.additionalProperties) && inferType(s) === "object";
}

function why(w: Walker): string {
  return `${w.options.to} strict mode closes every object, so a map (an object without properties) cannot be declared`;
}

/** Rewrites, in place, the finished output of a map into a string holding JSON text. */
export function encodeMap(c: NodeScope): void {
  const { w, s, out } = c;
  const describe = w.options.describe;
  const { notes, described } = sourceNotes(s, describe);
  if (isObj(s.additionalProperties)) {
    w.warn(
      c.at("additionalProperties"),
      "additionalProperties",
      described ? "moved-to-description" : "dropped",
      "widens",
      `the value schema of a map held as JSON text is not checked by ${w.options.to}${
        described ? "; it is stated in the description" : ""
      }`,
    );
  }
  if (Array.isArray(out.required) && out.required.length > 0) {
    if (describe) notes.push(`required keys: ${show(out.required, 200)}`);
    w.warn(
      c.at("required"),
      "required",
      describe ? "moved-to-description" : "dropped",
      "widens",
      `required keys of a map held as JSON text are not checked by ${w.options.to}`,
    );
  }
  notes.push(...c.notes.splice(0));
  const text: Obj = { type: typesOf(s).includes("null") ? ["string", "null"] : "string" };
  if (out.title !== undefined) text.title = out.title;
  text.description = textDescription(out.description, notes, false);
  for (const key of Object.keys(out)) delete out[key];
  Object.assign(out, text);
  w.jsonText.add(out);
  const untyped = s.type === undefined;
  const warning = w.warn(
    c.pointer,
    "type",
    "rewritten",
    untyped ? "narrows" : "widens",
    textMessage(why(w), "string", false) + (untyped ? UNTYPED : ""),
  );
  if (warning !== undefined) w.textWarnings.set(out, warning);
}

const UNTYPED =
  "; the schema has no type and is read as a map, so values other than objects and strings are rejected now; a string that is not JSON object text stays a string, which the untyped schema accepts, and one holding JSON object text reaches the handler as that object";

/** Marks the warnings of JSON-text nodes that another `anyOf` branch makes ambiguous. */
export function settleJsonText(w: Walker, schema: Obj): void {
  if (w.jsonText.size === 0) return;
  const dialect = jsonSchemaDialect((node) => resolve(node, schema));
  for (const node of ambiguousText(schema, w.jsonText, dialect)) {
    const warning = w.textWarnings.get(node);
    if (warning === undefined) continue;
    const i = w.sink.list.indexOf(warning);
    w.sink.list[i] = {
      ...warning,
      effect: "narrows",
      message: textMessage(why(w), "string", true) +
        (warning.message.endsWith(UNTYPED) ? UNTYPED : ""),
    };
  }
}
