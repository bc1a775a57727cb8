// Private: the JSON and JSON Schema tools every part of the adapters shares:
// JSON values (json.ts), keyword tables (keywords.ts), local `$ref` resolution
// (refs.ts, ref_graph.ts), nesting limits (shape.ts) and the warning list
// (sink.ts).

export { atPointer, clone, deepEqual, hash8, mapValues, type Obj, put, show } from "./json.ts";
export {
  ANNOTATIONS,
  ANY_TYPES,
  DESCRIBABLE,
  dropEffect,
  inferType,
  isObjectSchema,
  isSimplePattern,
  jsonType,
  LIST,
  MAP,
  SINGLE,
  typesOf,
} from "./keywords.ts";
export { acceptsNull, RefResolver } from "./refs.ts";
export { checkStructure, cycleError, depthError, relocate } from "./shape.ts";
export { WarningSink } from "./sink.ts";
