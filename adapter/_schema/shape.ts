// Private: the structure errors conversion raises itself (depth beyond the
// limits, `$ref` cycles without progress), as the validator's
// SchemaShapeError so that `validate` and `convert` refuse a schema alike. The
// location is a JSON Pointer into the tool given to the call.

import { SchemaShapeError } from "../../model/errors.ts";
import { checkSchemaStructure } from "../../model/schema_structure.ts";

/** The errors made here, which `registry.convert` may relocate into the source format. */
const MINE = new WeakSet<SchemaShapeError>();

function shorten(pointer: string): string {
  if (pointer === "") return "/";
  return pointer.length > 200 ? `${pointer.slice(0, 100)}…${pointer.slice(-100)}` : pointer;
}

function made(error: SchemaShapeError): SchemaShapeError {
  MINE.add(error);
  return error;
}

/** Nesting beyond `limit` at `pointer`: `what` names the unit (schema levels, JSON levels). */
export function depthError(pointer: string, limit: number, what: string): SchemaShapeError {
  return made(
    new SchemaShapeError(
      "depth",
      pointer,
      `the tool nests deeper than ${limit} ${what} at ${shorten(pointer)}; conversion refuses it`,
      limit,
    ),
  );
}

/** A `$ref` cycle without progress, closed by the `$ref` at `pointer`. */
export function cycleError(pointer: string): SchemaShapeError {
  return made(
    new SchemaShapeError(
      "cycle",
      pointer,
      `reference cycle without progress at ${shorten(pointer)}: the reference leads back to a ` +
        "schema that contains it, applied to the same value (through $ref, allOf, anyOf, oneOf, " +
        "not, if/then/else or dependentSchemas), so no evaluation of it could end",
    ),
  );
}

/** The same error at `pointer` (the same place in another format's tool), for errors made here. */
export function relocate(error: unknown, pointer: (at: string) => string): unknown {
  if (!(error instanceof SchemaShapeError) || !MINE.has(error)) return error;
  const at = pointer(error.keywordLocation);
  if (at === error.keywordLocation) return error;
  const message = error.message.replace(/^invalid JSON Schema: /, "")
    .replace(shorten(error.keywordLocation), shorten(at));
  return made(new SchemaShapeError(error.problem, at, message, error.limit));
}

/**
 * Runs the validator's structure check ({@linkcode checkSchemaStructure}) on a
 * schema of the canonical tool at `pointer` (`/inputSchema`, `/outputSchema`),
 * so conversion refuses exactly what validation refuses, with the location
 * relocatable into the source format.
 */
export function checkStructure(schema: unknown, pointer: string): void {
  try {
    checkSchemaStructure(schema);
  } catch (error) {
    if (!(error instanceof SchemaShapeError)) throw error;
    const at = pointer + (error.keywordLocation.startsWith("/") ? error.keywordLocation : "");
    const message = error.message.replace(/^invalid JSON Schema: /, "")
      .replace(shorten(error.keywordLocation), shorten(at));
    throw made(new SchemaShapeError(error.problem, at, message, error.limit));
  }
}
