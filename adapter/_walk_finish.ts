// Private: the rules of the schema walk applied to each finished output node,
// after its keywords: a type where every schema needs one, closed objects,
// `required` names without a property schema removed, and (OpenAI strict)
// every property required, the optional ones made nullable and marked for the
// input normalizer.

import { esc, isObj, put, show } from "./_json.ts";
import { ANY_TYPES, dropEffect, inferType, isObjectSchema } from "./_keywords.ts";
import { makeNullable } from "./_nullable.ts";
import { acceptsNull } from "./_refs.ts";
import { encodeMap } from "./_walk_json_text.ts";
import type { NodeScope } from "./_walk_keywords.ts";

/** Applies the node rules to the output of `c`. */
export function finishNode(c: NodeScope): void {
  const { w, s, out } = c;
  if (c.jsonText) return encodeMap(c);
  if (
    w.profile.typeRequired && out.type === undefined && out.anyOf === undefined &&
    out.enum === undefined && !Object.hasOwn(out, "const") && out.$ref === undefined
  ) {
    const inferred = inferType(s);
    if (inferred !== undefined) {
      out.type = inferred;
      w.warn(
        c.at("type"),
        "type",
        "rewritten",
        "narrows",
        `every schema needs a type; "${inferred}" is inferred from its keywords and other types are rejected now`,
      );
    } else {
      out.type = [...ANY_TYPES];
      w.warn(
        c.at("type"),
        "type",
        "rewritten",
        "narrows",
        "every schema needs a type; only scalars (string, number, boolean, null) are accepted now",
      );
    }
  }
  if (!isObjectSchema(out)) {
    if (w.profile.closeObjects && s.additionalProperties !== undefined) {
      w.warn(
        c.at("additionalProperties"),
        "additionalProperties",
        "dropped",
        dropEffect("additionalProperties", s.additionalProperties),
        "additionalProperties outside an object schema is dropped",
      );
    }
    return;
  }
  if (w.profile.closeObjects) closeObject(c);
  if (w.keep !== undefined) dropUnknownRequired(c);
  if (w.profile.requireAll) requireAll(c);
}

function closeObject(c: NodeScope): void {
  const { s, out } = c;
  const ap = s.additionalProperties;
  if (ap !== false) {
    const same = s.unevaluatedProperties === false;
    c.w.warn(
      c.at("additionalProperties"),
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

function dropUnknownRequired(c: NodeScope): void {
  const out = c.out;
  if (!Array.isArray(out.required)) return;
  const props = isObj(out.properties) ? out.properties : undefined;
  const missing = (out.required as unknown[]).filter((n) =>
    typeof n !== "string" || props === undefined || !Object.hasOwn(props, n)
  );
  if (missing.length === 0) return;
  out.required = (out.required as unknown[]).filter((n) => !missing.includes(n));
  if ((out.required as unknown[]).length === 0) delete out.required;
  c.w.warn(
    c.at("required"),
    "required",
    "rewritten",
    "widens",
    `required names without a property schema (${
      missing.map((n) => show(n)).join(", ")
    }) are removed`,
  );
}

function requireAll(c: NodeScope): void {
  const { w, s, out } = c;
  const props = isObj(out.properties) ? out.properties : undefined;
  if (props === undefined) return;
  const required = Array.isArray(s.required)
    ? s.required.filter((n): n is string => typeof n === "string")
    : [];
  const source = isObj(s.properties) ? s.properties : {};
  for (const name of Object.keys(props)) {
    if (required.includes(name)) continue;
    const known = Object.hasOwn(source, name);
    const propPointer = known ? c.propPointer(name) : `${c.pointer}/properties/${esc(name)}`;
    if (acceptsNull(known ? source[name] : undefined, w.refs)) {
      w.warn(
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
    let set = w.nullable.get(out);
    if (set === undefined) w.nullable.set(out, set = new Set());
    set.add(name);
    w.warn(
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
