// Private: maps a JSON Pointer into a parsed YAML document to a line and column.

import type { Document, LineCounter, Node } from "yaml";
import { isMap, isScalar, isSeq } from "./_generated/yaml.js";
import { pointerTokens } from "../model/json_pointer.ts";

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
