/**
 * Error classes of the model and validator. Each has a stable `code` that
 * callers can match on, and keeps the error that caused it in `cause`.
 *
 * @module
 */

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
 * import { parseToolId, ToolFoundationError } from "@toolfoundation/core/model";
 *
 * try {
 *   parseToolId("a:b:c");
 * } catch (error) {
 *   if (error instanceof ToolFoundationError) console.log(error.code); // invalid_tool_id
 * }
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

/** One problem found in a tool definition. */
export interface ToolIssue {
  /** JSON Pointer to the offending field, e.g. `/name` or `/inputSchema/type`. */
  path: string;
  /** What is wrong and how to fix it. */
  message: string;
}

/**
 * A tool definition breaks the rules of the seeds or the MCP spec. Every problem
 * found is listed in `issues`, not only the first.
 *
 * @example Listing every problem
 * ```ts
 * import { InvalidToolError, validateTool } from "@toolfoundation/core/model";
 *
 * try {
 *   validateTool({ name: "bad name!", inputSchema: { type: "object" }, version: "one" });
 * } catch (error) {
 *   if (error instanceof InvalidToolError) {
 *     for (const issue of error.issues) console.log(issue.path, issue.message);
 *   }
 * }
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
      "invalid_tool",
      `invalid tool: ${issues.map((i) => `${i.path || "/"}: ${i.message}`).join("; ")}`,
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
    super("invalid_tool_id", `invalid tool ID format ${JSON.stringify(id)}: ${reason}`);
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
    super("invalid_backend", `invalid backend: ${message}`);
  }
}

/** A schema is missing, not JSON, not a JSON Schema, or fails its meta-schema. */
export class InvalidSchemaError extends ToolFoundationError {
  /**
   * Creates the instance.
   *
   * @param message What is wrong.
   * @param options The cause, if any.
   */
  constructor(message: string, options?: ToolFoundationErrorOptions) {
    super("invalid_schema", `invalid JSON Schema: ${message}`, options);
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
      "unsupported_schema",
      `unsupported JSON Schema dialect ${JSON.stringify(dialect)}; supported: ${
        supported.join(", ")
      }`,
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
      "external_ref",
      `external $ref resolution is disabled: ${JSON.stringify(ref)}` +
        (ref === uri ? "" : ` (resolves to ${uri})`) +
        "; pass the document in memory with `new DefaultValidator({ schemas })`",
      options,
    );
    this.ref = ref;
    this.uri = uri;
  }
}

/** One reason an instance does not match a schema. */
export interface ValidationFailure {
  /** JSON Pointer into the instance, `""` for the root. */
  instanceLocation: string;
  /** JSON Pointer to the failing keyword inside the schema document that holds it. */
  keywordLocation: string;
  /** Absolute URI of the failing keyword, including the document it lives in. */
  absoluteKeywordLocation: string;
  /** The failing keyword, e.g. `required` or `minimum`. */
  keyword: string;
  /** A human message, e.g. `must have required property 'to'`. */
  message: string;
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
      "schema_validation",
      `${options?.subject ?? "value"} is invalid: ${formatFailures(failures)}`,
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
      "instance_too_deep",
      `value nests deeper than ${maxDepth} levels at ${
        instanceLocation || "/"
      }; flatten it or raise the validator's maxDepth`,
    );
    this.maxDepth = maxDepth;
    this.instanceLocation = instanceLocation;
  }
}

/**
 * Turns validation failures into one compact line, e.g.
 * `/to: must be string; /: must have required property 'subject'`.
 *
 * @example
 * ```ts
 * import { formatFailures } from "@toolfoundation/core/model";
 *
 * const text = formatFailures([{
 *   instanceLocation: "",
 *   keywordLocation: "/required",
 *   absoluteKeywordLocation: "#/required",
 *   keyword: "required",
 *   message: "must have required property 'to'",
 * }]);
 * console.log(text); // /: must have required property 'to'
 * ```
 *
 * @param failures The failures to format.
 * @returns One line, failures separated by `; `.
 */
export function formatFailures(failures: readonly ValidationFailure[]): string {
  return failures.map((f) => `${f.instanceLocation || "/"}: ${f.message}`).join("; ");
}
