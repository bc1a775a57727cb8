// Private: the failures of an invalid value from JavaScript generated once per
// schema (as _compile.ts generates the check): the failures `toFailures` makes
// of the DETAILED units (_detailed.ts), in the same order, without the units.
// Each schema location is a function `f<n>(v, p, o)` that evaluates every
// keyword the units evaluation evaluates, in the same order, and appends each
// failing keyword's failures to `o` (null: nothing is recorded, as when `then`
// or `else` evaluate `if`). Locations, keyword names and the messages that do
// not depend on the value are made once per keyword (FailureTemplate),
// including those made of a unit as a whole: `anyOf` and `oneOf`, whose
// message quotes the branches' failures (for draft-07 references, grouped by
// the index `toFailures` reads in their targets' locations: a target's token,
// or, for a target as deep as the keyword, each of its keywords' names, which
// its `marked` function marks), and `additionalProperties` or
// `additionalItems` whose subschema is false, whose messages name the extra
// members. No unit is ever made.
// Only numbers (checked finite), JSON-quoted names and indexes into tables
// are ever written into the code.
//
// The parts: the generator's core (_detailed_code_generator.ts), each
// keyword's code (_detailed_code_keywords.ts, _detailed_code_applicators.ts,
// _detailed_code_collections.ts) and what they share
// (_detailed_code_support.ts).

import type { ValidationFailure } from "../errors.ts";
import { escapePointerToken } from "../json_pointer.ts";
import { testPattern } from "../_pattern_record.ts";
import { FastPathBail, Unsupported } from "./_compile.ts";
import { FailureTemplate, lineBreaks } from "./_detailed_failures.ts";
import { distinctFailures } from "../_distinct_failures.ts";
import { FailureCode } from "./_detailed_code_generator.ts";
import type { UnitsCompiler } from "./_detailed_code_support.ts";
import { REFUSAL_THREW, refusalSource } from "./_refusal.ts";

/** Largest generated source accepted (beyond, the units give the failures). */
const MAX_SOURCE = 2_000_000;

/**
 * Generates the failures of a schema the units compiler compiled. Throws
 * Unsupported when code cannot be made.
 */
export function compileFailures(
  root: unknown,
  compiler: UnitsCompiler,
  budget = false,
): (instance: unknown) => ValidationFailure[] {
  return compileFailuresCode(root, compiler, budget).failures;
}

/** The generated failures of a schema, and with a budget its generated counting check. */
export interface FailuresCode {
  /** The failures of a value (empty when valid). May throw {@linkcode FastPathBail}. */
  failures: (instance: unknown) => ValidationFailure[];
  /**
   * With a budget: whether a value is valid, by the same evaluation as
   * `failures` (every subschema the units evaluation evaluates, each
   * counted against the budget, the failures recorded as they count), so
   * that it bails exactly where the units evaluation does. May throw
   * {@linkcode FastPathBail}.
   */
  valid?: (instance: unknown) => boolean;
  /**
   * With a walk (see `compileFailuresCode`): the failures of a value the
   * check refused, in the same function as the walk that proves it JSON
   * within the depth limit; `null` when the walk does not, REFUSAL_THREW
   * when the failures code threw (see _refusal.ts).
   */
  refuse?: (instance: unknown) => ValidationFailure[] | null;
}

/**
 * Generates the failures of a schema the units compiler compiled and, with
 * a budget (references that fan out), the check that evaluates and counts
 * as they do. Throws Unsupported when code cannot be made.
 */
export function compileFailuresCode(
  root: unknown,
  compiler: UnitsCompiler,
  budget = false,
  walk?: string,
): FailuresCode {
  const generator = new FailureCode(compiler, budget);
  // The root written in place (its pointer known: see FailureCode's `entry`).
  const entry = generator.entry(root);
  while (generator.pending.length > 0) generator.generate(...generator.pending.pop()!);
  // Written in place entirely (no function: no reference, nothing called
  // twice), each template's code runs at most once per pointer, so two
  // failures never share a keyword location, an instance location and a
  // message; and where no field holds a line break, no two keys of different
  // fields are the same either (see _distinct_failures.ts): then repeats are
  // looked for only when a member name of the value, in a pointer or a
  // message, held one (the template that writes it says so: `lineBreaks`).
  // The schema's own strings are known here.
  const repeats = generator.code.length > 0 || holdsLineBreak(root);
  // Only a template writes a member name of the value: without any, the
  // failures are the schema's own strings, and repeats cannot be.
  const noted = !repeats && generator.templates.length > 0;
  const result = repeats ? "D(o)" : noted ? "LB.seen ? D(o) : o" : "o";
  // The counting check runs the same code (its `ok` is the root's answer): a
  // fanning-out schema's evaluations are counted only where failures are
  // recorded, as the units evaluation records them.
  const valid = budget
    ? `function valid(v) { st.n = 0; st.evaluations = 0; const o = []; let ok = true; ` +
      `${entry} return ok; }`
    : "undefined";
  // The reference nesting and evaluation counts are reset only where some code reads them.
  const counts = budget || generator.code.some((line) => line.includes("st.")) ||
    entry.includes("st.");
  const body = `${counts ? "st.n = 0; st.evaluations = 0; " : ""}${
    noted ? "LB.seen = false; " : ""
  }const o = []; let ok = true; ${entry} return ${result};`;
  const source = `${generator.code.join("\n")}\nreturn { failures: function failures(v) { ` +
    `${body} }, valid: ${valid}, refuse: ${refusalSource(walk, body)} };`;
  if (source.length > MAX_SOURCE) throw new Unsupported("a schema too large to generate code for");
  const templates: (FailureTemplate | undefined)[] = generator.templates.map(() => undefined);
  const template = (i: number): FailureTemplate => {
    const [keyword, url] = generator.templates[i];
    return templates[i] = new FailureTemplate(keyword, compiler.site(url));
  };
  let made: FailuresCode;
  try {
    made = new Function(
      "c",
      "T",
      "t",
      "st",
      "Bail",
      "hasOwn",
      "tp",
      "esc",
      "yes",
      "D",
      "LB",
      "OP",
      "RT",
      source,
    )(
      generator.constants,
      templates,
      template,
      compiler.state,
      FastPathBail,
      Object.hasOwn,
      testPattern,
      escapePointerToken,
      () => true,
      distinctFailures,
      lineBreaks,
      Object.prototype,
      REFUSAL_THREW,
    );
  } catch (error) {
    throw new Unsupported(`generated code that does not run (${(error as Error)?.message})`);
  }
  return {
    failures: made.failures,
    ...(made.valid === undefined ? {} : { valid: made.valid }),
    ...(made.refuse === undefined ? {} : { refuse: made.refuse }),
  };
}

/** Annotations whose text no failure quotes. */
const QUIET = new Set(["description", "title", "$comment"]);

/**
 * Whether a member name or a string of the schema (but an annotation's text)
 * holds a line break.
 */
function holdsLineBreak(node: unknown): boolean {
  if (typeof node === "string") return node.includes("\n");
  if (Array.isArray(node)) return node.some(holdsLineBreak);
  if (typeof node !== "object" || node === null) return false;
  for (const [key, value] of Object.entries(node)) {
    if (key.includes("\n")) return true;
    if (QUIET.has(key) && typeof value === "string") continue;
    if (holdsLineBreak(value)) return true;
  }
  return false;
}
