// Private: JSON Schema (already reduced to Gemini's subset by the walk) -> the
// OpenAPI 3.0 Schema object of Gemini's `parameters` / `response`. The way
// back is in read.ts.

import {
  clone,
  mapValues,
  type Obj,
  put,
  show,
  typesOf,
  type WarningSink,
} from "../_schema/mod.ts";
import { isNonArrayObject } from "../../model/plain_object.ts";

const BY_TYPE: Record<string, readonly string[]> = {
  string: ["minLength", "maxLength", "pattern", "format", "enum"],
  number: ["minimum", "maximum", "format"],
  integer: ["minimum", "maximum", "format"],
  array: ["items", "minItems", "maxItems"],
  object: ["properties", "required", "minProperties", "maxProperties", "propertyOrdering"],
  boolean: [],
};
const TYPED = new Set(Object.values(BY_TYPE).flat());

/** Maps a walked schema to Gemini's OpenAPI subset. */
export function toOpenApi(
  node: unknown,
  origin: WeakMap<object, string>,
  sink: WarningSink,
  fallback: string,
  describe: boolean,
): unknown {
  if (!isNonArrayObject(node)) return node === false ? { type: "NULL" } : {};
  const from = origin.get(node) ?? fallback;
  const at = (key: string) => `${from}/${key}`;
  const map = (v: unknown) => toOpenApi(v, origin, sink, from, describe);
  const notes: string[] = [];
  let types = typesOf(node);
  let nullable = types.includes("null") || node.nullable === true;
  types = types.filter((t) => t !== "null");
  let values: unknown[] | undefined;
  let valuesKey: "enum" | "const" | undefined;
  if (Object.hasOwn(node, "const")) [values, valuesKey] = [[node.const], "const"];
  else if (Array.isArray(node.enum)) [values, valuesKey] = [node.enum, "enum"];
  if (values !== undefined) {
    if (values.includes(null)) {
      nullable = true;
      values = values.filter((v) => v !== null);
      sink.add(
        at(valuesKey!),
        valuesKey!,
        "rewritten",
        "none",
        values.length === 0
          ? `${valuesKey} null is written as type NULL`
          : `null among the ${valuesKey} values is written as nullable`,
      );
    }
    if (values.every((v) => typeof v === "string")) {
      if (values.length > 0) {
        if (types.length === 0) {
          sink.add(
            at("type"),
            "type",
            "rewritten",
            "none",
            `an ${valuesKey} of strings is typed STRING`,
          );
        }
        types = ["string"];
        if (valuesKey === "const") {
          sink.add(
            at("const"),
            "const",
            "rewritten",
            "none",
            "const is written as a one-value enum",
          );
        }
      }
    } else {
      const hint = `${valuesKey}: ${show(valuesKey === "const" ? node.const : node.enum, 200)}`;
      if (describe) notes.push(hint);
      sink.add(
        at(valuesKey!),
        valuesKey!,
        describe ? "moved-to-description" : "dropped",
        "widens",
        `Gemini enums hold strings only${
          describe ? "; the values are stated in the description" : ""
        }`,
      );
      if (types.length === 0) {
        const vt = [...new Set(values.map((v) => Number.isInteger(v) ? "integer" : typeof v))];
        if (vt.length === 1 && Object.hasOwn(BY_TYPE, vt[0])) types = [vt[0]];
      }
      values = undefined;
    }
  }
  if (types.length > 1 && node.anyOf === undefined) {
    sink.add(at("type"), "type", "rewritten", "none", "a type list is written as anyOf");
    const branches = types.map((t) => {
      const b: Obj = { type: t };
      const keys = Object.hasOwn(BY_TYPE, t) ? BY_TYPE[t] : [];
      for (const key of keys) if (node[key] !== undefined) b[key] = node[key];
      if (t === "string" && values !== undefined) b.enum = values;
      origin.set(b, from);
      return b;
    });
    const rest: Obj = {};
    for (const [key, value] of Object.entries(node)) {
      if (key !== "type" && key !== "enum" && key !== "const" && !TYPED.has(key)) {
        put(rest, key, value);
      }
    }
    rest.anyOf = branches;
    origin.set(rest, from);
    const out = toOpenApi(rest, origin, sink, from, describe) as Obj;
    if (nullable) out.nullable = true;
    return out;
  }
  const out: Obj = {};
  for (const [key, value] of Object.entries(node)) {
    switch (key) {
      case "type":
        if (types.length === 1) out.type = types[0].toUpperCase();
        else if (nullable && types.length === 0) out.type = "NULL";
        if (Array.isArray(value) || value === "null") {
          if (nullable && types.length === 1) {
            sink.add(
              at("type"),
              "type",
              "rewritten",
              "none",
              "a type list with null is written as nullable",
            );
          }
        }
        break;
      case "const":
      case "enum":
        if (values !== undefined && values.length > 0) {
          out.enum = values;
          if (out.type === undefined && types.length === 1) out.type = types[0].toUpperCase();
        }
        break;
      case "nullable":
        break;
      case "examples":
        if (Array.isArray(value) && value.length > 0) {
          out.example = clone(value[0]);
          sink.add(
            at("examples"),
            "examples",
            "rewritten",
            "none",
            value.length > 1
              ? "only the first of the examples is kept, as example"
              : "examples is written as example",
          );
        }
        break;
      case "exclusiveMinimum":
      case "exclusiveMaximum": {
        if (typeof value !== "number") break;
        const min = key === "exclusiveMinimum";
        const whole = types.length === 1 && types[0] === "integer" && Number.isInteger(value);
        const bound = whole ? (min ? value + 1 : value - 1) : value;
        const other = min ? node.minimum : node.maximum;
        const target = min ? "minimum" : "maximum";
        if (typeof other === "number" && (min ? other >= bound : other <= bound)) {
          sink.add(
            at(key),
            key,
            "dropped",
            "widens",
            `${key} is not supported; ${target} ${other} is kept`,
          );
          break;
        }
        out[target] = bound;
        sink.add(
          at(key),
          key,
          "rewritten",
          whole ? "none" : "widens",
          whole
            ? `${key} ${value} on integers is written as ${target} ${bound}`
            : `${key} ${value} is written as ${target} ${value}, which also accepts ${value}`,
        );
        break;
      }
      case "minimum":
      case "maximum":
        if (out[key] === undefined) out[key] = value;
        break;
      case "properties":
        if (isNonArrayObject(value)) out.properties = mapValues(value, map);
        break;
      case "items":
        out.items = map(value);
        break;
      case "anyOf": {
        const branches = Array.isArray(value) ? value : [];
        const kept = branches.filter((b) =>
          !(isNonArrayObject(b) && b.type === "null" && Object.keys(b).length === 1)
        );
        if (kept.length < branches.length) nullable = true;
        if (kept.length === 1 && isNonArrayObject(kept[0])) {
          const inner = map(kept[0]) as Obj;
          for (const [k, v] of Object.entries(inner)) if (!Object.hasOwn(out, k)) put(out, k, v);
        } else out.anyOf = kept.map(map);
        break;
      }
      default:
        put(out, key, clone(value));
    }
  }
  if (nullable && out.type === undefined && out.anyOf === undefined && values?.length === 0) {
    out.type = "NULL";
    nullable = false;
  }
  if (nullable) out.nullable = true;
  if (notes.length > 0) {
    const text = `(${notes.join("; ")})`;
    out.description = typeof out.description === "string" && out.description !== ""
      ? `${out.description} ${text}`
      : text;
  }
  origin.set(out, from);
  return out;
}
