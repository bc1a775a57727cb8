// Private: where an object held as JSON text (see _openapi_json_text.ts) is
// ambiguous. Inside an `anyOf`, the input normalizer reads a string that holds
// JSON object text as the object whenever a branch has JSON text at that place;
// when another branch can take a plain string at the same place, such a string
// no longer reaches the handler as a string. Those JSON-text nodes are found
// here, conservatively: every Gemini OBJECT takes unknown keys, so an object
// branch without the property counts as taking a string there.

import { isObj, type Obj } from "./_json.ts";

/** A place below an `anyOf` branch: property names, `null` for array items. */
type Path = (string | null)[];

/** The JSON-text nodes below `node` (through properties, items and anyOf) and their paths. */
function textPaths(node: unknown, text: Set<Obj>, path: Path, out: [Obj, Path][]): void {
  if (!isObj(node)) return;
  if (text.has(node)) {
    out.push([node, path]);
    return;
  }
  if (isObj(node.properties)) {
    for (const [name, v] of Object.entries(node.properties)) {
      textPaths(v, text, [...path, name], out);
    }
  }
  if (node.items !== undefined) textPaths(node.items, text, [...path, null], out);
  if (Array.isArray(node.anyOf)) { for (const b of node.anyOf) textPaths(b, text, path, out); }
}

/** Whether a plain string (not JSON text) can sit at `path[i..]` of a value `node` accepts. */
function takesString(node: unknown, path: Path, i: number, text: Set<Obj>): boolean {
  if (!isObj(node)) return node !== false;
  if (Array.isArray(node.anyOf) && node.anyOf.some((b) => takesString(b, path, i, text))) {
    return true;
  }
  if (node.type === undefined) return !Array.isArray(node.anyOf);
  if (i === path.length) return node.type === "STRING" && !text.has(node);
  const token = path[i];
  if (node.type === "OBJECT" && token !== null) {
    const props = isObj(node.properties) ? node.properties : {};
    return !Object.hasOwn(props, token) || takesString(props[token], path, i + 1, text);
  }
  if (node.type === "ARRAY" && token === null) {
    return node.items === undefined || takesString(node.items, path, i + 1, text);
  }
  return false;
}

/** The JSON-text nodes of `schema` that another `anyOf` branch makes ambiguous. */
export function ambiguousText(schema: Obj, text: Set<Obj>): Set<Obj> {
  const found = new Set<Obj>();
  if (text.size === 0) return found;
  const seen = new Set<Obj>();
  const visit = (node: unknown): void => {
    if (!isObj(node) || seen.has(node)) return;
    seen.add(node);
    if (isObj(node.properties)) { for (const v of Object.values(node.properties)) visit(v); }
    visit(node.items);
    if (!Array.isArray(node.anyOf)) return;
    const branches: unknown[] = node.anyOf;
    for (const branch of branches) {
      visit(branch);
      const places: [Obj, Path][] = [];
      textPaths(branch, text, [], places);
      for (const [t, path] of places) {
        if (branches.some((o) => o !== branch && takesString(o, path, 0, text))) found.add(t);
      }
    }
  };
  visit(schema);
  return found;
}
