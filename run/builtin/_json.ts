// Private: the JSON built-ins, `json.get` (RFC 6901 pointer) and `json.format`.

import { unescapePointerToken } from "../../model/json_pointer.ts";
import { type BuiltinTool, PURE } from "./builtin_tool.ts";

/** The value a JSON Pointer names (own properties, RFC 6901 array indexes); throws when none. */
function pointerGet(value: unknown, pointer: string): unknown {
  if (pointer === "") return value;
  if (!pointer.startsWith("/")) {
    throw new Error(`"${pointer}" is not a JSON Pointer (it must start with "/")`);
  }
  let current = value;
  for (const raw of pointer.slice(1).split("/")) {
    const token = unescapePointerToken(raw);
    const found = Array.isArray(current)
      // RFC 6901: an array index is "0" or digits without a leading zero.
      ? /^(0|[1-9][0-9]*)$/.test(token) && Number(token) < current.length
      : typeof current === "object" && current !== null && Object.hasOwn(current, token);
    if (!found) throw new Error(`nothing at ${pointer} (no "${token}")`);
    current = (current as Record<string, unknown>)[token];
  }
  return current;
}

/** `args.value`, or else `args.previous`: the document a JSON helper works on. */
function documentOf(args: Record<string, unknown>): unknown {
  return Object.hasOwn(args, "value") ? args.value : args.previous;
}

/** Input schemas of the JSON helpers: a value, or a previous step's result. */
const VALUE_OR_PREVIOUS = [{ required: ["value"] }, { required: ["previous"] }];

/** `json.get`: the value at a JSON Pointer. */
export const JSON_GET: BuiltinTool = {
  tool: {
    name: "get",
    description:
      "Read the value at a JSON Pointer in `value` (or, in a chain, in the previous step's result)",
    inputSchema: {
      type: "object",
      properties: {
        pointer: { type: "string", description: 'A JSON Pointer such as "/result"' },
        value: { description: "The document (defaults to previous)" },
        previous: { description: "The previous chain step's result" },
      },
      required: ["pointer"],
      anyOf: VALUE_OR_PREVIOUS,
      additionalProperties: false,
    },
    outputSchema: {
      type: "object",
      properties: { value: { description: "The value found (any JSON value)" } },
      required: ["value"],
    },
    annotations: PURE,
  },
  handler: (args) => ({ value: pointerGet(documentOf(args), args.pointer as string) }),
};

/** `json.format`: a value as indented JSON text. */
export const JSON_FORMAT: BuiltinTool = {
  tool: {
    name: "format",
    description: "Format a JSON value as text",
    inputSchema: {
      type: "object",
      properties: {
        value: { description: "The value (defaults to previous)" },
        indent: { type: "integer", minimum: 0, maximum: 8, default: 2 },
        previous: { description: "The previous chain step's result" },
      },
      anyOf: VALUE_OR_PREVIOUS,
      additionalProperties: false,
    },
    outputSchema: {
      type: "object",
      properties: { text: { type: "string" } },
      required: ["text"],
    },
    annotations: PURE,
  },
  handler: (args) => ({
    text: JSON.stringify(documentOf(args), null, (args.indent as number | undefined) ?? 2) ??
      "null",
  }),
};
