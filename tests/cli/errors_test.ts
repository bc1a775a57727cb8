// Every error of the CLI layer carries a code of CliErrorCode (one union).
import assert from "node:assert/strict";
import type { CliErrorCode } from "../../workspace/mod.ts";
import {
  ManifestError,
  MissingPermissionError,
  MissingSecretError,
  SandboxDeniedError,
  ServerUnavailableError,
  ToolChangedError,
  UnserializableResultError,
  UsageError,
} from "../../workspace/errors.ts";

// A Record over the union: a code missing here, or one not in the union, fails the type check.
const CODES: Record<CliErrorCode, true> = {
  invalid_manifest: true,
  missing_secret: true,
  unserializable_result: true,
  usage: true,
  missing_permission: true,
  permission_denied: true,
  server_unavailable: true,
  tool_changed: true,
};

Deno.test("every CLI error class carries a code of CliErrorCode, each code used by one class", () => {
  const errors = [
    new ManifestError([{ file: "m.yaml", line: 1, column: 1, path: "", message: "x" }]),
    new MissingSecretError("TOKEN"),
    new UnserializableResultError("a BigInt", "/n"),
    new UsageError("bad"),
    new MissingPermissionError([{ name: "read", value: "m.yaml", reason: "the manifest" }], {
      missing: ["--allow-read=m.yaml"],
      all: ["--allow-read=m.yaml"],
    }),
    new SandboxDeniedError("read /etc", { toolId: "t" }),
    new ServerUnavailableError("s", new Error("gone")),
    new ToolChangedError([{ server: "s", tool: "t", changes: ["description: a -> b"] }], "m.yaml"),
  ];
  const codes = errors.map((e) => e.code);
  for (const code of codes) assert.ok(Object.hasOwn(CODES, code), code);
  assert.deepEqual(new Set(codes), new Set(Object.keys(CODES)));
});

Deno.test("a missing permission lists each missing flag with its reasons and every flag needed", () => {
  const error = new MissingPermissionError(
    [{ name: "read", value: "m.yaml", reason: "the manifest" }],
    { missing: ["--allow-read=m.yaml"], all: ["--allow-read=m.yaml", "--allow-net=x:1"] },
  );
  assert.equal(
    error.message,
    "missing permission; nothing was run. Add:\n  --allow-read=m.yaml  (the manifest)\n" +
      "All the flags this needs: --allow-read=m.yaml --allow-net=x:1",
  );
  assert.deepEqual(error.flags, ["--allow-read=m.yaml", "--allow-net=x:1"]);
});

Deno.test("permissionRefusal: NotCapable, and a module Deno refused to load; nothing else", async () => {
  const { permissionRefusal } = await import("../../cli/_io.ts");
  const notCapable = new Deno.errors.NotCapable('Requires env access to "X"');
  assert.equal(permissionRefusal(notCapable), 'Requires env access to "X"');
  const refused = Object.assign(
    new TypeError(
      'Requires read access to "/x/cli/commands/run.ts", run again with the --allow-read flag',
    ),
    { code: "ERR_MODULE_NOT_FOUND" },
  );
  assert.match(
    permissionRefusal(refused)!,
    /^Requires read access to .*grant read access to its source\)$/,
  );
  const missing = Object.assign(new TypeError("Module not found: file:///x/y.ts"), {
    code: "ERR_MODULE_NOT_FOUND",
  });
  assert.equal(permissionRefusal(missing), undefined);
  assert.equal(permissionRefusal(new Error('Requires read access to "/x"')), undefined);
  assert.equal(permissionRefusal(undefined), undefined);
});
