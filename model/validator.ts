/**
 * JSON Schema validation of tool inputs and outputs, backed by Hyperjump:
 * 2020-12 (the default) and draft-07 each with their own semantics, no remote
 * retrieval ever, failures as data with human messages.
 *
 * @module
 */

import {
  ExternalRefError,
  InstanceDepthError,
  InvalidSchemaError,
  SchemaValidationError,
  type ToolFoundationError,
  UnsupportedSchemaError,
  type ValidationFailure,
} from "./errors.ts";
import { type JsonSchema, SCHEMA_DIALECT_2020_12, type Tool } from "./tool.ts";
import { toolId } from "./tool_id.ts";
import {
  BlockedRetrieval,
  BUILTIN_DIALECTS,
  compileSchema,
  interpret,
  type Interpreter,
  metaValidator,
  normalizeDialect,
  type OutputUnit,
  registeredDocuments,
  ROOT_URI,
  type TrustedDocument,
} from "./_hyperjump.ts";
import { toFailures } from "./_messages.ts";
import { canonicalJson, checkInstance, isPlainObject } from "./_json.ts";

/** A schema as an object (or boolean), JSON text, or UTF-8 bytes of JSON. */
export type SchemaInput = JsonSchema | string | Uint8Array;

/** The outcome of a synchronous check. */
export type CheckResult =
  | { valid: true }
  | { valid: false; failures: ValidationFailure[] };

/** A compiled schema: synchronous checks for hot paths. */
export interface CompiledSchema {
  /** The dialect the schema is validated with (normalized, no trailing `#`). */
  readonly dialect: string;
  /**
   * Checks an instance.
   *
   * @param instance The value to check.
   * @returns `{ valid: true }` or the failures.
   * @throws {InstanceDepthError} When the value nests deeper than `maxDepth`.
   */
  check(instance: unknown): CheckResult;
  /**
   * Checks an instance and throws when it does not match.
   *
   * @param instance The value to check.
   * @param subject What is checked, for the error message (e.g. `input of tool "x"`).
   * @throws {SchemaValidationError} With the failures and the instance.
   * @throws {InstanceDepthError} When the value nests deeper than `maxDepth`.
   */
  assert(instance: unknown, subject?: string): void;
}

/** Validates JSON instances against JSON Schemas (seed 004's contract). */
export interface SchemaValidator {
  /**
   * Validates an instance against a schema.
   *
   * @param schema The schema.
   * @param instance The value.
   */
  validate(schema: SchemaInput, instance: unknown): Promise<void>;
  /**
   * Validates arguments against `tool.inputSchema`; rejects with
   * {@linkcode InvalidSchemaError} when the tool or its input schema is missing.
   *
   * @param tool The tool.
   * @param args The arguments.
   */
  validateInput(tool: Tool | null | undefined, args: unknown): Promise<void>;
  /**
   * Validates a result against `tool.outputSchema`; resolves when there is none.
   *
   * @param tool The tool.
   * @param result The structured result.
   */
  validateOutput(tool: Tool | null | undefined, result: unknown): Promise<void>;
}

/** Options of a {@linkcode DefaultValidator}. */
export interface DefaultValidatorOptions {
  /**
   * Trusted schema documents supplied in memory, keyed by absolute URI. A
   * `$ref` (or a `$schema`) naming one of them resolves without retrieval.
   */
  schemas?: Readonly<Record<string, JsonSchema>>;
  /** Assert `format` for this validator only (default `false`: annotation, as the seeds say). */
  formatAssertion?: boolean;
  /** Deepest instance nesting accepted (default 256); deeper values are refused, not overflowed. */
  maxDepth?: number;
  /** Most compiled schemas kept (default 1000; least recently used evicted first). */
  cacheSize?: number;
}

/** The default instance nesting limit. */
export const DEFAULT_MAX_DEPTH = 256;

function parseSchema(input: SchemaInput): JsonSchema {
  if (typeof input === "boolean" || isPlainObject(input)) return input as JsonSchema;
  if (typeof input === "string" || input instanceof Uint8Array) {
    const text = typeof input === "string" ? input : new TextDecoder().decode(input);
    if (text.trim() === "") throw new InvalidSchemaError("the schema text is empty");
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (cause) {
      throw new InvalidSchemaError(`the schema is not valid JSON (${(cause as Error).message})`, {
        cause,
      });
    }
    if (typeof value === "boolean" || isPlainObject(value)) return value as JsonSchema;
    throw new InvalidSchemaError(`a schema must be an object or a boolean, found ${typeOf(value)}`);
  }
  throw new InvalidSchemaError(
    `a schema must be an object, a boolean, JSON text or bytes, found ${typeOf(input)}`,
  );
}

function typeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

function collectRefs(schema: unknown, out: string[]): string[] {
  if (Array.isArray(schema)) { for (const item of schema) collectRefs(item, out); }
  else if (isPlainObject(schema)) {
    for (const [key, value] of Object.entries(schema)) {
      if ((key === "$ref" || key === "$dynamicRef") && typeof value === "string") out.push(value);
      else collectRefs(value, out);
    }
  }
  return out;
}

function sameResource(a: string, b: string): boolean {
  return a.split("#")[0] === b.split("#")[0];
}

/**
 * The default {@linkcode SchemaValidator}, backed by Hyperjump.
 *
 * - no `$schema` means 2020-12; 2020-12 and draft-07 (with or without `#`) are
 *   validated with their own semantics (the Go original validated draft-07 as
 *   2020-12); a `$schema` naming a trusted meta-schema built on one of them is
 *   honoured; anything else is {@linkcode UnsupportedSchemaError};
 * - a `$ref` leaving the document is {@linkcode ExternalRefError}: retrieval is
 *   blocked inside Hyperjump, not only by Deno permissions;
 * - each distinct schema is compiled once (failures cached too);
 * - `format` is an annotation unless `formatAssertion` is set for this validator.
 *
 * @example Seed 004's Example_noParametersTool
 * ```ts
 * import { DefaultValidator, type Tool } from "@toolfoundation/core/model";
 *
 * const tool: Tool = {
 *   name: "get_time",
 *   description: "Get the current time",
 *   inputSchema: { type: "object", additionalProperties: false },
 * };
 * const validator = new DefaultValidator();
 * const ok = await validator.validateInput(tool, {}).then(() => true, () => false);
 * console.log(`Empty object: valid=${ok}`); // Empty object: valid=true
 * const rejected = await validator.validateInput(tool, { unexpected: "value" }).then(() => false, () => true);
 * console.log(`Extra properties: rejected=${rejected}`); // Extra properties: rejected=true
 * ```
 *
 * @example A compiled checker for hot paths
 * ```ts
 * import { DefaultValidator } from "@toolfoundation/core/model";
 *
 * const schema = { type: "object", properties: { age: { type: "integer", minimum: 0 } } };
 * const compiled = await new DefaultValidator().compile(schema);
 * const result = compiled.check({ age: -1 });
 * if (!result.valid) console.log(result.failures[0].message); // must be >= 0
 * ```
 */
export class DefaultValidator implements SchemaValidator {
  readonly #trusted: TrustedDocument[];
  readonly #trustedByUri: Map<string, unknown>;
  readonly #formatAssertion: boolean;
  readonly #maxDepth: number;
  readonly #cacheSize: number;
  readonly #cache = new Map<string, Promise<CompiledSchema>>();

  /**
   * Creates the instance.
   *
   * @param options Trusted documents, format assertion, depth limit, cache size.
   */
  constructor(options: DefaultValidatorOptions = {}) {
    this.#formatAssertion = options.formatAssertion ?? false;
    this.#maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
    this.#cacheSize = options.cacheSize ?? 1000;
    this.#trustedByUri = new Map();
    this.#trusted = [];
    for (const uri of Object.keys(options.schemas ?? {}).sort()) {
      const schema = structuredClone(options.schemas![uri]);
      const key = normalizeDialect(uri);
      if (typeof schema !== "boolean" && !isPlainObject(schema)) {
        throw new InvalidSchemaError(`trusted document ${uri} is not a schema object`);
      }
      this.#trustedByUri.set(key, schema);
      if (isPlainObject(schema) && typeof schema.$id === "string") {
        try {
          this.#trustedByUri.set(normalizeDialect(new URL(schema.$id, uri).href), schema);
        } catch { /* a non-URL $id: only the key identifies the document */ }
      }
    }
    const seen = new Set<unknown>();
    for (const [uri, schema] of this.#trustedByUri) {
      if (seen.has(schema)) continue;
      seen.add(schema);
      this.#trusted.push({ uri, schema });
    }
  }

