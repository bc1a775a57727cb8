// Private: the input normalizers behind InputNormalizer (see normalizer.ts).

export { createNormalizer, resolve } from "./json_schema.ts";
export { createJsonTextNormalizer } from "./openapi.ts";
