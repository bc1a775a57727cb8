// Private: compiles a schema that the fast path supports (see _support.ts)
// into plain JavaScript closures that answer valid/invalid exactly as
// Hyperjump does, keyword by keyword (each rule below mirrors the Hyperjump
// 1.18.0 keyword of the same name). Anything unexpected throws Unsupported,
// and the whole schema then stays on Hyperjump.

import { compilePattern, type Matcher } from "../_regex.ts";
import { testPattern } from "../_pattern_record.ts";
import { allDistinct, jsonMembership } from "./_json_equal.ts";

/** A compiled check: whether the value is valid. May throw {@linkcode FastPathBail}. */
export type Check = (value: unknown) => boolean;

/** The schema uses something the fast path cannot do exactly; the reason says what. */
export class Unsupported extends Error {}

/** Thrown while checking when this one value must be answered by Hyperjump instead. */
export class FastPathBail extends Error {}

/** Nested `$ref` evaluations beyond which a value is handed to Hyperjump (its own limits apply). */
export const MAX_REF_NESTING = 128;

type Schema = Record<string, unknown> | boolean;
type Dialect = "2020-12" | "draft-07";

const TYPES = new Set(["null", "boolean", "object", "array", "number", "string", "integer"]);
const ALWAYS: Check = () => true;
const NEVER: Check = () => false;

/** What one compile shares: the document, the dialect, compiled schemas, pending `$ref`s. */
interface Context {
  root: Schema;
  dialect: Dialect;
  compiled: Map<object, Check>;
  pending: [Schema, { check: Check }][];
  /** Nested `$ref` evaluations of the current check (reset by the entry). */
  state: { refs: number };
}

/** A compiled document: call `reset` semantics are inside (`state.refs` is zeroed per call). */
export function compileDocument(root: Schema, dialect: Dialect): Check {
  const context: Context = { root, dialect, compiled: new Map(), pending: [], state: { refs: 0 } };
  const check = compileSchema(root, context);
  while (context.pending.length > 0) {
    const [target, holder] = context.pending.pop()!;
    holder.check = compileSchema(target, context);
  }
  const state = context.state;
  return (value) => {
    state.refs = 0;
    return check(value);
  };
}

