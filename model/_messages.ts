// Private: turns Hyperjump's DETAILED output (keyword URIs and locations, no
// messages) into ValidationFailure records with human messages.

import type { ValidationFailure } from "./errors.ts";
import { pointerFromTokens, pointerTokens } from "./_json_pointer.ts";

/**
 * One unit of Hyperjump's DETAILED output (the fields read here): Hyperjump's
 * own units, or the fast path's copies of them.
 */
export interface OutputUnit {
  /** The keyword's URI (`https://json-schema.org/evaluation/validate` for a false schema). */
  keyword: string;
  /** The keyword's (or false schema's) absolute URI. */
  absoluteKeywordLocation: string;
  /** `#` and the value's JSON Pointer, URI-encoded. */
  instanceLocation: string;
  /** The units of the subschemas the keyword applied. */
  errors?: readonly OutputUnit[];
  /** Precomputed `keywordSite(absoluteKeywordLocation)` (the fast path's units). */
  site?: KeywordSite;
  /**
   * The value's JSON Pointer as `instanceLocation` names it, when the unit
   * carries it (the fast path's units, for values other than property names);
   * `instance` is then the value at that pointer.
   */
  pointer?: string;
  /** The value at `pointer` (read only when `pointer` is set). */
  instance?: unknown;
}

/** What the failures read of a keyword's absolute location (the same for every value). */
export interface KeywordSite {
  /** The document's base URI. */
  base: string;
  /** The keyword's pointer tokens in that document. */
  tokens: string[];
  /** The location as failures give it (relative to the root document). */
  absolute: string;
  /** The keyword's JSON Pointer. */
  keywordLocation: string;
  /** The last token (the keyword's name), or "". */
  last: string;
  /** The keyword's value. */
  value: unknown;
  /** The schema object holding the keyword. */
  schema: Record<string, unknown> | undefined;
  /** The leaf message when it does not depend on the value (filled on first use). */
  leaf?: string;
}

/** The site of a keyword location, as the failures read it. */
export function keywordSite(
  absoluteKeywordLocation: string,
  lookup: DocumentLookup,
  rootUri: string,
): KeywordSite {
  const [base, tokens] = splitLocation(absoluteKeywordLocation);
  const document = lookup(base);
  return {
    base,
    tokens,
    absolute: base === rootUri
      ? absoluteKeywordLocation.slice(rootUri.length)
      : absoluteKeywordLocation,
    keywordLocation: pointerFromTokens(tokens),
    last: tokens[tokens.length - 1] ?? "",
    value: at(document, tokens),
    schema: at(document, tokens.slice(0, -1)) as Record<string, unknown> | undefined,
  };
}

/** Looks up documents by base URI, for the keyword values messages quote. */
export type DocumentLookup = (baseUri: string) => unknown;

interface Context {
  instance: unknown;
  lookup: DocumentLookup;
  rootUri: string;
  out: ValidationFailure[];
}

const FALSE_SCHEMA = "https://json-schema.org/evaluation/validate";

function decodePointer(fragment: string): string[] {
  return pointerTokens(decodeURIComponent(fragment));
}

function splitLocation(location: string): [string, string[]] {
  const hash = location.indexOf("#");
  return hash < 0
    ? [location, []]
    : [location.slice(0, hash), decodePointer(location.slice(hash + 1))];
}

function at(value: unknown, tokens: readonly string[]): unknown {
  let current = value;
  for (const token of tokens) {
    if (typeof current !== "object" || current === null) return undefined;
    current = (current as Record<string, unknown>)[token];
  }
  return current;
}

function quote(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? text.slice(0, 57) + "..." : text;
}

function list(values: unknown, limit = 10): string {
  if (!Array.isArray(values)) return quote(values);
  const shown = values.slice(0, limit).map(quote).join(", ");
  return values.length > limit ? `${shown}, ... (${values.length} in all)` : shown;
}

function typeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

