// Private: Hyperjump 1.18.0's DETAILED output, computed without Hyperjump by
// closures compiled once per schema (no walk of the schema per call). Each
// keyword's evaluation (_detailed_keywords.ts, _detailed_collections.ts)
// mirrors the Hyperjump keyword of the same name: which subschemas it
// evaluates, in which order, and when it fails; a failing
// keyword adds one output unit holding the units of the subschemas it
// evaluated, as Hyperjump's DetailedOutputPlugin does. The failures are then
// the units through the same `toFailures` as Hyperjump's output. Anything
// unexpected throws Unsupported: the failures of that schema stay with
// Hyperjump.
//
// This file holds the entry (compileDetailed); the compiler of the closures
// is _detailed_compiler.ts, what it reads of the document
// _detailed_locations.ts.

import { BUDGET_START } from "../_dialect.ts";
import { keywordSite } from "../_output_unit.ts";
import { toFailures } from "../_messages.ts";
import type { ValidationFailure } from "../errors.ts";
import { Unsupported } from "./_compile.ts";
import { compileFailuresCode } from "./_detailed_code.ts";
import { DetailedCompiler } from "./_detailed_compiler.ts";
import { type Dialect, isObject, type OutputUnit, type Schema } from "./_detailed_unit.ts";

/** The failures read at which their code is generated (the earlier ones take the units). */
const GENERATE_AT = 2;

// Schema evaluations in one pass up to which Hyperjump's evaluation budget
// (for schemas whose references fan out) never stops an evaluation; beyond
// it, the value is handed to Hyperjump.
export { BUDGET_START };

/** The DETAILED units of a value, and whether the schema's evaluation can never bail. */
export interface CompiledDetailed {
  /** The units of a failing value (empty when valid). May throw {@linkcode FastPathBail}. */
  units: (instance: unknown) => OutputUnit[];
  /**
   * Whether the value is valid, by the same evaluation (every subschema
   * Hyperjump evaluates). May throw {@linkcode FastPathBail}.
   */
  valid: (instance: unknown) => boolean;
  /** The base URI of the schema's locations. */
  base: string;
  /** The documents the failures quote keyword values from (the root only). */
  lookup: (uri: string) => unknown;
  /** Whether no value can make `$ref`s nest beyond MAX_REF_NESTING (no cycle, no long chain). */
  bounded: boolean;
  /**
   * The failures of a failing value (empty when valid): `toFailures` of its
   * units, made without them by `generated`'s code (from the second read on,
   * or once `generated` was called). May throw {@linkcode FastPathBail}.
   */
  failures: (instance: unknown) => ValidationFailure[];
  /**
   * The generated code of the failures (repeats dropped), made on first
   * call; undefined where code cannot be generated.
   */
  generated: () => ((instance: unknown) => ValidationFailure[]) | undefined;
  /**
   * With a budget, the generated check that evaluates and counts as `valid`
   * does (the failures' code made now, when it was not yet); undefined
   * without a budget or where code cannot be generated.
   */
  counting: () => ((instance: unknown) => boolean) | undefined;
  /** The generated code of the failures once made (what `failures` then calls), else undefined. */
  made: () => ((instance: unknown) => ValidationFailure[]) | undefined;
  /**
   * With a walk: the generated refusal function (the walk, then the
   * failures: see _refusal.ts), the failures' code made now when it was not
   * yet; undefined without a walk or where code cannot be generated.
   */
  refusal: () => ((instance: unknown) => ValidationFailure[] | null) | undefined;
}

/** The base URI Hyperjump gives the root (its `$id`, else `rootUri`), or Unsupported. */
function baseOf(root: Schema, rootUri: string): string {
  if (!isObject(root) || root.$id === undefined) return rootUri;
  const id = root.$id;
  if (typeof id !== "string") throw new Unsupported("a $id that is not a string");
  let href: string;
  try {
    href = new URL(id).href;
  } catch {
    throw new Unsupported("a $id that is not an absolute URI");
  }
  const bare = id.endsWith("#") ? id.slice(0, -1) : id;
  // Only a $id the URL parser leaves as written: Hyperjump's normalization is its own.
  if (href !== bare || bare.includes("#")) throw new Unsupported("a $id not in normal form");
  return bare;
}

/** Compiles the DETAILED output of a schema Hyperjump accepted (one the fast path supports). */
export function compileDetailed(
  root: Schema,
  dialect: Dialect,
  rootUri: string,
  budget = false,
  walk?: string,
): CompiledDetailed {
  const base = baseOf(root, rootUri);
  const lookup = (uri: string): unknown => uri === base || uri === rootUri ? root : undefined;
  const site = (url: string) => ({
    ...keywordSite(url, lookup, rootUri),
    absoluteKeywordLocation: url,
  });
  const compiler = new DetailedCompiler(root, dialect, base, site, budget);
  const entry = compiler.schema(root, []);
  const state = compiler.state;
  const units = (instance: unknown): OutputUnit[] => {
    state.n = 0;
    state.evaluations = 0;
    const units: OutputUnit[] = [];
    entry(instance, "", units);
    return units;
  };
  const slow = (instance: unknown) => toFailures(units(instance), instance, lookup, rootUri);
  // The failures' generated code, made on first use; where code cannot be
  // generated, the units give the failures.
  let code: ((instance: unknown) => ValidationFailure[]) | null | undefined;
  let counting: ((instance: unknown) => boolean) | undefined;
  let refusal: ((instance: unknown) => ValidationFailure[] | null) | undefined;
  let reads = 0;
  const generated = () => {
    if (code === undefined) {
      try {
        ({ failures: code, valid: counting, refuse: refusal } = compileFailuresCode(
          root,
          compiler,
          budget,
          walk,
        ));
      } catch {
        code = null; // Unsupported, or code generation disallowed by the host
      }
    }
    return code ?? undefined;
  };
  return {
    base,
    lookup,
    bounded: compiler.bounded(),
    units,
    valid: (instance) => {
      state.n = 0;
      state.evaluations = 0;
      const units: OutputUnit[] = [];
      return entry(instance, "", units);
    },
    generated,
    counting: () => {
      generated();
      return counting;
    },
    made: () => code ?? undefined,
    refusal: () => {
      generated();
      return refusal;
    },
    failures: (instance) => {
      if (code) return code(instance);
      // The first read takes the units (making the code costs several of
      // them: a schema whose failures are read once never pays it).
      if (code === undefined && ++reads < GENERATE_AT) return slow(instance);
      const made = generated();
      return made === undefined ? slow(instance) : made(instance);
    },
  };
}
