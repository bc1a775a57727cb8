// Private: Gemini's OpenAPI 3.0 Schema subset (`parameters` / `response`) read
// back as JSON Schema 2020-12.

import { clone, depthError, type Obj, put } from "../_schema/mod.ts";
import { escapePointerToken } from "../../model/json_pointer.ts";
import { isNonArrayObject } from "../../model/plain_object.ts";
import { MAX_SCHEMA_DEPTH } from "../limits.ts";

/**
 * Maps Gemini's OpenAPI subset (found at `at`, a pointer into the tool) back
 * to JSON Schema 2020-12.
 *
 * @throws {SchemaShapeError} When schemas nest deeper than `MAX_SCHEMA_DEPTH`.
 */
export function fromOpenApi(node: unknown, at: string, depth = 0): unknown {
  if (!isNonArrayObject(node)) return clone(node, at);
  if (depth >= MAX_SCHEMA_DEPTH) throw depthError(at, MAX_SCHEMA_DEPTH, "schema levels");
  const out: Obj = {};
  const nullable = node.nullable === true;
  for (const [key, value] of Object.entries(node)) {
    const p = `${at}/${escapePointerToken(key)}`;
    switch (key) {
      case "type":
        if (typeof value === "string" && value !== "TYPE_UNSPECIFIED") {
          const t = value.toLowerCase();
          out.type = nullable && t !== "null" ? [t, "null"] : t;
        }
        break;
      case "nullable":
        break;
      case "example":
        out.examples = [clone(value, p)];
        break;
      case "enum":
        out.enum = nullable && Array.isArray(value) ? [...clone(value, p), null] : clone(value, p);
        break;
      case "properties":
        if (isNonArrayObject(value)) {
          const props: Obj = {};
          for (const [name, v] of Object.entries(value)) {
            put(props, name, fromOpenApi(v, `${p}/${escapePointerToken(name)}`, depth + 1));
          }
          out.properties = props;
        } else out.properties = clone(value, p);
        break;
      case "items":
        out.items = fromOpenApi(value, p, depth + 1);
        break;
      case "anyOf":
        out.anyOf = Array.isArray(value)
          ? value.map((v, i) => fromOpenApi(v, `${p}/${i}`, depth + 1))
          : clone(value, p);
        if (nullable && node.type === undefined && Array.isArray(out.anyOf)) {
          out.anyOf = [...out.anyOf, { type: "null" }];
        }
        break;
      default:
        put(out, key, clone(value, p));
    }
  }
  return out;
}