function compileSchema(schema: unknown, context: Context): Check {
  if (schema === true) return ALWAYS;
  if (schema === false) return NEVER;
  if (!isObject(schema)) throw new Unsupported("a subschema that is not an object or a boolean");
  const found = context.compiled.get(schema);
  if (found !== undefined) return found;
  const check = compileObject(schema, context);
  context.compiled.set(schema, check);
  return check;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function number(value: unknown, keyword: string): number {
  if (typeof value !== "number" || !Number.isFinite(value)) {
    throw new Unsupported(`${keyword} that is not a number`);
  }
  return value;
}

function schemaList(value: unknown, keyword: string, context: Context): Check[] {
  if (!Array.isArray(value)) throw new Unsupported(`${keyword} that is not an array`);
  return value.map((item) => compileSchema(item, context));
}

function stringList(value: unknown, keyword: string): string[] {
  if (!Array.isArray(value) || value.some((item) => typeof item !== "string")) {
    throw new Unsupported(`${keyword} that is not an array of strings`);
  }
  return value as string[];
}

function pattern(source: unknown): Matcher {
  if (typeof source !== "string") throw new Unsupported("a pattern that is not a string");
  // Same engine, same cached matcher as the Hyperjump keywords (compiled there first).
  return compilePattern(source);
}

/** Whether a JSON value contains an object with a `$ref` key (Hyperjump reads those as references). */
function holdsRef(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(holdsRef);
  if (isObject(value)) return "$ref" in value || Object.values(value).some(holdsRef);
  return false;
}

// ---- References ----

function resolvePointer(ref: string, context: Context): Schema {
  let fragment: string;
  try {
    fragment = decodeURIComponent(ref.slice(1));
  } catch {
    throw new Unsupported(`a $ref that is not a valid URI fragment: ${ref}`);
  }
  if (fragment !== "" && !fragment.startsWith("/")) {
    throw new Unsupported(`a $ref to an anchor: ${ref}`);
  }
  let current: unknown = context.root;
  if (fragment !== "") {
    for (const raw of fragment.slice(1).split("/")) {
      const token = raw.replaceAll("~1", "/").replaceAll("~0", "~");
      if (Array.isArray(current)) {
        if (!/^(0|[1-9][0-9]*)$/.test(token) || Number(token) >= current.length) {
          throw new Unsupported(`a $ref that does not resolve: ${ref}`);
        }
        current = current[Number(token)];
      } else if (isObject(current) && Object.hasOwn(current, token)) {
        current = current[token];
      } else {
        throw new Unsupported(`a $ref that does not resolve: ${ref}`);
      }
    }
  }
  if (typeof current !== "boolean" && !isObject(current)) {
    throw new Unsupported(`a $ref to something that is not a schema: ${ref}`);
  }
  return current;
}

function compileRef(ref: unknown, context: Context): Check {
  if (typeof ref !== "string" || !ref.startsWith("#")) {
    throw new Unsupported(`a $ref outside the document: ${String(ref)}`);
  }
  const target = resolvePointer(ref, context);
  const holder = { check: NEVER };
  context.pending.push([target, holder]);
  const state = context.state;
  return (value) => {
    if (++state.refs > MAX_REF_NESTING) throw new FastPathBail();
    const valid = holder.check(value);
    state.refs--;
    return valid;
  };
}

// ---- One schema object ----

const IGNORED_2020_12 = new Set(["$schema", "$id", "$comment", "$defs", "format"]);
const IGNORED_DRAFT_07 = new Set(["$schema", "$id", "$comment", "$defs", "definitions", "format"]);
/** The keywords each dialect evaluates; any other keyword is an annotation to Hyperjump. */
const EVALUATED = {
  "2020-12": new Set([
    "$ref",
    "type",
    "enum",
    "const",
    "allOf",
    "anyOf",
    "oneOf",
    "not",
    "if",
    "then",
    "else",
    "multipleOf",
    "maximum",
    "exclusiveMaximum",
    "minimum",
    "exclusiveMinimum",
    "maxLength",
    "minLength",
    "pattern",
    "prefixItems",
    "items",
    "contains",
    "minContains",
    "maxContains",
    "maxItems",
    "minItems",
    "uniqueItems",
    "properties",
    "patternProperties",
    "additionalProperties",
    "required",
    "propertyNames",
    "maxProperties",
    "minProperties",
    "dependentRequired",
    "dependentSchemas",
  ]),
  "draft-07": new Set([
    "$ref",
    "type",
    "enum",
    "const",
    "allOf",
    "anyOf",
    "oneOf",
    "not",
    "if",
    "then",
    "else",
    "multipleOf",
    "maximum",
    "exclusiveMaximum",
    "minimum",
    "exclusiveMinimum",
    "maxLength",
    "minLength",
    "pattern",
    "items",
    "additionalItems",
    "contains",
    "maxItems",
    "minItems",
    "uniqueItems",
    "properties",
    "patternProperties",
    "additionalProperties",
    "required",
    "propertyNames",
    "maxProperties",
    "minProperties",
    "dependencies",
  ]),
} as const;

function compileObject(schema: Record<string, unknown>, context: Context): Check {
  const { dialect } = context;
  if (dialect === "draft-07" && "$ref" in schema) {
    // Draft-07: `$ref` hides its siblings.
    return compileRef(schema.$ref, context);
  }
  const evaluated = EVALUATED[dialect];
  const ignored = dialect === "2020-12" ? IGNORED_2020_12 : IGNORED_DRAFT_07;
  for (const keyword of Object.keys(schema)) {
    if (!evaluated.has(keyword) && !ignored.has(keyword) && keyword.startsWith("$")) {
      // `$`-keywords the fast path does not know (anchors, dynamic references...)
      // were refused by the document scan; anything left here is a surprise.
      throw new Unsupported(`the keyword ${keyword}`);
    }
  }
  const has = (keyword: string) => evaluated.has(keyword) && Object.hasOwn(schema, keyword);
  const general: Check[] = [];
  if (has("type")) general.push(typeCheck(schema.type));
  if (has("enum")) {
    if (!Array.isArray(schema.enum) || holdsRef(schema.enum)) {
      throw new Unsupported("an enum that is not a plain array");
    }
    general.push(jsonMembership(schema.enum));
  }
  if (has("const")) {
    if (holdsRef(schema.const)) throw new Unsupported("a const holding a $ref");
    general.push(jsonMembership([schema.const]));
  }
  if (has("$ref")) general.push(compileRef(schema.$ref, context));
  if (has("allOf")) general.push(all(schemaList(schema.allOf, "allOf", context)));
  if (has("anyOf")) {
    const branches = schemaList(schema.anyOf, "anyOf", context);
    general.push((value) => {
      for (const branch of branches) if (branch(value)) return true;
      return false;
    });
  }
  if (has("oneOf")) {
    const branches = schemaList(schema.oneOf, "oneOf", context);
    general.push((value) => {
      let count = 0;
      for (const branch of branches) if (branch(value) && ++count > 1) return false;
      return count === 1;
    });
  }
  if (has("not")) {
    const inner = compileSchema(schema.not, context);
    general.push((value) => !inner(value));
  }
  if (has("if") && (has("then") || has("else"))) {
    const condition = compileSchema(schema.if, context);
    const then = has("then") ? compileSchema(schema.then, context) : ALWAYS;
    const otherwise = has("else") ? compileSchema(schema.else, context) : ALWAYS;
    general.push((value) => condition(value) ? then(value) : otherwise(value));
  }
  const strings = stringChecks(schema, has);
  const numbers = numberChecks(schema, has);
  const arrays = arrayChecks(schema, has, context);
  const objects = objectChecks(schema, has, context);
  return combine(general, strings, numbers, arrays, objects);
}

function all(checks: Check[]): Check {
  if (checks.length === 0) return ALWAYS;
  if (checks.length === 1) return checks[0];
  if (checks.length === 2) {
    const [a, b] = checks;
    return (value) => a(value) && b(value);
  }
  return (value) => {
    for (const check of checks) if (!check(value)) return false;
    return true;
  };
}

function combine(
  general: Check[],
  strings: Check[],
  numbers: Check[],
  arrays: Check[],
  objects: Check[],
): Check {
  const first = all(general);
  if (strings.length + numbers.length + arrays.length + objects.length === 0) return first;
  const string = strings.length > 0 ? all(strings) : undefined;
  const num = numbers.length > 0 ? all(numbers) : undefined;
  const array = arrays.length > 0 ? all(arrays) : undefined;
  const object = objects.length > 0 ? all(objects) : undefined;
  return (value) => {
    if (!first(value)) return false;
    switch (typeof value) {
      case "string":
        return string === undefined || string(value);
      case "number":
        return num === undefined || num(value);
      case "object":
        if (value === null) return true;
        if (Array.isArray(value)) return array === undefined || array(value);
        return object === undefined || object(value);
      default:
        return true;
    }
  };
}

function typeCheck(type: unknown): Check {
  const types = typeof type === "string" ? [type] : type;
  if (
    !Array.isArray(types) || types.some((t) => typeof t !== "string" || !TYPES.has(t))
  ) {
    throw new Unsupported("a type that is not a known type name or a list of them");
  }
  const checks = (types as string[]).map(oneType);
  if (checks.length === 1) return checks[0];
  return (value) => {
    for (const check of checks) if (check(value)) return true;
    return false;
  };
}

function oneType(type: string): Check {
  switch (type) {
    case "null":
      return (value) => value === null;
    case "boolean":
      return (value) => typeof value === "boolean";
    case "string":
      return (value) => typeof value === "string";
    case "number":
      return (value) => typeof value === "number";
    case "integer":
      return (value) => typeof value === "number" && Number.isInteger(value);
    case "array":
      return (value) => Array.isArray(value);
    default: // object
      return (value) => typeof value === "object" && value !== null && !Array.isArray(value);
  }
}

// ---- Strings and numbers ----

/** Code points of `text` compared with a bound, as `[...text].length` counts them. */
function codePoints(text: string): number {
  let count = text.length;
  for (let i = 0; i < text.length - 1; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        count--;
        i++;
      }
    }
  }
  return count;
}

