/**
 * The structure check every schema passes before it is compiled or
 * converted: bounded nesting, and no `$ref` cycle that makes no progress.
 * Pure and iterative, so it is safe on any input.
 *
 * @module
 */

import type { JsonSchema } from "./tool.ts";
import { SchemaShapeError } from "./errors.ts";
import { LimitExceeded, resolve, SchemaGraph } from "./_schema_graph.ts";

/** Deepest schema nesting accepted by default (subschema levels; also the longest in-place `$ref` chain). */
export const DEFAULT_MAX_SCHEMA_DEPTH = 128;
/** Deepest JSON nesting of any value inside a schema accepted by default (objects and arrays). */
export const DEFAULT_MAX_SCHEMA_JSON_DEPTH = 1024;
/** Most objects and arrays in a schema (counted per occurrence) accepted by default. */
export const DEFAULT_MAX_SCHEMA_NODES = 1_000_000;
/** Most schema evaluations one value may cost (in-place subschemas and `$ref`s, counted per path) by default. */
export const DEFAULT_MAX_IN_PLACE_EVALUATIONS = 10_000;

/** Options of {@linkcode checkSchemaStructure}. */
export interface SchemaStructureOptions {
  /**
   * Deepest schema nesting: each subschema inside a subschema is one level,
   * and each schema reached through a `$ref` applied to the same value is one
   * more level of the chain (default {@linkcode DEFAULT_MAX_SCHEMA_DEPTH}).
   */
  maxDepth?: number;
  /** Deepest nesting of objects and arrays anywhere in the document (default {@linkcode DEFAULT_MAX_SCHEMA_JSON_DEPTH}). */
  maxJsonDepth?: number;
  /** Most objects and arrays in the document (default {@linkcode DEFAULT_MAX_SCHEMA_NODES}). */
  maxNodes?: number;
  /**
   * Most schemas evaluated against one value, counting every path through
   * in-place keywords and `$ref`s (default {@linkcode DEFAULT_MAX_IN_PLACE_EVALUATIONS}):
   * bounds `$ref` fan-out bombs such as 30 levels of `allOf: [{$ref}, {$ref}]`.
   */
  maxInPlaceEvaluations?: number;
  /** Other documents `$ref`s may reach, keyed by absolute URI (a validator's trusted documents). */
  documents?: Readonly<Record<string, JsonSchema>>;
  /** Read the schema as draft-07 when it has no `$schema` (default: 2020-12). */
  draft07?: boolean;
}

/**
 * Checks that a schema can be evaluated with a bound, before compiling or
 * converting it:
 *
 * - it nests at most `maxDepth` subschema levels and `maxJsonDepth` JSON
 *   levels, and has at most `maxNodes` objects and arrays (`depth`, `size`);
 * - no `$ref` or `$dynamicRef` leads back to a schema it is part of through
 *   keywords that apply to the same value (`allOf`, `anyOf`, `oneOf`, `not`,
 *   `if`, `then`, `else`, `dependentSchemas`, draft-07 `dependencies`, `$ref`,
 *   `$dynamicRef`): such a schema recurses without end (`cycle`). A cycle
 *   through `properties`, `items` and the like applies to a smaller part of
 *   the value each time and is fine (a recursive tree schema);
 * - the longest chain of schemas applied to one value (through in-place
 *   keywords and `$ref`s) is at most `maxDepth` (`depth`), and the number of
 *   schemas evaluated against one value, counted per path, is at most
 *   `maxInPlaceEvaluations` (`size`).
 *
 * References are resolved statically (`$id`, `$anchor`, `$dynamicAnchor`,
 * JSON Pointers, draft-07 `#name` ids); a `$dynamicRef` is followed to its
 * static target and, when that target declares the same `$dynamicAnchor`, to
 * every schema that declares it. References that resolve to nothing here are
 * left to the validator. Nothing recurses: any input is safe.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkSchemaStructure, SchemaShapeError } from "@toolfoundation/core/model";
 *
 * // A recursive tree is fine: each `$ref` applies to a child value.
 * checkSchemaStructure({ type: "object", properties: { children: { type: "array", items: { $ref: "#" } } } });
 *
 * // a -> b -> a applies to the same value forever.
 * const loop = { $ref: "#/$defs/a", $defs: { a: { $ref: "#/$defs/b" }, b: { allOf: [{ $ref: "#/$defs/a" }] } } };
 * assert.throws(() => checkSchemaStructure(loop), (e) => {
 *   assert.ok(e instanceof SchemaShapeError);
 *   assert.equal(e.problem, "cycle");
 *   assert.equal(e.keywordLocation, "/$defs/b/allOf/0/$ref");
 *   return true;
 * });
 * ```
 *
 * @param schema The schema (any value; only objects have structure).
 * @param options Limits, trusted documents and the default dialect.
 * @throws {SchemaShapeError} With `problem` (`depth`, `cycle`, `size`) and `keywordLocation`.
 */
