// Every model error carries a code of ModelErrorCode (one union).
import assert from "node:assert/strict";
import {
  EvaluationDepthError,
  ExternalRefError,
  InstanceDepthError,
  InvalidBackendError,
  InvalidSchemaError,
  InvalidToolError,
  InvalidToolIdError,
  type ModelErrorCode,
  SchemaShapeError,
  SchemaValidationError,
  UnsupportedPatternError,
  UnsupportedSchemaError,
} from "../../model/mod.ts";

// A Record over the union: a code missing here, or one not in the union, fails the type check.
const CODES: Record<ModelErrorCode, true> = {
  invalid_tool: true,
  invalid_tool_id: true,
  invalid_backend: true,
  invalid_schema: true,
  unsupported_pattern: true,
  unsupported_schema: true,
  external_ref: true,
  schema_validation: true,
  instance_too_deep: true,
  evaluation_too_deep: true,
};

Deno.test("every model error class carries a code of ModelErrorCode, each code used", () => {
  const errors = [
    new InvalidToolError([{ path: "/name", message: "x" }]),
    new InvalidToolIdError("a:b:c", "x"),
    new InvalidBackendError("x"),
    new InvalidSchemaError("x"),
    new SchemaShapeError("cycle", "/$ref", "x"),
    new UnsupportedPatternError("(a)\\1", "/pattern", "backreference"),
    new UnsupportedSchemaError("x", []),
    new ExternalRefError("https://x", "https://x"),
    new SchemaValidationError([]),
    new InstanceDepthError(1, "/a"),
    new EvaluationDepthError("validating the value"),
  ];
  for (const error of errors) assert.ok(Object.hasOwn(CODES, error.code), error.code);
  assert.deepEqual(new Set(errors.map((e) => e.code)), new Set(Object.keys(CODES)));
});