function stringChecks(schema: Record<string, unknown>, has: (k: string) => boolean): Check[] {
  const out: Check[] = [];
  if (has("minLength")) {
    const min = number(schema.minLength, "minLength");
    // At least length/2 code points: only short strings need counting.
    out.push((value) => {
      const text = value as string;
      return text.length >= 2 * min || (text.length >= min && codePoints(text) >= min);
    });
  }
  if (has("maxLength")) {
    const max = number(schema.maxLength, "maxLength");
    out.push((value) => {
      const text = value as string;
      return text.length <= max || (text.length <= 2 * max && codePoints(text) <= max);
    });
  }
  if (has("pattern")) {
    const matcher = pattern(schema.pattern);
    out.push((value) => testPattern(matcher, value as string));
  }
  return out;
}

function numberChecks(schema: Record<string, unknown>, has: (k: string) => boolean): Check[] {
  const out: Check[] = [];
  if (has("minimum")) {
    const min = number(schema.minimum, "minimum");
    out.push((value) => (value as number) >= min);
  }
  if (has("maximum")) {
    const max = number(schema.maximum, "maximum");
    out.push((value) => (value as number) <= max);
  }
  if (has("exclusiveMinimum")) {
    const min = number(schema.exclusiveMinimum, "exclusiveMinimum");
    out.push((value) => (value as number) > min);
  }
  if (has("exclusiveMaximum")) {
    const max = number(schema.exclusiveMaximum, "exclusiveMaximum");
    out.push((value) => (value as number) < max);
  }
  if (has("multipleOf")) {
    const factor = number(schema.multipleOf, "multipleOf");
    // Hyperjump's rule, tolerance included.
    out.push((value) => {
      const remainder = (value as number) % factor;
      return Math.abs(0 - remainder) < 1.19209290e-7 ||
        Math.abs(factor - remainder) < 1.19209290e-7;
    });
  }
  return out;
}

