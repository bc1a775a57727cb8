// Private: Gemini rejects an OBJECT without properties at any depth of
// `parameters` and `response`. After the mapping to the OpenAPI subset, every
// such object below the root (a free-form map, a recursion cut to "any object")
// is declared as a STRING that holds the object as JSON text. On the parameters
// side the input normalizer (../_normalizer/) parses the text back; a
// `response` only describes the result to the model, so nothing is converted.

import { atPointer, type Obj, put, show, type WarningSink } from "../_schema/mod.ts";
import { isNonArrayObject } from "../../model/plain_object.ts";
import {
  ambiguousText,
  OPENAPI_DIALECT,
  sourceNotes,
  textDescription,
  textMessage,
} from "../_json_text/mod.ts";

/** One OpenAPI schema to rewrite and where it comes from. */
export interface JsonTextScope {
  /** The canonical source schema. */
  source: Obj;
  /** Its pointer in the source tool, e.g. `/inputSchema`. */
  base: string;
  /** Source pointer (relative to the tool) of each output node. */
  origin: WeakMap<object, string>;
  sink: WarningSink;
  /** Whether the schema is a `response` (read by the model, never sent by it). */
  response: boolean;
  /** Whether dropped constraints are stated in descriptions. */
  describe: boolean;
  /** Source pointers of references cut for the inlining budget. */
  overBudget?: Set<string>;
}

/** What the rewrite did. */
export interface JsonTextResult {
  /** The STRING nodes that hold an object as JSON text. */
  nodes: Set<Obj>;
  /** Source pointers of the `additionalProperties` stated in those nodes' descriptions. */
  described: Set<string>;
}

const OBJECT_ONLY = new Set(["properties", "required", "propertyOrdering"]);
const COUNTS = ["minProperties", "maxProperties"];

function hasProperties(node: Obj): boolean {
  return isNonArrayObject(node.properties) && Object.keys(node.properties).length > 0;
}

/** Rewrites, in place, the OBJECTs without properties below the root of `schema`. */
export function writeJsonText(schema: Obj, scope: JsonTextScope): JsonTextResult {
  const result: JsonTextResult = { nodes: new Set(), described: new Set() };
  const pass = new Pass(scope, result);
  pass.visit(schema, true);
  const unsure = scope.response
    ? new Set<Obj>()
    : ambiguousText(schema, result.nodes, OPENAPI_DIALECT);
  for (const [node, from] of pass.rewritten) pass.report(from, unsure.has(node));
  return result;
}

class Pass {
  /** The rewritten nodes and their source pointers, in order. */
  readonly rewritten = new Map<Obj, string>();
  readonly #seen = new Set<Obj>();
  constructor(readonly scope: JsonTextScope, readonly result: JsonTextResult) {}

  visit(node: unknown, root: boolean): void {
    if (!isNonArrayObject(node) || this.#seen.has(node)) return;
    this.#seen.add(node);
    const empty = node.type === "OBJECT" && !hasProperties(node);
    if (empty && !root && Array.isArray(node.anyOf)) this.#spread(node);
    if (isNonArrayObject(node.properties)) {
      for (const v of Object.values(node.properties)) this.visit(v, false);
    }
    this.visit(node.items, false);
    if (Array.isArray(node.anyOf)) node.anyOf.forEach((b) => this.visit(b, false));
    if (empty && !root && node.type === "OBJECT") this.#rewrite(node);
  }

  #from(node: Obj): string {
    return this.scope.origin.get(node) ?? this.scope.base;
  }

  #source(pointer: string): Obj {
    const { base, source } = this.scope;
    const found = pointer.startsWith(base) ? atPointer(source, pointer.slice(base.length)) : {};
    return isNonArrayObject(found) ? found : {};
  }

  /** An OBJECT without properties beside `anyOf`: the type moves into the branches. */
  #spread(node: Obj): void {
    const { origin, sink } = this.scope;
    let other = false;
    node.anyOf = (node.anyOf as unknown[]).map((b) => {
      if (!isNonArrayObject(b) || b.type !== undefined || Array.isArray(b.anyOf)) {
        other ||= isNonArrayObject(b) && b.type !== undefined && b.type !== "OBJECT";
        return b;
      }
      const typed = { type: "OBJECT", ...b };
      const from = origin.get(b);
      if (from !== undefined) origin.set(typed, from);
      return typed;
    });
    delete node.type;
    sink.add(
      `${this.#from(node)}/type`,
      "type",
      "rewritten",
      other ? "widens" : "none",
      `Gemini rejects an OBJECT without properties; type OBJECT beside anyOf is written into the branches${
        other ? ", and the branches of other types are accepted now" : ""
      }`,
    );
  }

  /** An OBJECT without properties becomes a STRING holding the object as JSON text. */
  #rewrite(node: Obj): void {
    const { sink, response, describe } = this.scope;
    const from = this.#from(node);
    const source = this.#source(from);
    const large = this.scope.overBudget?.has(from) ?? false;
    const { notes, described } = sourceNotes(source, describe, large);
    if (described) this.result.described.add(`${from}/additionalProperties`);
    for (const key of COUNTS) {
      if (node[key] === undefined) continue;
      if (describe) notes.push(`${key}: ${show(node[key])}`);
      sink.add(
        `${from}/${key}`,
        key,
        describe ? "moved-to-description" : "dropped",
        "widens",
        `${key} cannot apply to an object written as JSON text${
          describe ? "; it is stated in the description" : ""
        }`,
      );
    }
    const out: Obj = {
      type: "STRING",
      description: textDescription(node.description, notes, response),
    };
    for (const [key, value] of Object.entries(node)) {
      if (key === "type" || key === "description" || OBJECT_ONLY.has(key)) continue;
      if (COUNTS.includes(key)) continue;
      put(
        out,
        key,
        (key === "default" || key === "example") && isNonArrayObject(value)
          ? JSON.stringify(value)
          : value,
      );
    }
    for (const key of Object.keys(node)) delete node[key];
    for (const [key, value] of Object.entries(out)) put(node, key, value);
    this.result.nodes.add(node);
    this.rewritten.set(node, from);
  }

  /** The warning of a node rewritten as JSON text (`unsure`: see {@linkcode ambiguousText}). */
  report(from: string, unsure: boolean): void {
    const { sink, response } = this.scope;
    sink.add(
      from,
      "type",
      "rewritten",
      unsure ? "narrows" : "widens",
      response
        ? "Gemini rejects an OBJECT without properties: this part of the result is declared as a STRING described as a JSON object; the function's result itself is not converted"
        : textMessage("Gemini rejects an OBJECT without properties", "STRING", unsure),
    );
  }
}
