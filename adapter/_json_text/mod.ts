// Private: the JSON-text fallback: maps and objects without properties that a
// target cannot declare are declared as a string holding the object as JSON
// text; the texts, descriptions and warnings (text.ts) and the check that a
// text branch cannot be confused with another (ambiguity.ts).

export { ambiguousText, jsonSchemaDialect, OPENAPI_DIALECT } from "./ambiguity.ts";
export {
  decodeText,
  encodeText,
  sourceNotes,
  textDescription,
  textFits,
  textMessage,
} from "./text.ts";
