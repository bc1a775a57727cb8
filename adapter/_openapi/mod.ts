// Private: the OpenAPI 3.0 subset of Gemini's `parameters` and `response`:
// writing it from JSON Schema (write.ts), objects it cannot declare as JSON text
// (json_text.ts), `required` of branches (required.ts), and reading it back
// (read.ts).

export { writeJsonText } from "./json_text.ts";
export { fromOpenApi } from "./read.ts";
export { declareBranchRequired } from "./required.ts";
export { toOpenApi } from "./write.ts";