// ---- Arrays ----

function arrayChecks(
  schema: Record<string, unknown>,
  has: (k: string) => boolean,
  context: Context,
): Check[] {
  const out: Check[] = [];
  let prefix: Check[] = [];
  let rest: Check | undefined;
  if (context.dialect === "2020-12") {
    if (has("prefixItems")) prefix = schemaList(schema.prefixItems, "prefixItems", context);
    if (has("items")) {
      if (Array.isArray(schema.items)) throw new Unsupported("an items array in 2020-12");
      rest = compileSchema(schema.items, context);
    }
  } else if (has("items")) {
    if (Array.isArray(schema.items)) {
      prefix = schemaList(schema.items, "items", context);
      if (has("additionalItems")) rest = compileSchema(schema.additionalItems, context);
    } else {
      rest = compileSchema(schema.items, context);
    }
  }
  if (prefix.length > 0 || rest !== undefined) {
    const tuple = prefix;
    const after = rest;
    out.push((value) => {
      const items = value as unknown[];
      const n = Math.min(tuple.length, items.length);
      for (let i = 0; i < n; i++) if (!tuple[i](items[i])) return false;
      if (after !== undefined) {
        for (let i = tuple.length; i < items.length; i++) if (!after(items[i])) return false;
      }
      return true;
    });
  }
  if (has("minItems")) {
    const min = number(schema.minItems, "minItems");
    out.push((value) => (value as unknown[]).length >= min);
  }
  if (has("maxItems")) {
    const max = number(schema.maxItems, "maxItems");
    out.push((value) => (value as unknown[]).length <= max);
  }
  if (has("uniqueItems")) {
    if (typeof schema.uniqueItems !== "boolean") {
      throw new Unsupported("uniqueItems that is not a boolean");
    }
    if (schema.uniqueItems) out.push((value) => allDistinct(value as unknown[]));
  }
  if (has("contains")) {
    const inner = compileSchema(schema.contains, context);
    let min = 1;
    let max = Number.MAX_SAFE_INTEGER;
    if (context.dialect === "2020-12") {
      if (typeof schema.minContains === "number" && has("minContains")) min = schema.minContains;
      if (typeof schema.maxContains === "number" && has("maxContains")) max = schema.maxContains;
    }
    out.push((value) => {
      let matches = 0;
      for (const item of value as unknown[]) if (inner(item)) matches++;
      return matches >= min && matches <= max;
    });
  }
  return out;
}

// ---- Objects ----