export function checkSchemaStructure(schema: unknown, options: SchemaStructureOptions = {}): void {
  analyzeSchemaStructure(schema, options);
}

// The analysis behind checkSchemaStructure, and what the validator needs to
// know beyond pass/fail (whether evaluation can fan out).

const ROOT = "https://toolfoundation.invalid/schema.json";
/** Most paths from the root (all applicators) for a schema to be evaluated without a budget. */
const MAX_STATIC_PATHS = 100_000;

/** What the analysis found beyond "valid". */
interface StructureFacts {
  /**
   * Set when the number of schema evaluations is not bounded by the schema
   * alone: the schema recurses through keywords that apply to parts of the
   * value, or has more than 100,000 paths. Such a schema is evaluated with a
   * per-location budget.
   */
  fansOut: boolean;
}

/** Checks the structure (see checkSchemaStructure) and reports the facts. */
export function analyzeSchemaStructure(
  schema: unknown,
  options: SchemaStructureOptions = {},
): StructureFacts {
  const maxDepth = options.maxDepth ?? DEFAULT_MAX_SCHEMA_DEPTH;
  const maxJsonDepth = options.maxJsonDepth ?? DEFAULT_MAX_SCHEMA_JSON_DEPTH;
  const maxNodes = options.maxNodes ?? DEFAULT_MAX_SCHEMA_NODES;
  const maxEvaluations = options.maxInPlaceEvaluations ?? DEFAULT_MAX_IN_PLACE_EVALUATIONS;
  if (
    options.documents === undefined &&
    plainAndSmall(schema, Math.min(maxDepth, maxJsonDepth) - 1, Math.min(maxNodes, maxEvaluations))
  ) {
    return { fansOut: false };
  }
  const graph = new SchemaGraph({
    maxDepth,
    maxJsonDepth,
    maxNodes,
  }, ROOT);
  for (const [uri, doc] of Object.entries(options.documents ?? {})) {
    const key = resolve(uri, ROOT)?.split("#")[0];
    if (key !== undefined && key !== ROOT) graph.pending.set(key, doc);
  }
  try {
    graph.documents.set(ROOT, schema);
    graph.resources.set(ROOT, { doc: ROOT, pointer: "", draft07: options.draft07 ?? false });
    graph.walk(ROOT, schema, "", ROOT, options.draft07 ?? false);
    resolveEdges(graph);
  } catch (error) {
    if (!(error instanceof LimitExceeded)) throw error;
    throw new SchemaShapeError(
      error.problem,
      error.location,
      error.problem === "size"
        ? `the schema has more than ${error.limit} ${error.what}`
        : `the schema nests deeper than ${error.limit} ${error.what} at ${shorten(error.location)}`,
      error.limit,
    );
  }
  checkInPlace(graph, maxDepth, maxEvaluations);
  return { fansOut: fansOut(graph, `${ROOT}#`) };
}

/** Keys that can make a schema refer to itself or to another schema. */
const REFERRING = new Set([
  "$ref",
  "$dynamicRef",
  "$recursiveRef",
  "$id",
  "id",
  "$anchor",
  "$dynamicAnchor",
  "$recursiveAnchor",
]);

/**
 * The fast path of the analysis, for the schemas nearly every tool has: no key
 * anywhere that could refer (`$ref`, `$id`, anchors), at most `maxNodes`
 * objects and arrays and at most `maxDepth` levels. Such a schema is a tree:
 * it has no cycle, its in-place chains are no deeper than the document, and
 * no value is evaluated against more schemas than the document has, so every
 * check of the full analysis passes. Anything else (also a cyclic JavaScript
 * value, which exceeds `maxNodes`) takes the full analysis.
 */
function plainAndSmall(schema: unknown, maxDepth: number, maxNodes: number): boolean {
  if (typeof schema !== "object" || schema === null) return true;
  const stack: { value: object; depth: number }[] = [{ value: schema, depth: 1 }];
  let nodes = 0;
  while (stack.length > 0) {
    const { value, depth } = stack.pop()!;
    if (++nodes > maxNodes || depth > maxDepth) return false;
    if (Array.isArray(value)) {
      for (const item of value) {
        if (typeof item === "object" && item !== null) {
          stack.push({ value: item, depth: depth + 1 });
        }
      }
      continue;
    }
    for (const key of Object.keys(value)) {
      if (REFERRING.has(key)) return false;
      const item = (value as Record<string, unknown>)[key];
      if (typeof item === "object" && item !== null) stack.push({ value: item, depth: depth + 1 });
    }
  }
  return true;
}

