// Every run error carries a code of RunErrorCode (one union); invalid_tool_id
// is the model's code, carried over.
import assert from "node:assert/strict";
import { localBackend, type ModelErrorCode } from "../../model/mod.ts";
import {
  ChainReferenceError,
  ExecutionError,
  InputValidationError,
  NoBackendError,
  OutputTooLargeError,
  OutputValidationError,
  PermissionDeniedError,
  RunCancelledError,
  RunError,
  type RunErrorCode,
  RunTimeoutError,
  ToolIdError,
  ToolNotFoundError,
  ToolResultError,
} from "../../run/mod.ts";
import { AuthError } from "../../run/auth/mod.ts";

// A Record over the union: a code missing here, or one not in the union, fails the type check.
const CODES: Record<RunErrorCode, true> = {
  tool_not_found: true,
  invalid_tool_id: true,
  no_backend: true,
  input_validation: true,
  execution: true,
  output_validation: true,
  tool_error: true,
  timeout: true,
  cancelled: true,
  permission_denied: true,
  output_too_large: true,
  auth_login_required: true,
  auth_failed: true,
  chain_reference: true,
};

Deno.test("every run error class is a RunError with a code of RunErrorCode, each code used", () => {
  const result = {
    tool: { name: "t", inputSchema: { type: "object" as const } },
    backend: localBackend("t"),
    structured: 1,
    durationMs: 1,
  };
  const errors: RunError[] = [
    new ToolNotFoundError("t"),
    new ToolIdError("a:b:c", "only one ':'"),
    new NoBackendError("t", "none"),
    new InputValidationError("t", {}, "bad"),
    new OutputValidationError(result, "bad"),
    new ExecutionError("boom"),
    new ToolResultError([]),
    new PermissionDeniedError("run"),
    new OutputTooLargeError(1),
    new RunTimeoutError(1),
    new RunCancelledError(),
    new AuthError("auth_login_required", "log in"),
    new AuthError("auth_failed", "refused"),
    new ChainReferenceError("args/a: nothing at /x"),
  ];
  for (const error of errors) {
    assert.ok(error instanceof RunError);
    assert.ok(Object.hasOwn(CODES, error.code), error.code);
  }
  assert.deepEqual(new Set(errors.map((e) => e.code)), new Set(Object.keys(CODES)));
});

Deno.test("invalid_tool_id of the run layer is the model's code, not a second definition", () => {
  const shared: Extract<RunErrorCode, ModelErrorCode> = "invalid_tool_id";
  assert.equal(new ToolIdError("a:b:c", "x").code, shared);
});
