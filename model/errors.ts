/**
 * Error classes of the model and validator. Each has a stable `code` that
 * callers can match on, and keeps the error that caused it in `cause`.
 *
 * @module
 */

import {
  externalRefMessage,
  instanceDepthMessage,
  invalidToolMessage,
  schemaValidationMessage,
  unsupportedPatternMessage,
  unsupportedSchemaMessage,
} from "./_error_text.ts";
import type { ToolIssue, ValidationFailure } from "./format_failures.ts";

// The records errors carry are declared with their text in format_failures.ts.
export type { ToolIssue, ValidationFailure };

/**
 * Every code an error of the model and validator can carry; each is defined
 * here once (the runner's `ToolIdError` reuses `invalid_tool_id`).
 */
export type ModelErrorCode =
  | "invalid_tool"
  | "invalid_tool_id"
  | "invalid_backend"
  | "invalid_schema"
  | "unsupported_pattern"
  | "unsupported_schema"
  | "external_ref"
  | "schema_validation"
  | "instance_too_deep"
  | "evaluation_too_deep";

/** Options accepted by every toolfoundation error. */
export interface ToolFoundationErrorOptions {
  /** The underlying error, kept so that no cause is lost. */
  cause?: unknown;
}

/**
 * Base class of every toolfoundation error.
 *
 * @example Matching on the code
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseToolId, ToolFoundationError } from "@toolfoundation/core/model";
 *
 * assert.throws(
 *   () => parseToolId("a:b:c"),
 *   (error) => error instanceof ToolFoundationError && error.code === "invalid_tool_id",
 * );
 * ```
 */
export class ToolFoundationError extends Error {
  /** Stable, machine-readable error code. */
  readonly code: string;

  /**
   * Creates the instance.
   *
   * @param code Stable error code.
   * @param message Human-readable message.
   * @param options The cause, if any.
   */
  constructor(code: string, message: string, options?: ToolFoundationErrorOptions) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.name = new.target.name;
  }
}

/**
 * A tool definition breaks the rules of the tool model or the MCP spec. Every problem
 * found is listed in `issues`, not only the first.
 *
 * @example Listing every problem
 * ```ts
 * import assert from "node:assert/strict";
 * import { InvalidToolError, validateTool } from "@toolfoundation/core/model";
 *
 * assert.throws(
 *   () => validateTool({ name: "bad name!", inputSchema: { type: "object" }, version: "one" }),
 *   (error) =>
 *     error instanceof InvalidToolError &&
 *     error.issues.map((issue) => issue.path).join(" ") === "/name /version",
 * );
 * ```
 */
export class InvalidToolError extends ToolFoundationError {
  /** Every problem found, in document order. */
  readonly issues: readonly ToolIssue[];

  /**
   * Creates the instance.
   *
   * @param issues The problems found (at least one).
   * @param options The cause, if any.
   */
  constructor(issues: readonly ToolIssue[], options?: ToolFoundationErrorOptions) {
    super(
      "invalid_tool" satisfies ModelErrorCode,
      invalidToolMessage(issues),
      options,
    );
    this.issues = issues;
  }
}

/** A tool ID string is malformed (empty part, more than one `:`, bad characters). */
export class InvalidToolIdError extends ToolFoundationError {
  /** The rejected ID. */
  readonly id: string;

  /**
   * Creates the instance.
   *
   * @param id The rejected ID.
   * @param reason Why it was rejected.
   */
  constructor(id: string, reason: string) {
    super(
      "invalid_tool_id" satisfies ModelErrorCode,
      `invalid tool ID format ${JSON.stringify(id)}: ${reason}`,
    );
    this.id = id;
  }
}

/** A backend binding is malformed or of an unknown kind. */
export class InvalidBackendError extends ToolFoundationError {
  /**
   * Creates the instance.
   *
   * @param message What is wrong.
   */
  constructor(message: string) {
    super("invalid_backend" satisfies ModelErrorCode, `invalid backend: ${message}`);
  }
}

/** Options of an {@linkcode InvalidSchemaError}. */
export interface InvalidSchemaErrorOptions extends ToolFoundationErrorOptions {
  /**
   * Where the problem is: a JSON Pointer into the schema (`/$defs/a/$ref`), or
   * an absolute URI with a pointer fragment when it is in another document.
   */
  keywordLocation?: string;
}

