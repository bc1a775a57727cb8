// Private: maps a JSON Pointer into a parsed YAML document to a line and column.

import type { Document, LineCounter, Node } from "yaml";
import { isMap, isScalar, isSeq } from "./_generated/yaml.js";
import { pointerTokens } from "../model/json_pointer.ts";
import type { PlacedNode, SubsetPlace } from "./_yaml_subset.ts";

/** A 1-based line and column. */
export interface Position {
  line: number;
  column: number;
}

/**
 * The position of the value at `pointer`, or of the deepest node that exists
 * on the way to it (a missing property is reported at its parent). With
 * `key`, the position of the last token's key in its map.
 */
export function positionOf(
  doc: Document,
  counter: LineCounter,
  pointer: string,
  key = false,
): Position {
  let node: unknown = doc.contents;
  let at = (node as Node | null)?.range?.[0] ?? 0;
  const tokens = pointerTokens(pointer);
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    if (isMap(node)) {
      const pair = node.items.find((p) =>
        (isScalar(p.key) ? String(p.key.value) : String(p.key)) === token
      );
      if (pair === undefined) break;
      if (key && i === tokens.length - 1 && isScalar(pair.key) && pair.key.range) {
        at = pair.key.range[0];
        break;
      }
      node = pair.value;
    } else if (isSeq(node)) {
      node = node.items[Number(token)];
    } else {
      break;
    }
    const range = (node as Node | null)?.range;
    if (range === undefined || range === null) break;
    at = range[0];
  }
  const { line, col } = counter.linePos(at);
  return { line, column: col };
}

/**
 * Where each node of a document starts, for `placeOf` to answer what
 * {@linkcode positionOf} answers without the document; `undefined` for a
 * document with a node `placeOf` cannot stand in for (a key that is not a
 * scalar, a pair without a value, a pair as a sequence item).
 */
export function placedNodes(doc: Document, counter: LineCounter): PlacedNode | undefined {
  const place = (at: number): SubsetPlace => {
    const { line, col } = counter.linePos(at);
    return { line, column: col };
  };
  const walk = (node: unknown, depth: number): PlacedNode | undefined => {
    const range = (node as Node | null)?.range;
    if (depth > 200 || range === undefined || range === null) return undefined;
    const at = place(range[0]);
    if (isMap(node)) {
      const entries = new Map<string, { key: SubsetPlace; node: PlacedNode }>();
      for (const pair of node.items) {
        if (!isScalar(pair.key) || !pair.key.range) return undefined;
        const child = walk(pair.value, depth + 1);
        if (child === undefined) return undefined;
        const key = String(pair.key.value);
        // positionOf finds a key's first pair.
        if (!entries.has(key)) entries.set(key, { key: place(pair.key.range[0]), node: child });
      }
      return { at, entries };
    }
    if (isSeq(node)) {
      const items: PlacedNode[] = [];
      for (const item of node.items) {
        const child = walk(item, depth + 1);
        if (child === undefined) return undefined;
        items.push(child);
      }
      return { at, items };
    }
    return { at };
  };
  return walk(doc.contents, 0);
}
