// The meta-schemas of the two built-in dialects as ONE self-contained document
// each, compiled at build time to plain JavaScript for the validator's
// Hyperjump-free meta-schema check (model/_meta_check.ts): taken from the
// pinned Hyperjump package, with every reference made local and with the
// parts that would need a regular-expression engine replaced by `false`
// (stricter: a schema they would accept is sent to Hyperjump instead).
// Anything unexpected in the documents throws: the generated files are never
// silently different from what they say they are. tests/model/meta_check_test.ts
// checks the result against Hyperjump's own meta-schema validation.

import "@hyperjump/json-schema/draft-2020-12";
import "@hyperjump/json-schema/draft-07";
import { getSchema, toSchema } from "@hyperjump/json-schema/experimental";
import { standaloneCheck } from "./_ajv_standalone.ts";

const D2020 = "https://json-schema.org/draft/2020-12/";
const VOCABS = [
  "core",
  "applicator",
  "unevaluated",
  "validation",
  "meta-data",
  "format-annotation",
  "content",
];
const DRAFT_07 = "http://json-schema.org/draft-07/schema";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

async function load(uri: string): Promise<Record<string, Json>> {
  return toSchema(await getSchema(uri), { includeDialect: "never" }) as Record<string, Json>;
}

/** Rewrites references in place; `ref` maps a `$ref` value to its local form. */
function rewrite(node: Json, ref: (value: string) => string, stripped: string[], at = ""): Json {
  if (Array.isArray(node)) return node.map((item, i) => rewrite(item, ref, stripped, `${at}/${i}`));
  if (typeof node !== "object" || node === null) return node;
  if (typeof node.pattern === "string") {
    // Needs the regular-expression engine: `false` (stricter; Hyperjump decides those schemas).
    stripped.push(at);
    return false;
  }
  const out: Record<string, Json> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === "$dynamicRef" && typeof value === "string") {
      if (value !== "#meta") throw new Error(`unexpected $dynamicRef ${value} at ${at}`);
      // Validating a schema against the standard meta-schema, the outermost
      // "meta" dynamic anchor in scope is always the dialect's own root.
      out.$ref = "#";
    } else if (key === "$ref" && typeof value === "string") {
      out.$ref = ref(value);
    } else {
      out[key] = rewrite(value, ref, stripped, `${at}/${key}`);
    }
  }
  return out;
}

function withoutHeader(doc: Record<string, Json>): Record<string, Json> {
  const { $id: _id, $schema: _schema, $vocabulary: _v, $dynamicAnchor: _a, ...rest } = doc;
  return rest;
}

/** The 2020-12 meta-schema with its seven vocabulary meta-schemas under `$defs`. */
export async function flat2020(stripped: string[]): Promise<Record<string, Json>> {
  const root = withoutHeader(await load(`${D2020}schema`));
  const defs: Record<string, Json> = {};
  for (const vocab of VOCABS) {
    const doc = withoutHeader(await load(`${D2020}meta/${vocab}`));
    defs[vocab] = rewrite(
      doc,
      (value) => {
        if (value.startsWith("#/$defs/")) return `#/$defs/${vocab}/$defs/${value.slice(8)}`;
        throw new Error(`unexpected $ref ${value} in meta/${vocab}`);
      },
      stripped,
      `/$defs/${vocab}`,
    );
  }
  if (root.$defs !== undefined) throw new Error("the 2020-12 meta-schema has its own $defs");
  const out = rewrite(root, (value) => {
    const m = /^meta\/([a-z-]+)(#.*)?$/.exec(value);
    if (m === null || !VOCABS.includes(m[1])) throw new Error(`unexpected $ref ${value}`);
    return m[2] === undefined ? `#/$defs/${m[1]}` : `#/$defs/${m[1]}${m[2].slice(1)}`;
  }, stripped) as Record<string, Json>;
  return { ...out, $defs: defs };
}

/** The draft-07 meta-schema (already one document; its `$ref`s are local). */
export async function flat07(stripped: string[]): Promise<Record<string, Json>> {
  const doc = withoutHeader(await load(DRAFT_07));
  return rewrite(doc, (value) => {
    if (value === "#" || value.startsWith("#/definitions/")) return value;
    throw new Error(`unexpected $ref ${value} in draft-07`);
  }, stripped) as Record<string, Json>;
}

/** The generated modules: model/_generated/meta_check_2020_12.js and meta_check_draft_07.js. */
export async function metaCheckModules(): Promise<Array<{ path: string; text: string }>> {
  const stripped2020: string[] = [];
  const stripped07: string[] = [];
  const flat = { "2020-12": await flat2020(stripped2020), "draft-07": await flat07(stripped07) };
  const expected2020 = [
    "/$defs/core/properties/$id",
    "/$defs/core/properties/$anchor",
    "/$defs/core/properties/$dynamicAnchor",
  ];
  if (JSON.stringify(stripped2020) !== JSON.stringify(expected2020) || stripped07.length > 0) {
    throw new Error(`unexpected patterns in the meta-schemas: ${stripped2020} ${stripped07}`);
  }
  const what = (d: string) =>
    `Whether a schema certainly passes the ${d} meta-schema (from @hyperjump/json-schema's ` +
    "copy; references made local, $dynamicRef #meta as $ref #, subschemas with a pattern " +
    "replaced by false: stricter)";
  return [
    {
      path: "model/_generated/meta_check_2020_12.js",
      text: standaloneCheck(flat["2020-12"], "2020-12", what("2020-12")),
    },
    {
      path: "model/_generated/meta_check_draft_07.js",
      text: standaloneCheck(flat["draft-07"], "draft-07", what("draft-07")),
    },
  ];
}