/** A schema is missing, not JSON, not a JSON Schema, or fails its meta-schema. */
export class InvalidSchemaError extends ToolFoundationError {
  /** Where the problem is, when it has one place (see {@linkcode InvalidSchemaErrorOptions}). */
  readonly keywordLocation?: string;

  /**
   * Creates the instance.
   *
   * @param message What is wrong.
   * @param options The cause and the location, if any.
   */
  constructor(message: string, options?: InvalidSchemaErrorOptions) {
    super("invalid_schema" satisfies ModelErrorCode, `invalid JSON Schema: ${message}`, options);
    if (options?.keywordLocation !== undefined) this.keywordLocation = options.keywordLocation;
  }
}

/** What is wrong with a schema's shape (see {@linkcode SchemaShapeError}). */
export type SchemaShapeProblem = "depth" | "cycle" | "size";

/**
 * A schema no validator can evaluate with a bound, found before compiling it:
 * it nests deeper than the limit (`depth`), its `$ref`s loop back to a schema
 * without applying to a smaller part of the value (`cycle`), or it is too
 * large or fans out too much (`size`; also raised while validating, when a
 * recursive schema's `$ref`s apply schemas to one location of the value more
 * than 100,000 times). `keywordLocation` locates it; code `invalid_schema`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkSchemaStructure, SchemaShapeError } from "@toolfoundation/core/model";
 *
 * assert.throws(
 *   () => checkSchemaStructure({ $defs: { a: { $ref: "#/$defs/a" } } }),
 *   (e) => e instanceof SchemaShapeError && e.problem === "cycle" && e.keywordLocation === "/$defs/a/$ref",
 * );
 * ```
 */
export class SchemaShapeError extends InvalidSchemaError {
  /** `depth`, `cycle` or `size`. */
  readonly problem: SchemaShapeProblem;
  /** The limit exceeded (for `depth` and `size`). */
  readonly limit?: number;
  /** Where: a JSON Pointer into the schema, or `uri#pointer` in a trusted document. */
  declare readonly keywordLocation: string;

  /**
   * Creates the instance.
   *
   * @param problem What is wrong.
   * @param keywordLocation Where.
   * @param message The explanation.
   * @param limit The limit exceeded, if any.
   */
  constructor(
    problem: SchemaShapeProblem,
    keywordLocation: string,
    message: string,
    limit?: number,
  ) {
    super(message, { keywordLocation });
    this.problem = problem;
    if (limit !== undefined) this.limit = limit;
  }
}

/**
 * A `pattern` or `patternProperties` regular expression that cannot run with
 * a bound: the linear-time engine (RE2) cannot express it with ECMA-262
 * meaning (a lookahead not at the start, a backreference, an `i`/`m`
 * modifier, a huge repetition) and its backtracking is not provably small.
 * The schema is refused rather than run with a backtracking engine on
 * untrusted input. Code `unsupported_pattern`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { DefaultValidator, UnsupportedPatternError } from "@toolfoundation/core/model";
 *
 * await assert.rejects(
 *   new DefaultValidator().compile({ type: "string", pattern: "^(\\w+)\\1$" }),
 *   (e) => e instanceof UnsupportedPatternError && e.keywordLocation === "/pattern",
 * );
 * ```
 */
export class UnsupportedPatternError extends InvalidSchemaError {
  /** Stable code. */
  override readonly code: string = "unsupported_pattern" satisfies ModelErrorCode;
  /** The pattern. */
  readonly pattern: string;
  /** Why it cannot run with a bound. */
  readonly reason: string;
  /** Where the pattern is: a JSON Pointer to the `pattern` keyword or `patternProperties` key. */
  declare readonly keywordLocation: string;

  /**
   * Creates the instance.
   *
   * @param pattern The pattern.
   * @param keywordLocation Where it is in the schema.
   * @param reason Why it cannot run with a bound.
   * @param options The cause, if any.
   */
  constructor(
    pattern: string,
    keywordLocation: string,
    reason: string,
    options?: ToolFoundationErrorOptions,
  ) {
    super(
      unsupportedPatternMessage(pattern, keywordLocation, reason),
      { ...options, keywordLocation },
    );
    this.pattern = pattern;
    this.reason = reason;
  }
}