function plural(n: unknown, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/** Converts a DETAILED output's errors into failures, leaves first, in order. */
export function toFailures(
  errors: readonly OutputUnit[],
  instance: unknown,
  lookup: DocumentLookup,
  rootUri: string,
): ValidationFailure[] {
  const ctx: Context = { instance, lookup, rootUri, out: [] };
  for (const unit of errors) walk(unit, ctx);
  return distinctFailures(ctx.out);
}

/** The failures without repeats (same instance location, keyword location and message). */
export function distinctFailures(out: ValidationFailure[]): ValidationFailure[] {
  if (out.length <= 8) {
    // Few failures: compared pairwise (the same rule as the key below).
    for (let i = 1; i < out.length; i++) {
      for (let j = 0; j < i; j++) {
        if (sameKey(out[j], out[i])) {
          return out.filter((f, i) => {
            for (let j = 0; j < i; j++) if (sameKey(out[j], f)) return false;
            return true;
          });
        }
      }
    }
    return out;
  }
  const seen = new Set<string>();
  return out.filter((f) => {
    const key = failureKey(f);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** What makes two failures the same one. */
function failureKey(f: ValidationFailure): string {
  return `${f.instanceLocation}\n${f.keywordLocation}\n${f.message}`;
}

function sameKey(a: ValidationFailure, b: ValidationFailure): boolean {
  if (
    a.instanceLocation === b.instanceLocation && a.keywordLocation === b.keywordLocation &&
    a.message === b.message
  ) return true;
  // Different fields make one key only through a line break inside a field
  // (of both: the key of a failure without one splits into its fields alone),
  // so with fields of different lengths (the same lengths put the breaks
  // between fields at the same places) and the same length in all.
  const length = (f: ValidationFailure) =>
    f.instanceLocation.length + f.keywordLocation.length + f.message.length;
  return length(a) === length(b) &&
    (a.instanceLocation.length !== b.instanceLocation.length ||
      a.keywordLocation.length !== b.keywordLocation.length) &&
    breaks(a) && breaks(b) && failureKey(a) === failureKey(b);
}

/** Whether a field of the failure holds a line break. */
function breaks(f: ValidationFailure): boolean {
  return f.instanceLocation.includes("\n") || f.keywordLocation.includes("\n") ||
    f.message.includes("\n");
}

function siteOf(unit: OutputUnit, ctx: Context): KeywordSite {
  return unit.site ?? keywordSite(unit.absoluteKeywordLocation, ctx.lookup, ctx.rootUri);
}

/** The value's pointer as failures give it. */
function pointerOf(unit: OutputUnit): string {
  if (unit.pointer !== undefined) return unit.pointer;
  return pointerFromTokens(nameTokens(unit) ?? splitLocation(unit.instanceLocation)[1]);
}

/**
 * The property's pointer tokens when the unit's value is a property NAME
 * (`propertyNames`: Hyperjump writes `#*` then the property's pointer), else
 * undefined. Its failures name the property's location, with messages that
 * say "property name".
 */
function nameTokens(unit: OutputUnit): string[] | undefined {
  if (unit.pointer !== undefined || !unit.instanceLocation.startsWith("#*")) return undefined;
  return decodePointer(unit.instanceLocation.slice(2));
}

function instanceAt(unit: OutputUnit, ctx: Context): unknown {
  if (unit.pointer !== undefined) return unit.instance;
  const name = nameTokens(unit);
  if (name !== undefined) return name[name.length - 1];
  return at(ctx.instance, splitLocation(unit.instanceLocation)[1]);
}

function walk(unit: OutputUnit, ctx: Context): void {
  const site = siteOf(unit, ctx);
  const keyword = unit.keyword === FALSE_SCHEMA ? "false" : site.last;
  const children = unit.errors ?? [];
  if (keyword === "anyOf" || keyword === "oneOf") {
    emit(unit, site, ctx, branchMessage(keyword, unit, children, ctx));
    return;
  }
  const word = extraWord(keyword);
  if (word !== undefined) {
    for (const child of children) {
      if (child.keyword !== FALSE_SCHEMA) continue;
      const childTokens = child.pointer !== undefined
        ? pointerTokens(child.pointer)
        : splitLocation(child.instanceLocation)[1];
      const name = childTokens[childTokens.length - 1];
      emit(unit, site, ctx, extraMessage(keyword, name), keyword);
    }
    for (const child of children) if (child.keyword !== FALSE_SCHEMA) walk(child, ctx);
    if (children.length === 0) emit(unit, site, ctx, `must NOT have ${word}s`, keyword);
    return;
  }
  if (children.length > 0 && keyword !== "contains" && keyword !== "not") {
    for (const child of children) walk(child, ctx);
    return;
  }
  let message: string;
  if (keyword === site.last && keyword !== "type") {
    message = site.leaf ??= leafMessage(keyword, site.value, site.schema, undefined);
  } else {
    message = leafMessage(keyword, site.value, site.schema, instanceAt(unit, ctx));
  }
  emit(unit, site, ctx, message, keyword);
}

/** The word of the keywords whose false-schema units name the extra member, else undefined. */
function extraWord(keyword: string): string | undefined {
  switch (keyword) {
    case "additionalProperties":
      return "additional property";
    case "unevaluatedProperties":
      return "unevaluated property";
    case "unevaluatedItems":
      return "unevaluated item";
    case "additionalItems":
      return "additional item";
    default:
      return undefined;
  }
}

/**
 * The message of `additionalProperties`, `additionalItems`,
 * `unevaluatedProperties` or `unevaluatedItems` (`keyword`) for the extra
 * member `name` its false subschema refuses.
 */
export function extraMessage(keyword: string, name: string | undefined): string {
  return `must NOT have ${extraWord(keyword)} ${quoteName(name)}`;
}

/**
 * The message of the failure of a unit of `keyword` (`"false"` for a false
 * schema) at `site` without nested units, other than `anyOf` and `oneOf`:
 * a string for every value, or, for `type`, a function of the value (of
 * its type name alone: "null", "boolean", "object", "array", "number",
 * "integer" or "string").
 */
export function soleMessage(
  keyword: string,
  site: KeywordSite,
): string | ((instance: unknown) => string) {
  const word = extraWord(keyword);
  if (word !== undefined) return `must NOT have ${word}s`;
  if (keyword === site.last && keyword !== "type") {
    return site.leaf ??= leafMessage(keyword, site.value, site.schema, undefined);
  }
  if (keyword !== "type") return leafMessage(keyword, site.value, site.schema, undefined);
  return (instance) => leafMessage(keyword, site.value, site.schema, instance);
}

function quoteName(name: string | undefined): string {
  return `'${name ?? ""}'`;
}

function emit(
  unit: OutputUnit,
  site: KeywordSite,
  ctx: Context,
  message: string,
  keyword?: string,
): void {
  const name = keyword ?? site.last;
  const instanceLocation = pointerOf(unit);
  const ofName = nameTokens(unit) !== undefined;
  const push = (text: string) =>
    ctx.out.push({
      instanceLocation,
      keywordLocation: site.keywordLocation,
      absoluteKeywordLocation: site.absolute,
      keyword: name,
      message: ofName ? `property name ${text}` : text,
    });
  if (name === "required" || name === "dependentRequired" || name === "dependencies") {
    // One failure per missing property (the generic message when none is found).
    const messages = missingProperties(name, site.value, instanceAt(unit, ctx));
    if (messages.length > 0) {
      for (const text of messages) push(text);
      return;
    }
  }
  push(message);
}

/**
 * The messages of `required`, `dependentRequired` or `dependencies` (whose
 * value is `value`) on `instance`: one per missing property.
 */
export function missingProperties(keyword: string, value: unknown, instance: unknown): string[] {
  if (typeof instance !== "object" || instance === null || Array.isArray(instance)) return [];
  const has = (p: string) => Object.hasOwn(instance, p);
  if (keyword === "required" && Array.isArray(value)) {
    return value.filter((p) => !has(p)).map((p) => `must have required property ${quoteName(p)}`);
  }
  if (typeof value !== "object" || value === null) return [];
  const out: string[] = [];
  for (const [trigger, needed] of Object.entries(value)) {
    if (!has(trigger) || !Array.isArray(needed)) continue;
    for (const p of needed) {
      if (!has(p)) {
        out.push(
          `must have property ${quoteName(p)} when property ${quoteName(trigger)} is present`,
        );
      }
    }
  }
  return out;
}

function branchMessage(
  keyword: string,
  unit: OutputUnit,
  children: readonly OutputUnit[],
  ctx: Context,
): string {
  if (children.length === 0) return branchText(keyword, []);
  const ownTokens = siteOf(unit, ctx).tokens;
  const own = pointerOf(unit);
  const branches = new Map<string, string[]>();
  for (const child of children) {
    const sub: Context = {
      instance: ctx.instance,
      lookup: ctx.lookup,
      rootUri: ctx.rootUri,
      out: [],
    };
    walk(child, sub);
    const childTokens = siteOf(child, ctx).tokens;
    const index = childTokens[ownTokens.length] ?? "?";
    const messages = branches.get(index) ?? [];
    for (const f of sub.out) {
      const where = f.instanceLocation === own ? "" : `${f.instanceLocation}: `;
      messages.push(where + f.message);
    }
    branches.set(index, messages);
  }
  return branchText(keyword, [...branches].map(([i, m]) => `[${i}] ${m.join(", ")}`));
}

/**
 * The message of a failing `anyOf` or `oneOf` whose failing branches' parts
 * (`[index] messages`) are `parts` (none: more than one branch matched).
 */
export function branchText(keyword: string, parts: readonly string[]): string {
  return branchJoined(keyword, parts.length === 0 ? undefined : parts.join("; "));
}

/** {@linkcode branchText} of the parts joined by "; " (undefined: no part). */
export function branchJoined(keyword: string, joined: string | undefined): string {
  const head = keyword === "oneOf"
    ? "must match exactly one schema in oneOf"
    : "must match at least one schema in anyOf";
  if (joined === undefined) return `${head}, but matched more than one`;
  return `${head} (${joined})`;
}

function leafMessage(
  keyword: string,
  value: unknown,
  schema: Record<string, unknown> | undefined,
  instance: unknown,
): string {
  switch (keyword) {
    case "false":
      return "is not allowed (the schema here is false)";
    case "type":
      return `must be ${Array.isArray(value) ? value.join(" or ") : value}, found ${
        typeOf(instance)
      }`;
    case "enum":
      return `must be equal to one of the allowed values: ${list(value)}`;
    case "const":
      return `must be equal to constant ${quote(value)}`;
    case "minimum":
      return schema?.exclusiveMinimum === true ? `must be > ${value}` : `must be >= ${value}`;
    case "maximum":
      return schema?.exclusiveMaximum === true ? `must be < ${value}` : `must be <= ${value}`;
    case "exclusiveMinimum":
      return `must be > ${value}`;
    case "exclusiveMaximum":
      return `must be < ${value}`;
    case "multipleOf":
      return `must be a multiple of ${value}`;
    case "minLength":
      return `must NOT have fewer than ${plural(value, "character")}`;
    case "maxLength":
      return `must NOT have more than ${plural(value, "character")}`;
    case "minItems":
      return `must NOT have fewer than ${plural(value, "item")}`;
    case "maxItems":
      return `must NOT have more than ${plural(value, "item")}`;
    case "minProperties":
      return `must NOT have fewer than ${plural(value, "property")}`.replace(
        "propertys",
        "properties",
      );
    case "maxProperties":
      return `must NOT have more than ${plural(value, "property")}`.replace(
        "propertys",
        "properties",
      );
    case "uniqueItems":
      return "must NOT have duplicate items";
    case "pattern":
      return `must match pattern ${quote(value)}`;
    case "format":
      return `must match format ${quote(value)}`;
    case "contains":
      return `must contain at least ${schema?.minContains ?? 1} valid item(s)`;
    case "minContains":
      return `must contain at least ${value} valid item(s)`;
    case "maxContains":
      return `must contain at most ${value} valid item(s)`;
    case "not":
      return "must NOT be valid against the schema in 'not'";
    case "propertyNames":
      return "must have valid property names";
    case "required":
    case "dependentRequired":
    case "dependencies":
      return `must have the properties that '${keyword}' lists`;
    default:
      return `must pass '${keyword}'`;
  }
}
