// Private: the input normalizer of Gemini's OpenAPI subset. Objects that Gemini's `parameters`
// cannot declare are sent by the model as JSON text (see ../_openapi/json_text.ts);
// `normalize` parses that text back into the object, `denormalize` writes an
// object as its JSON text. Text that is not a JSON object stays a string, so the
// validator of the original schema rejects it with a clear failure.

import { type Obj, put } from "../_schema/mod.ts";
import { isNonArrayObject } from "../../model/plain_object.ts";
import { textFits } from "../_json_text/mod.ts";
import { SchemaNormalizer } from "./base.ts";

/** Whether a value has the OpenAPI type of a schema node (any value when untyped). */
function fits(value: unknown, node: Obj): boolean {
  if (value === null && node.nullable === true) return true;
  switch (node.type) {
    case undefined:
      return true;
    case "STRING":
      return typeof value === "string";
    case "NUMBER":
      return typeof value === "number";
    case "INTEGER":
      return Number.isInteger(value);
    case "BOOLEAN":
      return typeof value === "boolean";
    case "ARRAY":
      return Array.isArray(value);
    case "OBJECT":
      return isNonArrayObject(value);
    case "NULL":
      return value === null;
    default:
      return false;
  }
}

/** Whether a value keeps the enum and the bounds of a node. */
function bounds(value: unknown, node: Obj): boolean {
  const below = (n: number, key: string) => typeof node[key] !== "number" || n >= node[key];
  const above = (n: number, key: string) => typeof node[key] !== "number" || n <= node[key];
  if (Array.isArray(node.enum) && !node.enum.includes(value)) return false;
  if (typeof value === "number") return below(value, "minimum") && above(value, "maximum");
  if (Array.isArray(value)) {
    return below(value.length, "minItems") && above(value.length, "maxItems");
  }
  if (typeof value !== "string") return true;
  const length = [...value].length;
  if (!below(length, "minLength") || !above(length, "maxLength")) return false;
  if (typeof node.pattern !== "string") return true;
  try {
    return new RegExp(node.pattern, "u").test(value);
  } catch {
    return true;
  }
}

/** The normalizer of an OpenAPI-subset schema whose `text` nodes hold objects as JSON text. */
export class OpenApiNormalizer extends SchemaNormalizer {
  /** OpenAPI-subset schemas have no references. */
  deref(schema: unknown): unknown {
    return schema;
  }

  walk(value: unknown, node: unknown, encode: boolean, depth: number): unknown {
    if (!isNonArrayObject(node)) return value;
    if (this.text.has(node)) return this.textValue(value, encode);
    if (Array.isArray(node.anyOf)) {
      const branch = this.#branch(value, node.anyOf, encode, depth);
      if (branch !== undefined) value = this.walk(value, branch, encode, depth + 1);
    }
    if (Array.isArray(value)) {
      return node.items === undefined
        ? value
        : value.map((v) => this.walk(v, node.items, encode, depth + 1));
    }
    if (!isNonArrayObject(value) || !isNonArrayObject(node.properties)) return value;
    const props = node.properties;
    const out: Obj = {};
    for (const [key, v] of Object.entries(value)) {
      put(out, key, Object.hasOwn(props, key) ? this.walk(v, props[key], encode, depth + 1) : v);
    }
    return out;
  }

  /**
   * The branch a value is read by: the first that matches it, those holding
   * JSON text first (so text holding an object is read as the object); else
   * the first of the value's type.
   */
  #branch(value: unknown, branches: unknown[], encode: boolean, depth: number): Obj | undefined {
    const ordered = this.textFirst(branches.filter(isNonArrayObject), depth);
    return ordered.find((b) => this.#matches(value, b, encode)) ??
      ordered.find((b) => !this.text.has(b) && fits(value, b));
  }

  /** Whether a value is valid under a node, as far as the branch choice needs to know. */
  #matches(value: unknown, node: unknown, encode: boolean): boolean {
    if (!isNonArrayObject(node)) return node !== false;
    if (value === null && node.nullable === true) return true;
    if (this.text.has(node)) return textFits(value, encode);
    if (Array.isArray(node.anyOf) && !node.anyOf.some((b) => this.#matches(value, b, encode))) {
      return false;
    }
    if (!fits(value, node) || !bounds(value, node)) return false;
    if (Array.isArray(value)) return value.every((v) => this.#matches(v, node.items, encode));
    if (!isNonArrayObject(value)) return true;
    const props = isNonArrayObject(node.properties) ? node.properties : {};
    const required = Array.isArray(node.required) ? node.required : [];
    return required.every((n) => typeof n !== "string" || Object.hasOwn(value, n)) &&
      Object.entries(value).every(([k, v]) =>
        !Object.hasOwn(props, k) || this.#matches(v, props[k], encode)
      );
  }
}
