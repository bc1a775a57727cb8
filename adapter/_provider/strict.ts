// Private: the strict / non-strict / "auto" decision shared by OpenAI and Anthropic.

import type { Obj, WarningSink } from "../_schema/mod.ts";
import { createNormalizer } from "../_normalizer/mod.ts";
import { IDENTITY_NORMALIZER, type InputNormalizer } from "../normalizer.ts";
import type { SchemaProfile } from "../profile.ts";
import type { FeatureLossWarning } from "../warning.ts";

/** A converted schema with its warnings and null markers. */
export interface Converted {
  schema: Obj;
  warnings: FeatureLossWarning[];
  nullable: Map<Obj, Set<string>>;
  /** The nodes that hold a map as JSON text. */
  jsonText?: Set<Obj>;
}

/** The chosen conversion. */
export interface Decision extends Converted {
  applied: boolean;
  reasons: string[];
}

/**
 * Converts in strict mode when asked (or, for `"auto"`, when no warning
 * changes the accepted values), else with `convert(undefined)`. Warnings of the
 * chosen conversion go to the sink.
 */
export function strictOrNot(
  requested: boolean | "auto",
  strictProfile: SchemaProfile | undefined,
  sink: WarningSink,
  convert: (profile: SchemaProfile | undefined) => Converted,
): Decision {
  let chosen: Converted;
  let applied = false;
  const reasons: string[] = [];
  if (requested === false || strictProfile === undefined) {
    chosen = convert(undefined);
    if (requested !== false) reasons.push(`${sink.to} has no strict mode`);
  } else {
    const strict = convert(strictProfile);
    const changes = strict.warnings.filter((w) => w.effect !== "none");
    if (requested === true || changes.length === 0) {
      chosen = strict;
      applied = true;
    } else {
      for (const w of changes) {
        reasons.push(`${w.path}: ${w.feature} ${w.action}, ${w.effect}: ${w.message}`);
      }
      chosen = convert(undefined);
    }
  }
  for (const w of chosen.warnings) sink.add(w.path, w.feature, w.action, w.effect, w.message);
  return { ...chosen, applied, reasons };
}

/**
 * The input normalizer of a decision: null markers and maps held as JSON text
 * when strict mode was applied, else the identity.
 */
export function strictNormalizer(decision: Decision): InputNormalizer {
  if (!decision.applied) return IDENTITY_NORMALIZER;
  return createNormalizer(decision.schema, {
    dialect: "json-schema",
    nullable: decision.nullable,
    jsonText: decision.jsonText,
  }) ?? IDENTITY_NORMALIZER;
}
