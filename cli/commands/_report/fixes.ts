// What would make a refused tool pass: one sentence per preflight problem
// code (and per conversion error), in the tool author's terms. The problem's
// own message says what the provider rejects; this says what to change.

const FIXES: Readonly<Record<string, string>> = {
  invalid_name: "rename the tool (or its namespace) to the provider's letters, digits, _ and -",
  name_too_long: "shorten the tool's name or namespace so that the provider name fits",
  duplicate_name: "give the tools distinct names: two of them map to the same provider name",
  limit_exceeded:
    "make the schema smaller where the message says: fewer properties, less nesting, " +
    "shorter enums or descriptions (or leave strict mode off for this target)",
  too_deep: "nest the schema fewer levels deep (move inner objects to $defs or flatten them)",
  not_required: "list every property in `required` (make optional ones nullable instead)",
  not_closed: "add `additionalProperties: false` to the object",
  unsupported_keyword: "remove the keyword or move its constraint into the description",
  unsupported_format: "remove the `format` or use one the provider lists",
  unsupported_pattern: "simplify the `pattern` (no lookaround or backreference) or remove it",
  root_combinator: "make the root a plain object: move the `anyOf`/`oneOf` into a property",
  root_not_object: 'give the schema `type: "object"` at its root',
  ref_siblings: "put the keywords next to the `$ref` into the referenced schema",
  recursion: "replace the recursive `$ref` with a bounded shape (or a JSON text string)",
  unresolved_ref: "point the `$ref` at a definition that exists in the schema (`#/$defs/...`)",
  missing_type: "give the subschema a `type`",
  invalid_type: "use a type the provider knows (string, number, integer, boolean, array, object)",
  invalid_enum: "write the enum values as strings",
  required_missing: "list in `required` only properties the object declares",
  empty_object: "declare the object's properties (the provider rejects an object without any)",
  invalid_shape: "write the tool in the provider's shape (the message names the field)",
  invalid_tool: "fix the tool definition where the message points",
  budget_exceeded: "send fewer strict tools in one request, or leave strict mode off for some",
  depth: "nest the schema fewer levels deep",
  cycle: "break the `$ref` loop: every reference must lead to a schema, not only to another `$ref`",
  size: "make the schema smaller",
  name_collision: "rename one of the tools: both map to the same provider name",
};

/** What to change so that a problem of this code goes away. */
export function fixFor(code: string): string {
  return Object.hasOwn(FIXES, code)
    ? FIXES[code]
    : "change the schema where the problem points so that the provider accepts it";
}