function objectChecks(
  schema: Record<string, unknown>,
  has: (k: string) => boolean,
  context: Context,
): Check[] {
  const out: Check[] = [];
  if (has("required")) {
    const required = stringList(schema.required, "required");
    if (required.length > 0) {
      out.push((value) => {
        for (const name of required) if (!Object.hasOwn(value as object, name)) return false;
        return true;
      });
    }
  }
  const properties = new Map<string, Check>();
  if (has("properties")) {
    if (!isObject(schema.properties)) throw new Unsupported("properties that is not an object");
    for (const [name, sub] of Object.entries(schema.properties)) {
      properties.set(name, compileSchema(sub, context));
    }
  }
  const patterns: [Matcher, Check][] = [];
  if (has("patternProperties")) {
    if (!isObject(schema.patternProperties)) {
      throw new Unsupported("patternProperties that is not an object");
    }
    for (const [source, sub] of Object.entries(schema.patternProperties)) {
      patterns.push([pattern(source), compileSchema(sub, context)]);
    }
  }
  const additional = has("additionalProperties")
    ? compileSchema(schema.additionalProperties, context)
    : undefined;
  out.push(...propertyChecks(properties, patterns, additional));
  if (has("propertyNames")) {
    const names = compileSchema(schema.propertyNames, context);
    out.push((value) => {
      for (const name of Object.keys(value as object)) if (!names(name)) return false;
      return true;
    });
  }
  if (has("minProperties")) {
    const min = number(schema.minProperties, "minProperties");
    out.push((value) => Object.keys(value as object).length >= min);
  }
  if (has("maxProperties")) {
    const max = number(schema.maxProperties, "maxProperties");
    out.push((value) => Object.keys(value as object).length <= max);
  }
  if (has("dependentRequired")) out.push(...dependencies(schema.dependentRequired, false, context));
  if (has("dependentSchemas")) out.push(...dependencies(schema.dependentSchemas, true, context));
  if (has("dependencies")) out.push(...dependencies(schema.dependencies, undefined, context));
  return out;
}

function propertyChecks(
  properties: Map<string, Check>,
  patterns: [Matcher, Check][],
  additional: Check | undefined,
): Check[] {
  if (patterns.length === 0 && additional === undefined) {
    if (properties.size === 0) return [];
    const entries = [...properties];
    return [(value) => {
      const object = value as Record<string, unknown>;
      for (const [name, check] of entries) {
        if (Object.hasOwn(object, name) && !check(object[name])) return false;
      }
      return true;
    }];
  }
  if (patterns.length === 0 && additional === NEVER) {
    // The common closed object: known names only.
    return [(value) => {
      const object = value as Record<string, unknown>;
      for (const name of Object.keys(object)) {
        const check = properties.get(name);
        if (check === undefined || !check(object[name])) return false;
      }
      return true;
    }];
  }
  return [(value) => {
    const object = value as Record<string, unknown>;
    for (const name of Object.keys(object)) {
      const item = object[name];
      const check = properties.get(name);
      let known = check !== undefined;
      if (check !== undefined && !check(item)) return false;
      for (const [matcher, sub] of patterns) {
        if (testPattern(matcher, name)) {
          known = true;
          if (!sub(item)) return false;
        }
      }
      if (!known && additional !== undefined && !additional(item)) return false;
    }
    return true;
  }];
}

/**
 * `dependentRequired` (`schemas` false), `dependentSchemas` (true) or draft-07
 * `dependencies` (undefined: each entry an array of names or a schema).
 */
function dependencies(value: unknown, schemas: boolean | undefined, context: Context): Check[] {
  if (!isObject(value)) throw new Unsupported("a dependency keyword that is not an object");
  const out: Check[] = [];
  for (const [trigger, dependency] of Object.entries(value)) {
    if (schemas === false || (schemas === undefined && Array.isArray(dependency))) {
      const names = stringList(dependency, "a dependency");
      out.push((object) =>
        !Object.hasOwn(object as object, trigger) ||
        names.every((name) => Object.hasOwn(object as object, name))
      );
    } else {
      const check = compileSchema(dependency, context);
      out.push((object) => !Object.hasOwn(object as object, trigger) || check(object));
    }
  }
  return out;
}
