/**
 * The default `SchemaValidator`, backed by Hyperjump: 2020-12 (the default) and
 * draft-07 each with their own semantics, no remote retrieval ever, failures as
 * data with human messages.
 *
 * @module
 */

import { InvalidSchemaError } from "./errors.ts";
import { analyzeSchemaStructure, DEFAULT_MAX_SCHEMA_DEPTH } from "./schema_structure.ts";
import { type JsonSchema, SCHEMA_DIALECT_DRAFT_07, type Tool } from "./tool.ts";
import { toolId } from "./tool_id.ts";
import type { CompiledSchema, SchemaInput, SchemaValidator } from "./schema_validator.ts";
import type { Interpreter } from "./_hyperjump.ts";
import { BUILTIN_DIALECTS, DEFAULT_MAX_DEPTH, normalizeDialect } from "./_dialect.ts";
import { canonicalJson, parseSchema } from "./_json.ts";
import { TrustedDocuments } from "./_trusted_documents.ts";
import { compiledSchema } from "./_compiled_schema.ts";
import { fastDialect, type FastPlan, planFastPath } from "./_fast/mod.ts";
import { passesMetaSchema } from "./_meta_check.ts";
import { loadRegexEngine } from "./_regex.ts";
import { frozenJson } from "./_frozen_json.ts";

/** Options of a {@linkcode DefaultValidator}. */
export interface DefaultValidatorOptions {
  /**
   * Trusted schema documents supplied in memory, keyed by absolute URI. A
   * `$ref` (or a `$schema`) naming one of them resolves without retrieval.
   */
  schemas?: Readonly<Record<string, JsonSchema>>;
  /**
   * Assert `format` for this validator only (default `false`: `format` is an
   * annotation, as JSON Schema 2020-12 defines it).
   */
  formatAssertion?: boolean;
  /** Deepest instance nesting accepted (default 256); deeper values are refused, not overflowed. */
  maxDepth?: number;
  /** Most compiled schemas kept (default 1000; least recently used evicted first). */
  cacheSize?: number;
  /**
   * Deepest schema nesting accepted (default {@linkcode DEFAULT_MAX_SCHEMA_DEPTH}):
   * subschema levels, and the longest chain of schemas applied to one value.
   * See `checkSchemaStructure`, which every schema passes before it is compiled.
   */
  maxSchemaDepth?: number;
  /**
   * Answer valid/invalid with plain JavaScript checks compiled from the schema
   * when it uses only keywords they answer exactly as Hyperjump does (default
   * `true`), with the failures Hyperjump's detailed output would give, built
   * the same way; `false` sends every check to Hyperjump. Either way the
   * failures and messages are the same: with the fast path they are written
   * with an invalid answer (one pass of generated code, made at the schema's
   * first refusal), where Hyperjump gives them they are computed when read.
   */
  fastPath?: boolean;
}