function resolveEdges(graph: SchemaGraph): void {
  for (const node of graph.nodes.values()) {
    for (const child of node.inPlace) node.edges.push({ to: child });
    for (const ref of node.refs) {
      const target = graph.target(ref.value, node.base);
      if (target === undefined) continue;
      node.edges.push({ to: target, via: ref.location });
      if (!ref.dynamic) continue;
      const name = ref.value.slice(ref.value.indexOf("#") + 1);
      const declared = graph.dynamicAnchors.get(name) ?? [];
      if (!declared.includes(target)) continue;
      for (const other of declared) {
        if (other !== target) node.edges.push({ to: other, via: ref.location });
      }
    }
  }
}

/** Depth-first over in-place edges, without recursion: cycles and the longest chain. */
function checkInPlace(graph: SchemaGraph, maxDepth: number, maxEvaluations: number): void {
  const state = new Map<string, number>(); // 1: on the path, 2: done
  const longest = new Map<string, number>();
  const evaluations = new Map<string, number>();
  for (const start of graph.nodes.keys()) {
    if (state.has(start)) continue;
    const path: { key: string; next: number; via?: string }[] = [{ key: start, next: 0 }];
    state.set(start, 1);
    while (path.length > 0) {
      const frame = path[path.length - 1];
      const node = graph.nodes.get(frame.key)!;
      if (frame.next < node.edges.length) {
        const edge = node.edges[frame.next++];
        const seen = state.get(edge.to);
        if (seen === 1) throw cycleError(graph, path, edge);
        if (seen === undefined && graph.nodes.has(edge.to)) {
          state.set(edge.to, 1);
          path.push({ key: edge.to, next: 0, via: edge.via });
        }
        continue;
      }
      let length = 1;
      let count = 1;
      for (const edge of node.edges) {
        length = Math.max(length, 1 + (longest.get(edge.to) ?? 0));
        count += evaluations.get(edge.to) ?? 0;
      }
      if (count > maxEvaluations) {
        throw new SchemaShapeError(
          "size",
          node.location,
          `the schema at ${
            shorten(node.location)
          } applies more than ${maxEvaluations} schemas to one value (in-place keywords and $ref, counted per path)`,
          maxEvaluations,
        );
      }
      evaluations.set(frame.key, count);
      if (length > maxDepth) {
        throw new SchemaShapeError(
          "depth",
          node.location,
          `the schemas applied to one value at ${
            shorten(node.location)
          } chain deeper than ${maxDepth} levels (through in-place keywords and $ref)`,
          maxDepth,
        );
      }
      longest.set(frame.key, length);
      state.set(frame.key, 2);
      path.pop();
    }
  }
}

function cycleError(
  graph: SchemaGraph,
  path: { key: string; via?: string }[],
  closing: { to: string; via?: string },
): SchemaShapeError {
  const from = path.findIndex((f) => f.key === closing.to);
  const refs = [...path.slice(from + 1).map((f) => f.via), closing.via].filter((v) =>
    v !== undefined
  ) as string[];
  const location = closing.via ?? refs[refs.length - 1] ?? graph.nodes.get(closing.to)!.location;
  return new SchemaShapeError(
    "cycle",
    location,
    `reference cycle without progress at ${
      shorten(location)
    }: the reference leads back to a schema ` +
      `that contains it, applied to the same value (through ${
        refs.length > 1 ? refs.map(shorten).join(" -> ") : "in-place keywords"
      }), so evaluation would never end`,
  );
}

/** A location short enough for a message (the error keeps it whole). */
function shorten(location: string): string {
  if (location === "") return "/";
  return location.length > 200 ? `${location.slice(0, 100)}…${location.slice(-100)}` : location;
}

/**
 * Whether evaluation from `root` can repeat without a static bound: a cycle
 * through all applicator edges (in place and into parts of the value), or
 * more than MAX_STATIC_PATHS paths. Iterative.
 */
function fansOut(graph: SchemaGraph, root: string): boolean {
  if (!graph.nodes.has(root)) return false;
  const state = new Map<string, number>();
  const paths = new Map<string, number>();
  const next = (key: string): string[] => {
    const node = graph.nodes.get(key)!;
    return [...node.edges.map((e) => e.to), ...node.progress].filter((k) => graph.nodes.has(k));
  };
  const stack: { key: string; children: string[]; i: number }[] = [
    { key: root, children: next(root), i: 0 },
  ];
  state.set(root, 1);
  while (stack.length > 0) {
    const frame = stack[stack.length - 1];
    if (frame.i < frame.children.length) {
      const child = frame.children[frame.i++];
      const seen = state.get(child);
      if (seen === 1) return true;
      if (seen === undefined) {
        state.set(child, 1);
        stack.push({ key: child, children: next(child), i: 0 });
      }
      continue;
    }
    let count = 1;
    for (const child of frame.children) count += paths.get(child) ?? 0;
    if (count > MAX_STATIC_PATHS) return true;
    paths.set(frame.key, count);
    state.set(frame.key, 2);
    stack.pop();
  }
  return false;
}
