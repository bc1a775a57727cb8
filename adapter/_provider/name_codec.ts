// Private: the tool-name encoding of one profile's name rules (see names.ts for
// the scheme). Takes profiles, never format names, so adapters can use it
// without the registry.

import { parseToolId } from "../../model/tool_id.ts";
import { hash8 } from "../_schema/mod.ts";
import type { NameRules, ProviderProfile } from "../profile.ts";

const HASHED = /_[0-9a-f]{8}$/;
const cache = new WeakMap<NameRules, { all: RegExp; bad: RegExp; first?: RegExp }>();

function compiled(rules: NameRules): { all: RegExp; bad: RegExp; first?: RegExp } {
  let found = cache.get(rules);
  if (found === undefined) {
    found = {
      all: new RegExp(`^[${rules.allowed}]+$`),
      bad: new RegExp(`[^${rules.allowed}]`, "g"),
      first: rules.firstChar === undefined ? undefined : new RegExp(`^[${rules.firstChar}]`),
    };
    cache.set(rules, found);
  }
  return found;
}

function splitId(id: string): [string, string] {
  const i = id.indexOf(":");
  return i < 0 ? ["", id] : [id.slice(0, i), id.slice(i + 1)];
}

function plainDecode(name: string, rules: NameRules): string {
  const i = name.indexOf(rules.separator);
  return i <= 0 ? name : `${name.slice(0, i)}:${name.slice(i + rules.separator.length)}`;
}

/** The provider name of a tool ID under `rules`. */
export function encodeWith(id: string, rules: NameRules): string {
  const [namespace, name] = splitId(id);
  const simple = namespace === "" ? name : `${namespace}${rules.separator}${name}`;
  const re = compiled(rules);
  const lossless = simple.length > 0 &&
    simple.length <= rules.maxLength &&
    re.all.test(simple) &&
    (re.first === undefined || re.first.test(simple)) &&
    !HASHED.test(simple) &&
    plainDecode(simple, rules) === id;
  if (lossless) return simple;
  let readable = simple.replace(re.bad, "_");
  if (re.first !== undefined && !re.first.test(readable)) readable = `_${readable}`;
  const suffix = `_${hash8(id)}`;
  return readable.slice(0, Math.max(0, rules.maxLength - suffix.length)) + suffix;
}

/** The tool ID of a provider name under `rules`, or `undefined` when it needs a name map. */
export function decodeWith(providerName: string, rules: NameRules): string | undefined {
  if (typeof providerName !== "string" || providerName === "") return undefined;
  if (HASHED.test(providerName)) return undefined;
  const id = plainDecode(providerName, rules);
  try {
    parseToolId(id);
  } catch {
    return undefined;
  }
  return encodeWith(id, rules) === providerName ? id : undefined;
}

/** The provider name of a tool ID under a profile's name rules. */
export function encodeToolName(id: string, profile: ProviderProfile): string {
  return encodeWith(id, profile.names);
}

/** The tool ID of a provider name under a profile's name rules, when decodable. */
export function decodeToolName(providerName: string, profile: ProviderProfile): string | undefined {
  return decodeWith(providerName, profile.names);
}
