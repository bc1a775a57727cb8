// Private: the trusted documents of a DefaultValidator (schemas supplied in
// memory, keyed by absolute URI) and the dialect rules that depend on them.

import { InvalidSchemaError, UnsupportedSchemaError } from "./errors.ts";
import { type JsonSchema, SCHEMA_DIALECT_2020_12 } from "./tool.ts";
import { BUILTIN_DIALECTS, normalizeDialect, type TrustedDocument } from "./_dialect.ts";
import { isPlainObject } from "./plain_object.ts";

/** The trusted documents of one validator, copied once. */
export class TrustedDocuments {
  /** Every document by normalized URI (and by its `$id`, when it has one). */
  readonly byUri: Map<string, unknown> = new Map();
  /** Each document once, for registration with Hyperjump. */
  readonly list: TrustedDocument[] = [];

  constructor(schemas: Readonly<Record<string, JsonSchema>> = {}) {
    for (const uri of Object.keys(schemas).sort()) {
      let schema: JsonSchema;
      try {
        schema = structuredClone(schemas[uri]);
      } catch (cause) {
        throw new InvalidSchemaError(`trusted document ${uri} cannot be copied`, { cause });
      }
      const key = normalizeDialect(uri);
      if (typeof schema !== "boolean" && !isPlainObject(schema)) {
        throw new InvalidSchemaError(`trusted document ${uri} is not a schema object`);
      }
      this.byUri.set(key, schema);
      if (isPlainObject(schema) && typeof schema.$id === "string") {
        try {
          this.byUri.set(normalizeDialect(new URL(schema.$id, uri).href), schema);
        } catch { /* a non-URL $id: only the key identifies the document */ }
      }
    }
    const seen = new Set<unknown>();
    for (const [uri, schema] of this.byUri) {
      if (seen.has(schema)) continue;
      seen.add(schema);
      this.list.push({ uri, schema });
    }
  }

  /**
   * The dialect a schema is validated with (normalized).
   *
   * @throws {InvalidSchemaError} A `$schema` that is not a string.
   * @throws {UnsupportedSchemaError} A `$schema` that is neither built in nor a trusted meta-schema.
   */
  dialectOf(schema: JsonSchema): string {
    if (typeof schema === "boolean" || schema.$schema === undefined) return SCHEMA_DIALECT_2020_12;
    if (typeof schema.$schema !== "string") {
      throw new InvalidSchemaError("`$schema` must be a string (a dialect URI)");
    }
    const dialect = normalizeDialect(schema.$schema);
    if (BUILTIN_DIALECTS.has(dialect)) return dialect;
    const meta = this.byUri.get(dialect);
    if (meta !== undefined && isPlainObject(meta)) {
      const base = typeof meta.$schema === "string"
        ? normalizeDialect(meta.$schema)
        : SCHEMA_DIALECT_2020_12;
      if (BUILTIN_DIALECTS.has(base)) return dialect;
    }
    const supported = [
      SCHEMA_DIALECT_2020_12,
      "http://json-schema.org/draft-07/schema#",
      "http://json-schema.org/draft-07/schema",
      ...this.list.filter((d) => isMetaSchema(d.schema)).map((d) => d.uri),
    ];
    throw new UnsupportedSchemaError(schema.$schema, supported);
  }

  /** The documents to register, the dialect's meta-schema marked when it declares no vocabulary. */
  for(dialect: string): TrustedDocument[] {
    if (BUILTIN_DIALECTS.has(dialect)) return this.list;
    return this.list.map((doc) => {
      if (normalizeDialect(doc.uri) !== dialect && this.byUri.get(dialect) !== doc.schema) {
        return doc;
      }
      const meta = doc.schema as Record<string, unknown>;
      if (meta.$vocabulary !== undefined) return doc;
      const base = typeof meta.$schema === "string"
        ? normalizeDialect(meta.$schema)
        : SCHEMA_DIALECT_2020_12;
      return { ...doc, uri: dialect, dialectBase: base };
    });
  }
}

function isMetaSchema(schema: unknown): boolean {
  return isPlainObject(schema) && schema.$vocabulary !== undefined;
}
