// Private: the schema walk, the one transform of JSON Schema every target
// shares: driven by a SchemaProfile (data), it produces the target schema, the
// warnings (JSON Pointers into the source tool), the null markers and the
// JSON-text nodes the input normalizer needs. context.ts shows how its parts
// depend on one another.

export type { WalkOptions, WalkResult } from "./context.ts";
export { walkSchema } from "./walker.ts";