/** The schema's `$schema` names a dialect that is not supported. */
export class UnsupportedSchemaError extends ToolFoundationError {
  /** The `$schema` value found. */
  readonly dialect: string;
  /** The dialects that are supported. */
  readonly supported: readonly string[];

  /**
   * Creates the instance.
   *
   * @param dialect The `$schema` value found.
   * @param supported The supported dialect URIs (including trusted meta-schemas).
   */
  constructor(dialect: string, supported: readonly string[]) {
    super(
      "unsupported_schema" satisfies ModelErrorCode,
      unsupportedSchemaMessage(dialect, supported),
    );
    this.dialect = dialect;
    this.supported = supported;
  }
}

/** A `$ref` leaves the schema document; nothing is ever fetched. */
export class ExternalRefError extends ToolFoundationError {
  /** The `$ref` as written in the schema (or the resolved URI when it cannot be traced). */
  readonly ref: string;
  /** The absolute URI the reference resolved to. */
  readonly uri: string;

  /**
   * Creates the instance.
   *
   * @param ref The reference as written.
   * @param uri The absolute URI it resolved to.
   * @param options The cause, if any.
   */
  constructor(ref: string, uri: string, options?: ToolFoundationErrorOptions) {
    super(
      "external_ref" satisfies ModelErrorCode,
      externalRefMessage(ref, uri),
      options,
    );
    this.ref = ref;
    this.uri = uri;
  }
}

/** Options of a {@linkcode SchemaValidationError}. */
export interface SchemaValidationErrorOptions extends ToolFoundationErrorOptions {
  /** What was validated, used as the message's prefix, e.g. `input of tool "x"`. */
  subject?: string;
  /** The value that failed validation (kept so that nothing is lost). */
  instance?: unknown;
}

/**
 * An instance does not match its schema. The failures are data; `message` is
 * one compact text an LLM can act on to repair its call.
 */
export class SchemaValidationError extends ToolFoundationError {
  /** Every failure, in a deterministic order. */
  readonly failures: readonly ValidationFailure[];
  /** The value that failed validation. */
  readonly instance: unknown;

  /**
   * Creates the instance.
   *
   * @param failures The failures (at least one).
   * @param options Subject, instance and cause.
   */
  constructor(failures: readonly ValidationFailure[], options?: SchemaValidationErrorOptions) {
    super(
      "schema_validation" satisfies ModelErrorCode,
      schemaValidationMessage(options?.subject, failures),
      options,
    );
    this.failures = failures;
    this.instance = options?.instance;
  }
}

/** The instance nests deeper than the validator's `maxDepth`. */
export class InstanceDepthError extends ToolFoundationError {
  /** The configured limit. */
  readonly maxDepth: number;
  /** JSON Pointer to the first value found beyond the limit. */
  readonly instanceLocation: string;

  /**
   * Creates the instance.
   *
   * @param maxDepth The configured limit.
   * @param instanceLocation Where the limit was exceeded.
   */
  constructor(maxDepth: number, instanceLocation: string) {
    super(
      "instance_too_deep" satisfies ModelErrorCode,
      instanceDepthMessage(maxDepth, instanceLocation),
    );
    this.maxDepth = maxDepth;
    this.instanceLocation = instanceLocation;
  }
}

/**
 * Evaluating a schema against a value went deeper than the call stack allows
 * (a schema whose in-place chains are long, applied at every level of a deep
 * value). Raised instead of a raw `RangeError`; lower the validator's
 * `maxDepth` or flatten the schema. Code `evaluation_too_deep`.
 */
export class EvaluationDepthError extends ToolFoundationError {
  /**
   * Creates the instance.
   *
   * @param what What overflowed (`compiling the schema`, `validating the value`).
   * @param options The cause (the `RangeError`).
   */
  constructor(what: string, options?: ToolFoundationErrorOptions) {
    super(
      "evaluation_too_deep" satisfies ModelErrorCode,
      `${what} exceeded the call stack; the schema and value nest too deeply together`,
      options,
    );
  }
}
