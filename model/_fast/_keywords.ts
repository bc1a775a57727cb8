// Private: the keywords the fast path knows, per dialect: those Hyperjump
// evaluates (any other keyword is an annotation to it) and the `$`-keywords
// it ignores; and the type tests generated code writes.

const IGNORED_2020_12 = new Set(["$schema", "$id", "$comment", "$defs", "format"]);
const IGNORED_DRAFT_07 = new Set(["$schema", "$id", "$comment", "$defs", "definitions", "format"]);
/** The keywords both dialects evaluate alike in name. */
const EVALUATED_BOTH = [
  "$ref",
  "type",
  "enum",
  "const",
  "allOf",
  "anyOf",
  "oneOf",
  "not",
  "if",
  "then",
  "else",
  "multipleOf",
  "maximum",
  "exclusiveMaximum",
  "minimum",
  "exclusiveMinimum",
  "maxLength",
  "minLength",
  "pattern",
  "items",
  "contains",
  "maxItems",
  "minItems",
  "uniqueItems",
  "properties",
  "patternProperties",
  "additionalProperties",
  "required",
  "propertyNames",
  "maxProperties",
  "minProperties",
];
/** The keywords each dialect evaluates; any other keyword is an annotation to Hyperjump. */
export const EVALUATED = {
  "2020-12": new Set([
    ...EVALUATED_BOTH,
    "prefixItems",
    "minContains",
    "maxContains",
    "dependentRequired",
    "dependentSchemas",
  ]),
  "draft-07": new Set([...EVALUATED_BOTH, "additionalItems", "dependencies"]),
} as const;

/** The `$`-keywords (and `format`, never asserting here) each dialect ignores. */
export const IGNORED = { "2020-12": IGNORED_2020_12, "draft-07": IGNORED_DRAFT_07 } as const;

/** The test that `v` is a non-array object (generated code). */
export const OBJECT = '(typeof v === "object" && v !== null && !Array.isArray(v))';

/** `type`'s test of `v` for each type name (generated code). */
export const TYPE_TESTS: Record<string, string> = {
  null: "v === null",
  boolean: 'typeof v === "boolean"',
  string: 'typeof v === "string"',
  number: 'typeof v === "number"',
  integer: '(typeof v === "number" && Number.isInteger(v))',
  array: "Array.isArray(v)",
  object: OBJECT,
};
