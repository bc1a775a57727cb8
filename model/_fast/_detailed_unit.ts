// Private: what the fast DETAILED evaluation is made of (_detailed.ts): its
// evaluations, the units a failing keyword adds (as Hyperjump's
// DetailedOutputPlugin makes them, with what toFailures reads), and what a
// keyword's evaluation needs from the compiler.

import type { KeywordSite, OutputUnit as Unit } from "../_output_unit.ts";

/** One unit of Hyperjump's DETAILED output, as this module builds it. */
export interface OutputUnit extends Unit {
  errors?: OutputUnit[];
}

export type Schema = Record<string, unknown> | boolean;
export type Dialect = "2020-12" | "draft-07";
/** Where a failing keyword puts its unit; `null` when nothing is recorded (`if` under `then`). */
export type Units = OutputUnit[] | null;
/** Evaluates a schema or a keyword against the value at `pointer` (unencoded JSON Pointer). */
export type Evaluate = (value: unknown, pointer: string, units: Units) => boolean;

/** A keyword site with its absolute location as Hyperjump writes it. */
export interface Site extends KeywordSite {
  absoluteKeywordLocation: string;
}

/** What a keyword's evaluation asks of the compiler. */
export interface KeywordContext {
  /** The dialect of the document. */
  dialect: Dialect;
  /** The evaluation of the subschema `node` at `tokens` (compiled once per location). */
  schema(node: unknown, tokens: readonly string[]): Evaluate;
  /** The evaluation of a local `$ref`, counting nesting. */
  ref(ref: unknown): Evaluate;
}

/**
 * A failing unit as Hyperjump's DetailedOutputPlugin makes it, with what
 * toFailures reads: its keyword site, and the value and its pointer.
 */
export class FastUnit implements OutputUnit {
  errors?: OutputUnit[];
  readonly keyword: string;
  readonly site: Site;
  readonly pointer: string | undefined;
  readonly instance: unknown;
  readonly #pointer: string;

  constructor(keyword: string, site: Site, value: unknown, pointer: string) {
    this.keyword = keyword;
    this.site = site;
    // A pointer starting with "*" names a property name: toFailures reads
    // such a unit from its instanceLocation, as it reads Hyperjump's.
    const named = pointer.charCodeAt(0) === 42;
    this.pointer = named ? undefined : pointer;
    this.instance = named ? undefined : value;
    this.#pointer = pointer;
    // Hyperjump's instanceLocation URI-encodes the pointer, which throws
    // URIError on a lone surrogate: so does this unit, when it is made.
    if (!pointer.isWellFormed()) encodeURI(pointer);
  }

  /** The keyword's absolute URI. */
  get absoluteKeywordLocation(): string {
    return this.site.absoluteKeywordLocation;
  }

  /** `#` and the URI-encoded pointer, as Hyperjump writes it. */
  get instanceLocation(): string {
    return "#" + encodeURI(this.#pointer);
  }
}

// The readers of keyword values, shared with the fast check's generator.
export {
  isObject,
  list,
  number as num,
  pattern as matcher,
  stringList as strings,
} from "./_compile_values.ts";