export { DEFAULT_MAX_DEPTH };

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
 * - `format` is an annotation unless `formatAssertion` is set for this validator;
 * - valid/invalid is answered by code generated from the schema when it uses
 *   only keywords that code answers exactly as Hyperjump does (`fastPath`);
 *   any other schema is answered by Hyperjump whole. The failures (and
 *   messages) are those of Hyperjump's detailed output, rebuilt by the fast
 *   path where it can do so exactly: there they are written with an invalid
 *   answer (as ajv with `allErrors` writes its errors), by code generated
 *   per schema at its first refusal; where Hyperjump gives them, they are
 *   computed when `failures` (or an error's `message`/`failures`) is first
 *   read, not when the value is checked;
 * - Hyperjump (and re2js) load only when a schema needs them: a schema the
 *   fast path answers alone, that certainly passes its meta-schema, is
 *   compiled without them.
 *
 * @example A tool without parameters accepts `{}` and refuses anything more
 * ```ts
 * import assert from "node:assert/strict";
 * import { DefaultValidator, type Tool } from "@toolfoundation/core/model";
 *
 * const tool: Tool = {
 *   name: "get_time",
 *   description: "Get the current time",
 *   inputSchema: { type: "object", additionalProperties: false },
 * };
 * const validator = new DefaultValidator();
 * const ok = await validator.validateInput(tool, {}).then(() => true, () => false);
 * assert.equal(ok, true);
 * const rejected = await validator.validateInput(tool, { unexpected: "value" }).then(() => false, () => true);
 * assert.equal(rejected, true);
 * ```
 *
 * @example A compiled checker for hot paths
 * ```ts
 * import assert from "node:assert/strict";
 * import { DefaultValidator } from "@toolfoundation/core/model";
 *
 * const schema = { type: "object", properties: { age: { type: "integer", minimum: 0 } } };
 * const compiled = await new DefaultValidator().compile(schema);
 * const result = compiled.check({ age: -1 });
 * assert.equal(result.valid, false);
 * if (!result.valid) assert.equal(result.failures[0].message, "must be >= 0");
 * ```
 */
export class DefaultValidator implements SchemaValidator {
  readonly #trusted: TrustedDocuments;
  readonly #formatAssertion: boolean;
  readonly #fastPath: boolean;
  readonly #maxDepth: number;
  readonly #cacheSize: number;
  readonly #maxSchemaDepth: number;
  readonly #cache = new Map<string, Promise<CompiledSchema>>();
  /** A schema object's compiled schema, and its JSON text when it could still change. */
  readonly #byObject = new WeakMap<
    object,
    { text: string | undefined; compiled: Promise<CompiledSchema> }
  >();

  /**
   * Creates the instance.
   *
   * @param options Trusted documents, format assertion, depth limit, cache size.
   */
  constructor(options: DefaultValidatorOptions = {}) {
    this.#formatAssertion = options.formatAssertion ?? false;
    this.#maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
    this.#cacheSize = options.cacheSize ?? 1000;
    this.#maxSchemaDepth = options.maxSchemaDepth ?? DEFAULT_MAX_SCHEMA_DEPTH;
    this.#fastPath = options.fastPath ?? true;
    this.#trusted = new TrustedDocuments(options.schemas);
  }

  /**
   * Compiles a schema once (cached by dialect and canonical JSON, failures too).
   * The fast path's code is generated on the first check, not here.
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import { DefaultValidator } from "@toolfoundation/core/model";
   *
   * const compiled = await new DefaultValidator().compile('{"type": "string"}');
   * assert.equal(compiled.check("hello").valid, true);
   * assert.equal(compiled.dialect, "https://json-schema.org/draft/2020-12/schema");
   * ```
   *
   * @param schema The schema.
   * @returns The compiled schema.
   * @throws {InvalidSchemaError} Not a JSON Schema, or fails its meta-schema.
   * @throws {UnsupportedSchemaError} An unsupported `$schema`.
   * @throws {ExternalRefError} A `$ref` leaves the document.
   * @throws {SchemaShapeError} Nesting beyond `maxSchemaDepth`, or a `$ref` cycle without progress.
   * @throws {UnsupportedPatternError} A regular expression that cannot run in bounded time.
   */
  compile(schema: SchemaInput): Promise<CompiledSchema> {
    // Fast path for a schema object seen before: its JSON text must not have
    // changed (a deep-frozen one cannot, e.g. a registered tool's: no re-check).
    const seen = typeof schema === "object" ? this.#byObject.get(schema) : undefined;
    if (
      seen !== undefined && (seen.text === undefined || seen.text === JSON.stringify(schema))
    ) return seen.compiled;
    let parsed: JsonSchema;
    let fansOut: boolean;
    try {
      parsed = parseSchema(schema);
      ({ fansOut } = analyzeSchemaStructure(parsed, {
        maxDepth: this.#maxSchemaDepth,
        documents: Object.fromEntries(this.#trusted.byUri) as Record<string, JsonSchema>,
        draft07: typeof parsed === "object" && typeof parsed.$schema === "string" &&
          normalizeDialect(parsed.$schema) === normalizeDialect(SCHEMA_DIALECT_DRAFT_07),
      }));
    } catch (error) {
      return Promise.reject(error);
    }
    const key = canonicalJson(parsed);
    let found = this.#cache.get(key);
    if (found !== undefined) {
      this.#cache.delete(key);
      this.#cache.set(key, found);
    } else {
      found = this.#compile(structuredClone(parsed), fansOut, key.includes('"pattern'));
      found.catch(() => undefined);
      this.#cache.set(key, found);
      if (this.#cache.size > this.#cacheSize) {
        this.#cache.delete(this.#cache.keys().next().value!);
      }
    }
    if (typeof schema === "object" && !(schema instanceof Uint8Array)) {
      this.#byObject.set(schema, {
        text: frozenJson(schema) ? undefined : JSON.stringify(schema),
        compiled: found,
      });
    }
    return found;
  }

  /**
   * Validates an instance against a schema.
   *
   * @example Validating a value against a schema
   * ```ts
   * import assert from "node:assert/strict";
   * import { DefaultValidator } from "@toolfoundation/core/model";
   *
   * const schema = {
   *   type: "object",
   *   properties: { name: { type: "string" }, age: { type: "integer", minimum: 0 } },
   *   required: ["name"],
   * };
   * const v = new DefaultValidator();
   * const ok = (value: unknown) => v.validate(schema, value).then(() => true, () => false);
   * assert.equal(await ok({ name: "Alice", age: 30 }), true);
   * assert.equal(await ok({ name: 123 }), false); // wrong type
   * assert.equal(await ok({ age: 25 }), false); // missing required
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
   * @example Validating a tool's arguments
   * ```ts
   * import assert from "node:assert/strict";
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
   * assert.equal(error, null);
   * const invalid = await v.validateInput(tool, { body: "Hi there!" }).then(() => false, () => true);
   * assert.equal(invalid, true);
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

  async #compile(
    schema: JsonSchema,
    fansOut: boolean,
    mayHavePatterns: boolean,
  ): Promise<CompiledSchema> {
    const dialect = this.#trusted.dialectOf(schema);
    const formatAssertion = this.#formatAssertion;
    const common = {
      schema,
      dialect,
      trusted: this.#trusted.byUri,
      formatAssertion,
      maxDepth: this.#maxDepth,
    };
    // Compiling a pattern needs re2js, which loads on first need.
    if (mayHavePatterns) await loadRegexEngine();
    const plan = this.#fastPath ? this.#earlyPlan(schema, dialect, fansOut) : undefined;
    if (plan?.standalone === true) {
      // The fast path answers every value and writes every failure: Hyperjump
      // is neither loaded nor compiled for this schema.
      return compiledSchema({ ...common, evaluate: undefined, plan, planFast: undefined });
    }
    // Hyperjump's meta-schemas hold patterns: the engine must be there.
    await loadRegexEngine();
    const hyperjump = await import("./_hyperjump.ts");
    let interpreter: Interpreter;
    try {
      interpreter = await hyperjump.compileSchema(schema, this.#trusted.for(dialect));
    } catch (error) {
      const { compileError } = await import("./_compile_error.ts");
      throw await compileError(error, schema, dialect);
    }
    // A plan made above is reused (Hyperjump has now validated the schema);
    // otherwise the fast path is planned on the first check.
    const planFast = this.#fastPath && plan === undefined
      ? () => planFastPath(schema, { dialect, formatAssertion, fansOut, maxDepth: this.#maxDepth })
      : undefined;
    return compiledSchema({
      ...common,
      evaluate: (instance, format) =>
        hyperjump.interpret(interpreter, instance, format, formatAssertion, fansOut),
      planFast,
      ...(plan === undefined ? {} : { plan }),
    });
  }

  /**
   * The fast path's plan, made at compile time when the schema may be
   * answered without Hyperjump: a built-in dialect, no `$id`, and a schema
   * that certainly passes its meta-schema. The caller uses it alone when it
   * is `standalone` (it never defers to Hyperjump and writes the failures
   * itself), else beside Hyperjump. Undefined (or a plan with a `reason`)
   * otherwise.
   */
  #earlyPlan(schema: JsonSchema, dialect: string, fansOut: boolean): FastPlan | undefined {
    const fast = fastDialect(dialect);
    if (fast === undefined || !BUILTIN_DIALECTS.has(dialect)) return undefined;
    // A `$id` changes how Hyperjump registers the schema (and it refuses some
    // schemes): such a schema is Hyperjump's to compile.
    if (typeof schema === "object" && schema.$id !== undefined) return undefined;
    if (!passesMetaSchema(schema, fast)) return undefined;
    return planFastPath(schema, {
      dialect,
      formatAssertion: this.#formatAssertion,
      fansOut,
      maxDepth: this.#maxDepth,
    });
  }
}