  /**
   * Compiles a schema once (cached by dialect and canonical JSON, failures too).
   *
   * @example
   * ```ts
   * import { DefaultValidator } from "@toolfoundation/core/model";
   *
   * const compiled = await new DefaultValidator().compile('{"type": "string"}');
   * console.log(compiled.check("hello").valid, compiled.dialect);
   * // true https://json-schema.org/draft/2020-12/schema
   * ```
   *
   * @param schema The schema.
   * @returns The compiled schema.
   * @throws {InvalidSchemaError} Not a JSON Schema, or fails its meta-schema.
   * @throws {UnsupportedSchemaError} An unsupported `$schema`.
   * @throws {ExternalRefError} A `$ref` leaves the document.
   */
  compile(schema: SchemaInput): Promise<CompiledSchema> {
    let parsed: JsonSchema;
    try {
      parsed = parseSchema(schema);
    } catch (error) {
      return Promise.reject(error);
    }
    const key = canonicalJson(parsed);
    let found = this.#cache.get(key);
    if (found !== undefined) {
      this.#cache.delete(key);
      this.#cache.set(key, found);
      return found;
    }
    found = this.#compile(structuredClone(parsed));
    found.catch(() => undefined);
    this.#cache.set(key, found);
    if (this.#cache.size > this.#cacheSize) {
      this.#cache.delete(this.#cache.keys().next().value!);
    }
    return found;
  }

  /**
   * Validates an instance against a schema.
   *
   * @example Seed 004's Example_validateSchema
   * ```ts
   * import { DefaultValidator } from "@toolfoundation/core/model";
   *
   * const schema = {
   *   type: "object",
   *   properties: { name: { type: "string" }, age: { type: "integer", minimum: 0 } },
   *   required: ["name"],
   * };
   * const v = new DefaultValidator();
   * const ok = (value: unknown) => v.validate(schema, value).then(() => true, () => false);
   * console.log(`Valid: ${await ok({ name: "Alice", age: 30 })}`); // Valid: true
   * console.log(`Invalid type: ${!(await ok({ name: 123 }))}`); // Invalid type: true
   * console.log(`Missing required: ${!(await ok({ age: 25 }))}`); // Missing required: true
   * ```
   *
   * @param schema The schema.
   * @param instance The value.
   * @throws {SchemaValidationError} When the value does not match.
   */
  async validate(schema: SchemaInput, instance: unknown): Promise<void> {
    (await this.compile(schema)).assert(instance);
  }

  /**
   * Validates tool arguments against `tool.inputSchema`.
   *
   * @example Seed 004's Example_validateInput
   * ```ts
   * import { DefaultValidator, type Tool } from "@toolfoundation/core/model";
   *
   * const tool: Tool = {
   *   name: "send_email",
   *   description: "Send an email",
   *   inputSchema: {
   *     type: "object",
   *     properties: { to: { type: "string" }, subject: { type: "string" }, body: { type: "string" } },
   *     required: ["to", "subject"],
   *   },
   * };
   * const v = new DefaultValidator();
   * const error = await v.validateInput(tool, { to: "user@example.com", subject: "Hello", body: "Hi there!" })
   *   .then(() => null, (e) => e);
   * console.log(`Valid input: error=${error ?? "<nil>"}`); // Valid input: error=<nil>
   * const invalid = await v.validateInput(tool, { body: "Hi there!" }).then(() => false, () => true);
   * console.log(`Invalid input: error=${invalid}`); // Invalid input: error=true
   * ```
   *
   * @param tool The tool.
   * @param args The arguments.
   * @throws {InvalidSchemaError} When the tool or its input schema is missing.
   * @throws {SchemaValidationError} When the arguments do not match.
   */
  async validateInput(tool: Tool | null | undefined, args: unknown): Promise<void> {
    if (tool === null || tool === undefined) throw new InvalidSchemaError("no tool given");
    if (tool.inputSchema === null || tool.inputSchema === undefined) {
      throw new InvalidSchemaError(`tool ${JSON.stringify(toolId(tool))} has no inputSchema`);
    }
    (await this.compile(tool.inputSchema)).assert(
      args,
      `input of tool ${JSON.stringify(toolId(tool))}`,
    );
  }

  /**
   * Validates a tool's structured result against `tool.outputSchema`;
   * resolves at once when the tool has none.
   *
   * @example
   * ```ts
   * import { DefaultValidator } from "@toolfoundation/core/model";
   *
   * const tool = { name: "t", inputSchema: { type: "object" as const } };
   * await new DefaultValidator().validateOutput(tool, "anything"); // no outputSchema: passes
   * ```
   *
   * @param tool The tool.
   * @param result The structured result.
   * @throws {InvalidSchemaError} When the tool is missing.
   * @throws {SchemaValidationError} When the result does not match.
   */
  async validateOutput(tool: Tool | null | undefined, result: unknown): Promise<void> {
    if (tool === null || tool === undefined) throw new InvalidSchemaError("no tool given");
    if (tool.outputSchema === null || tool.outputSchema === undefined) return;
    (await this.compile(tool.outputSchema)).assert(
      result,
      `output of tool ${JSON.stringify(toolId(tool))}`,
    );
  }

