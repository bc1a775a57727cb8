/**
 * The validator contract every validator of this package fulfils:
 * `SchemaValidator`, and the compiled schema returned for hot paths.
 *
 * @module
 */

import type { ValidationFailure } from "./errors.ts";
import type { JsonSchema, Tool } from "./tool.ts";

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
   * @param instance The value to check: a JSON value (finite numbers,
   * strings, booleans, null, arrays, plain objects, whose members are their own
   * string-keyed properties, enumerable or not). Anything else (`NaN`,
   * `undefined`, a function, a class instance, ...) is invalid with one
   * failure, "must be a JSON value, found ...", at its location.
   * @returns `{ valid: true }` or the failures. Every valid answer is the same
   * frozen `{ valid: true }` object (nothing is allocated for a valid value):
   * read it, do not modify it.
   * @throws {InstanceDepthError} When the value nests deeper than `maxDepth`.
   * @throws {EvaluationDepthError} When schema and value together exceed the call stack.
   */
  check(instance: unknown): CheckResult;
  /**
   * Checks an instance and throws when it does not match.
   *
   * @param instance The value to check.
   * @param subject What is checked, for the error message (e.g. `input of tool "x"`).
   * @throws {SchemaValidationError} With the failures and the instance.
   * @throws {InstanceDepthError} When the value nests deeper than `maxDepth`.
   * @throws {EvaluationDepthError} When schema and value together exceed the call stack.
   */
  assert(instance: unknown, subject?: string): void;
}

/** Validates JSON instances against JSON Schemas: the contract the runner and the CLI rely on. */
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
   * `InvalidSchemaError` when the tool or its input schema is missing.
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
