// Private: where the fast DETAILED evaluation (_detailed.ts) finds things in
// the document: the schema a local `$ref` names, and the keywords of a schema
// object that can fail, with the id and location of their units.

import { escapePointerToken } from "../json_pointer.ts";
import { refTokens, resolveTokens, Unsupported } from "./_compile_values.ts";
import { EVALUATED, IGNORED } from "./_keywords.ts";
import type { Dialect, Schema } from "./_detailed_unit.ts";

const KEYWORD = "https://json-schema.org/keyword/";
const DRAFT_04_IDS = new Set(["items", "additionalItems", "dependencies"]);

/** One keyword of a schema object that can fail: its name, unit id and location. */
export interface KeywordAt {
  keyword: string;
  id: string;
  url: string;
}

/**
 * The schema the local `$ref` `ref` names in `root`, and its tokens
 * (Unsupported when it does not resolve).
 */
export function resolveLocal(root: Schema, dialect: Dialect, ref: string): [unknown, string[]] {
  const tokens = refTokens(ref);
  return [resolveTokens(ref, tokens, root, dialect === "draft-07"), tokens];
}

/** The keywords of a schema object that can fail, in order: name, unit id and location. */
export function failingKeywords(
  schema: Record<string, unknown>,
  url: string,
  dialect: Dialect,
): KeywordAt[] {
  const evaluated = EVALUATED[dialect];
  const ignored = IGNORED[dialect];
  const out: KeywordAt[] = [];
  for (const keyword of Object.keys(schema)) {
    if (!evaluated.has(keyword)) {
      if (!ignored.has(keyword) && keyword.startsWith("$")) {
        throw new Unsupported(`the keyword ${keyword}`);
      }
      continue; // an annotation: never fails
    }
    const prefix = dialect === "draft-07"
      ? (DRAFT_04_IDS.has(keyword) ? "draft-04/" : keyword === "contains" ? "draft-06/" : "")
      : "";
    out.push({
      keyword,
      id: KEYWORD + prefix + (keyword === "$ref" ? "ref" : keyword),
      url: url + "/" + escapePointerToken(keyword),
    });
  }
  return out;
}
