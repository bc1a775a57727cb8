// Private: Gemini's OpenAPI 3.0 Schema subset (`parameters` / `response`) read
// back as JSON Schema 2020-12.

import { clone, isObj, mapValues, type Obj } from "./_json.ts";

/** Maps Gemini's OpenAPI subset back to JSON Schema 2020-12. */
export function fromOpenApi(node: unknown): unknown {
  if (!isObj(node)) return node;
  const out: Obj = {};
  const nullable = node.nullable === true;
  for (const [key, value] of Object.entries(node)) {
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
        out.examples = [clone(value)];
        break;
      case "enum":
        out.enum = nullable && Array.isArray(value) ? [...value, null] : clone(value);
        break;
      case "properties":
        out.properties = isObj(value) ? mapValues(value, fromOpenApi) : clone(value);
        break;
      case "items":
        out.items = fromOpenApi(value);
        break;
      case "anyOf":
        out.anyOf = Array.isArray(value) ? value.map(fromOpenApi) : clone(value);
        if (nullable && node.type === undefined && Array.isArray(out.anyOf)) {
          out.anyOf = [...out.anyOf, { type: "null" }];
        }
        break;
      default:
        out[key] = clone(value);
    }
  }
  return out;
}
