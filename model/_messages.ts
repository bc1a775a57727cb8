// Private: turns Hyperjump's DETAILED output (keyword URIs and locations, no
// messages) into ValidationFailure records with human messages: the walk of
// the units. The units and keyword sites are in _output_unit.ts, the message
// texts in _failure_messages.ts, the dropping of repeats in
// _distinct_failures.ts.

import type { ValidationFailure } from "./errors.ts";
import { pointerFromTokens, pointerTokens } from "./json_pointer.ts";
import { distinctFailures } from "./_distinct_failures.ts";
import {
  branchText,
  extraMessage,
  extraWord,
  leafMessage,
  missingProperties,
} from "./_failure_messages.ts";
import {
  at,
  decodePointer,
  type DocumentLookup,
  type KeywordSite,
  keywordSite,
  type OutputUnit,
  splitLocation,
} from "./_output_unit.ts";

interface Context {
  instance: unknown;
  lookup: DocumentLookup;
  rootUri: string;
  out: ValidationFailure[];
}

const FALSE_SCHEMA = "https://json-schema.org/evaluation/validate";

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
