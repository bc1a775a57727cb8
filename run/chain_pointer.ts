/**
 * Values passed between chain steps. Any value in a step's arguments may be a
 * reference `{ "$from": "<source><pointer>" }`, replaced before the step runs:
 *
 * - `input` + a JSON Pointer: the chain's input (`input/city`, `input` whole);
 * - `steps/<index or id>` + a JSON Pointer: an earlier step's structured
 *   result (`steps/0/id`, `steps/search/items/0/url`, `steps/fetch` whole).
 *
 * A reference to a later step (or to the step itself), to a step that does
 * not exist, or to a value that is not there fails the step before it runs.
 *
 * @module
 */

import { escapePointerToken, unescapePointerToken } from "../model/json_pointer.ts";

/** A reference, as written in a step's arguments. */
export interface StepReference {
  /** `input<pointer>` or `steps/<index|id><pointer>`. */
  $from: string;
}

/** A parsed reference. */
export interface ParsedReference {
  /** Where the value comes from. */
  source: "input" | "step";
  /** For `step`: the index (a number) or the step's `id`. */
  step?: number | string;
  /** The JSON Pointer into the source (`""` for the whole value). */
  pointer: string;
}

/** Whether a value is a reference (`{ $from: string }` and nothing else). */
export function isReference(value: unknown): value is StepReference {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  return keys.length === 1 && keys[0] === "$from" &&
    typeof (value as StepReference).$from === "string";
}

/**
 * Parses a reference's `$from`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseReference } from "./chain_pointer.ts";
 *
 * assert.deepEqual(parseReference("steps/0/items/1"), { source: "step", step: 0, pointer: "/items/1" });
 * assert.deepEqual(parseReference("input"), { source: "input", pointer: "" });
 * assert.equal(parseReference("nowhere/x"), undefined);
 * ```
 *
 * @param from The `$from` text.
 * @returns The parts, or `undefined` when it is malformed.
 */
export function parseReference(from: string): ParsedReference | undefined {
  if (from === "input" || from.startsWith("input/")) {
    return { source: "input", pointer: from.slice("input".length) };
  }
  const m = /^steps\/([^/]+)(\/.*)?$/.exec(from);
  if (m === null) return undefined;
  const step = /^(0|[1-9][0-9]*)$/.test(m[1]) ? Number(m[1]) : m[1];
  return { source: "step", step, pointer: m[2] ?? "" };
}

/** The value at a JSON Pointer, or `{ found: false }` with the token that failed. */
export function valueAt(
  root: unknown,
  pointer: string,
): { found: true; value: unknown } | { found: false; at: string } {
  if (pointer === "") return { found: true, value: root };
  let current = root;
  let at = "";
  for (const raw of pointer.slice(1).split("/")) {
    const token = unescapePointerToken(raw);
    at += `/${raw}`;
    if (Array.isArray(current) && /^(0|[1-9][0-9]*)$/.test(token)) {
      if (Number(token) >= current.length) return { found: false, at };
      current = current[Number(token)];
    } else if (
      typeof current === "object" && current !== null && !Array.isArray(current) &&
      Object.hasOwn(current, token)
    ) {
      current = (current as Record<string, unknown>)[token];
    } else return { found: false, at };
  }
  return { found: true, value: current };
}

/** Every reference in a value, with where it sits (a JSON Pointer into the value). */
export function referencesIn(value: unknown, at = ""): { at: string; from: string }[] {
  if (isReference(value)) return [{ at, from: value.$from }];
  if (Array.isArray(value)) return value.flatMap((v, i) => referencesIn(v, `${at}/${i}`));
  if (typeof value === "object" && value !== null) {
    return Object.entries(value).flatMap(([k, v]) =>
      referencesIn(v, `${at}/${escapePointerToken(k)}`)
    );
  }
  return [];
}

/** What resolving needs: the chain input, and the earlier steps by index and id. */
export interface ReferenceContext {
  /** The chain's input. */
  input: unknown;
  /** The structured results of the steps before, by index. */
  results: readonly unknown[];
  /** Step ids, by index (all steps, later ones included, for messages). */
  ids: readonly (string | undefined)[];
  /** The index of the step whose arguments are resolved. */
  index: number;
}

/**
 * Replaces every reference in `args` (on a copy).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resolveReferences } from "./chain_pointer.ts";
 *
 * const args = resolveReferences(
 *   { id: { $from: "steps/first/id" }, city: { $from: "input/city" } },
 *   { input: { city: "Oslo" }, results: [{ id: 7 }], ids: ["first", undefined], index: 1 },
 * );
 * assert.deepEqual(args, { id: 7, city: "Oslo" });
 * ```
 *
 * @param args The step's arguments as written.
 * @param context The input and the earlier results.
 * @returns The arguments with values in place of references.
 * @throws {Error} Naming the reference and what is wrong with it.
 */
export function resolveReferences(
  args: Record<string, unknown>,
  context: ReferenceContext,
): Record<string, unknown> {
  const visit = (value: unknown, at: string): unknown => {
    if (isReference(value)) return lookUp(value.$from, at, context);
    if (Array.isArray(value)) return value.map((v, i) => visit(v, `${at}/${i}`));
    if (typeof value === "object" && value !== null) {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, visit(v, `${at}/${k}`)]));
    }
    return value;
  };
  return visit(args, "") as Record<string, unknown>;
}

/** Which step a reference names, or why it cannot. */
export function referencedStep(
  ref: ParsedReference,
  ids: readonly (string | undefined)[],
  index: number,
): { index: number } | { problem: string } {
  const target = typeof ref.step === "number" ? ref.step : ids.indexOf(ref.step);
  if (target < 0 || target >= ids.length) {
    return { problem: `there is no step ${JSON.stringify(ref.step)}` };
  }
  if (target >= index) {
    return {
      problem: `step ${
        JSON.stringify(ref.step)
      } (index ${target}) does not run before this one (index ${index})`,
    };
  }
  return { index: target };
}

function lookUp(from: string, at: string, context: ReferenceContext): unknown {
  const where = `args${at || "/"}: {$from: ${JSON.stringify(from)}}`;
  const ref = parseReference(from);
  if (ref === undefined) {
    throw new Error(`${where}: write input/<pointer> or steps/<index or id>/<pointer>`);
  }
  let root: unknown = context.input;
  if (ref.source === "step") {
    const step = referencedStep(ref, context.ids, context.index);
    if ("problem" in step) throw new Error(`${where}: ${step.problem}`);
    root = context.results[step.index];
  }
  const found = valueAt(root, ref.pointer);
  if (!found.found) {
    throw new Error(
      `${where}: nothing at ${found.at} of ${
        ref.source === "input" ? "the chain input" : "that step's result"
      }`,
    );
  }
  return structuredClone(found.value);
}
