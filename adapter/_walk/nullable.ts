// Private: the nullable rewrite of strict modes.

import { isNonArrayObject } from "../../model/plain_object.ts";

/**
 * A schema that also accepts `null` (the OpenAI strict idiom for optional
 * fields). Output nodes are changed in place so that markers keyed by node
 * identity stay valid.
 */
export function makeNullable(schema: unknown): unknown {
  if (!isNonArrayObject(schema) || Object.hasOwn(schema, "const")) {
    return { anyOf: [schema, { type: "null" }] };
  }
  if (typeof schema.type === "string") schema.type = [schema.type, "null"];
  else if (Array.isArray(schema.type)) {
    if (!schema.type.includes("null")) schema.type = [...schema.type, "null"];
  } else if (Array.isArray(schema.anyOf)) {
    schema.anyOf = [...schema.anyOf, { type: "null" }];
    return schema;
  } else if (!Array.isArray(schema.enum)) {
    return { anyOf: [schema, { type: "null" }] };
  }
  if (Array.isArray(schema.enum) && !schema.enum.includes(null)) {
    schema.enum = [...schema.enum, null];
  }
  return schema;
}