  #dialectOf(schema: JsonSchema): string {
    if (typeof schema === "boolean" || schema.$schema === undefined) return SCHEMA_DIALECT_2020_12;
    if (typeof schema.$schema !== "string") {
      throw new InvalidSchemaError("`$schema` must be a string (a dialect URI)");
    }
    const dialect = normalizeDialect(schema.$schema);
    if (BUILTIN_DIALECTS.has(dialect)) return dialect;
    const meta = this.#trustedByUri.get(dialect);
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
      ...this.#trusted.filter((d) => isMetaSchema(d.schema)).map((d) => d.uri),
    ];
    throw new UnsupportedSchemaError(schema.$schema, supported);
  }

  /** The trusted documents, the dialect's meta-schema marked when it declares no vocabulary. */
  #trustedFor(dialect: string): TrustedDocument[] {
    if (BUILTIN_DIALECTS.has(dialect)) return this.#trusted;
    return this.#trusted.map((doc) => {
      if (normalizeDialect(doc.uri) !== dialect && this.#trustedByUri.get(dialect) !== doc.schema) {
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

  async #compile(schema: JsonSchema): Promise<CompiledSchema> {
    const dialect = this.#dialectOf(schema);
    let interpreter: Interpreter;
    try {
      interpreter = await compileSchema(schema, this.#trustedFor(dialect));
    } catch (error) {
      throw await this.#compileError(error, schema, dialect);
    }
    const lookup = (base: string): unknown => {
      if (base === ROOT_URI) return schema;
      if (isPlainObject(schema) && typeof schema.$id === "string") {
        try {
          if (new URL(schema.$id, ROOT_URI).href.split("#")[0] === base) return schema;
        } catch { /* not a URL */ }
      }
      return this.#trustedByUri.get(base);
    };
    const formatAssertion = this.#formatAssertion;
    const maxDepth = this.#maxDepth;
    const check = (instance: unknown): CheckResult => {
      const bad = checkInstance(instance, maxDepth);
      if (bad !== undefined) {
        if (bad.depth) throw new InstanceDepthError(maxDepth, bad.location);
        return { valid: false, failures: [bad.failure!] };
      }
      if (interpret(interpreter, instance, "FLAG", formatAssertion).valid) return { valid: true };
      const output = interpret(interpreter, instance, "DETAILED", formatAssertion);
      const failures = toFailures(
        output.valid ? [] : output.errors ?? [],
        instance,
        lookup,
        ROOT_URI,
      );
      return { valid: false, failures };
    };
    return {
      dialect,
      check,
      assert(instance: unknown, subject?: string): void {
        const result = check(instance);
        if (!result.valid) {
          throw new SchemaValidationError(result.failures, { subject, instance });
        }
      },
    };
  }

  async #compileError(
    error: unknown,
    schema: JsonSchema,
    dialect: string,
  ): Promise<ToolFoundationError> {
    const err = error as { name?: string; message?: string; cause?: unknown; output?: unknown };
    if (err?.name === "RetrievalError") {
      const uri = err.cause instanceof BlockedRetrieval
        ? err.cause.uri
        : /resource '([^']*)'/.exec(err.message ?? "")?.[1] ?? "";
      const base = isPlainObject(schema) && typeof schema.$id === "string" ? schema.$id : "";
      const ref = collectRefs(schema, []).find((r) => {
        try {
          return sameResource(new URL(r, new URL(base, ROOT_URI)).href, uri);
        } catch {
          return sameResource(r, uri);
        }
      }) ?? uri;
      return new ExternalRefError(ref, uri, { cause: error });
    }
    if (err?.name === "InvalidSchemaError" && err.output !== undefined) {
      let detail = "it does not match its meta-schema";
      if (BUILTIN_DIALECTS.has(dialect)) {
        const meta = await metaValidator(dialect);
        const output = interpret(meta, schema, "DETAILED", false);
        if (!output.valid) {
          const units = output.errors ?? [];
          const docs = await registeredDocuments(bases(units));
          const failures = toFailures(units, schema, (base) => docs.get(base), "");
          detail = failures.map((f) => `${f.instanceLocation || "/"}: ${f.message}`).join("; ");
        }
      }
      return new InvalidSchemaError(detail, { cause: error });
    }
    return new InvalidSchemaError(err?.message ?? String(error), { cause: error });
  }
}

function bases(units: readonly OutputUnit[], out = new Set<string>()): string[] {
  for (const unit of units) {
    out.add(unit.absoluteKeywordLocation.split("#")[0]);
    bases(unit.errors ?? [], out);
  }
  return [...out].sort();
}

function isMetaSchema(schema: unknown): boolean {
  return isPlainObject(schema) && schema.$vocabulary !== undefined;
}
