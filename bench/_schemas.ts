// Three sample tool schemas (an email sender, a calculator, an API request), with
// a valid and an invalid instance each, shared by the benchmarks.

/** A schema with one valid and one invalid instance. */
export interface BenchCase {
  name: string;
  schema: Record<string, unknown>;
  valid: unknown;
  invalid: unknown;
}

/** The sample schemas. */
export const CASES: readonly BenchCase[] = [
  {
    name: "email",
    schema: {
      type: "object",
      properties: {
        to: { type: "array", items: { type: "string", format: "email" }, minItems: 1 },
        subject: { type: "string", minLength: 1, maxLength: 200 },
        body: { type: "string" },
        cc: { type: "array", items: { type: "string", format: "email" } },
        attachments: { type: "array", items: { type: "string" } },
      },
      required: ["to", "subject", "body"],
    },
    valid: { to: ["a@example.com"], subject: "Hello", body: "Hi there!", cc: ["b@example.com"] },
    invalid: { to: [], subject: "", body: 5 },
  },
  {
    name: "calculator",
    schema: {
      type: "object",
      properties: {
        operation: { type: "string", enum: ["add", "subtract", "multiply", "divide"] },
        a: { type: "number" },
        b: { type: "number" },
      },
      required: ["operation", "a", "b"],
    },
    valid: { operation: "add", a: 1, b: 2 },
    invalid: { operation: "pow", a: "1" },
  },
  {
    name: "api-request",
    schema: {
      type: "object",
      properties: {
        method: { type: "string", enum: ["GET", "POST", "PUT", "DELETE", "PATCH"] },
        url: { type: "string", format: "uri" },
        headers: { type: "object", additionalProperties: { type: "string" } },
        body: { type: "string" },
        timeout: { type: "integer", minimum: 1, maximum: 300, default: 30 },
      },
      required: ["method", "url"],
    },
    valid: {
      method: "POST",
      url: "https://example.com/api",
      headers: { "content-type": "application/json" },
      body: "{}",
      timeout: 30,
    },
    invalid: { method: "FETCH", url: 1, headers: { a: 1 }, timeout: 0 },
  },
];

/** A distinct, typical tool input schema for index `i`. */
export function distinctSchema(i: number): Record<string, unknown> {
  return {
    type: "object",
    properties: {
      [`query_${i}`]: { type: "string", minLength: 1, description: `query ${i}` },
      limit: { type: "integer", minimum: 0, maximum: 100 + i },
      mode: { enum: ["fast", "safe", `m${i % 13}`] },
      tags: { type: "array", items: { type: "string" } },
    },
    required: [`query_${i}`],
    additionalProperties: false,
  };
}
