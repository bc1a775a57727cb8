// Private: what every target that holds objects as JSON text shares. Gemini's
// `parameters` cannot declare an OBJECT without properties and OpenAI's strict
// mode cannot declare a map (every object is closed), so such objects are
// declared as a string holding the object as JSON text: the description says
// so, a warning reports it, and the input normalizer parses the text back.

import { type Obj, show } from "../_schema/mod.ts";
import { unescapePointerToken } from "../../model/json_pointer.ts";
import { isNonArrayObject } from "../../model/plain_object.ts";

/** The object a JSON text holds, or `undefined` when it holds none. */
function parseObject(text: string): Obj | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return isNonArrayObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** The model's value read back: JSON object text becomes the object, anything else stays. */
export function decodeText(value: unknown): unknown {
  return typeof value === "string" ? parseObject(value) ?? value : value;
}

/** The original value written as the model sends it: an object becomes its JSON text. */
export function encodeText(value: unknown): unknown {
  return isNonArrayObject(value) ? JSON.stringify(value) : value;
}

/** Whether a value fits a JSON-text node in the given direction (`encode`: original form). */
export function textFits(value: unknown, encode: boolean): boolean {
  return encode
    ? isNonArrayObject(value)
    : typeof value === "string" && parseObject(value) !== undefined;
}

/** What a recursion cut to "any object" stands for. */
function repeats(ref: string): string {
  if (ref === "#") return "the same schema as the root object";
  const name = /^#\/(?:\$defs|definitions)\/([^/]+)$/.exec(ref)?.[1];
  return name === undefined
    ? `the same schema as ${ref}`
    : `the same schema as the enclosing ${JSON.stringify(unescapePointerToken(name))} object`;
}

/**
 * The notes on a source object held as JSON text: its value schema (when
 * `describe`) and the reference it stands for (`large`: cut for the inlining
 * budget, else for recursion). `described` tells whether the
 * `additionalProperties` went into the notes.
 */
export function sourceNotes(
  source: Obj,
  describe: boolean,
  large = false,
): { notes: string[]; described: boolean } {
  const notes: string[] = [];
  const ap = source.additionalProperties;
  const described = describe && (isNonArrayObject(ap) || ap === false);
  if (described) notes.push(ap === false ? "no keys allowed" : `values: ${show(ap, 200)}`);
  if (typeof source.$ref === "string") {
    notes.push(
      large
        ? `the schema of ${source.$ref}, not inlined because it is too large`
        : `recursive: ${repeats(source.$ref)}`,
    );
  }
  return { notes, described };
}

/** The description of a node held as JSON text (`response`: only read by the model). */
export function textDescription(own: unknown, notes: string[], response: boolean): string {
  const text = [
    response
      ? "a JSON object (declared as a string only because Gemini cannot declare an object without properties)"
      : "holds a JSON object as JSON text",
    ...notes,
  ].join("; ");
  return typeof own === "string" && own !== ""
    ? `${own} (${text})`
    : text[0].toUpperCase() + text.slice(1);
}

/**
 * The message of the warning on an input object held as JSON text: `why` the
 * object cannot be declared, the declared `type`, and (`unsure`) whether
 * another `anyOf` branch could take a string there.
 */
export function textMessage(why: string, type: string, unsure: boolean): string {
  return `${why}: it is declared as a ${type} and the model must send the object as JSON text, which the input normalizer parses back (text that is not a JSON object stays a string and fails validation)${
    unsure
      ? "; another anyOf branch can take a string here, and a string holding JSON object text is read as this object, so such a string no longer reaches the handler as a string"
      : ""
  }`;
}
