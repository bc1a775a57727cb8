// Values JSON cannot hold (BigInt, cycles) are a clear tool error, never a crash.
import assert from "node:assert/strict";
import { jsonText } from "../../cli/_io.ts";
import { UnserializableResultError } from "../../workspace/errors.ts";
import { Redactor } from "../../workspace/mod.ts";
import { cli, flagsFor, tempManifest } from "./_cli.ts";

Deno.test("jsonText names what JSON cannot hold and where", () => {
  const cyclic: Record<string, unknown> = { a: [1] };
  (cyclic.a as unknown[]).push(cyclic);
  const redactor = new Redactor();
  redactor.add("secret-value");
  for (
    const [value, what, pointer] of [
      [{ n: { deep: [0, 10n] } }, "a BigInt", "/n/deep/1"],
      [cyclic, "a cycle", "/a/1"],
      [5n, "a BigInt", ""],
    ] as const
  ) {
    for (const r of [undefined, redactor]) {
      assert.throws(
        () => jsonText(value, r, { toolId: "t" }),
        (error: unknown) => {
          assert.ok(error instanceof UnserializableResultError);
          assert.equal(error.code, "unserializable_result");
          assert.equal(error.pointer, pointer);
          assert.match(
            error.message,
            new RegExp(`^tool "t" returned a value JSON cannot hold: ${what}`),
          );
          return true;
        },
      );
    }
  }
  assert.equal(jsonText({ d: new Date(0) }, redactor), '{"d":"1970-01-01T00:00:00.000Z"}');
  assert.equal(jsonText(undefined, undefined), "null");
});

Deno.test("a module tool returning a BigInt or a cycle fails that tool clearly, exit 1", async () => {
  const manifest = await tempManifest(
    [
      "version: 1",
      "tools:",
      "  - { name: big, module: ./m.ts, export: big, inputSchema: { type: object } }",
      "  - { name: cyc, module: ./m.ts, export: cyc, inputSchema: { type: object } }",
    ].join("\n"),
    {
      "m.ts": [
        "export const big = () => ({ n: 10n });",
        "export const cyc = () => { const a: Record<string, unknown> = {}; a.self = a; return a; };",
      ].join("\n"),
    },
  );
  const flags = await flagsFor(manifest);
  for (const [tool, what] of [["big", /BigInt/], ["cyc", /circular|cycle/i]] as const) {
    for (const events of [false, true]) {
      const out = await cli([
        "run",
        manifest,
        tool,
        "--args",
        "{}",
        ...(events ? ["--events"] : []),
      ], {
        flags,
      });
      assert.equal(out.code, 1, out.stderr);
      assert.equal(out.stdout, "");
      assert.match(out.stderr, new RegExp(`tool \\\\?"${tool}\\\\?"`));
      assert.match(out.stderr, what);
      if (!events) assert.doesNotMatch(out.stderr, /Uncaught| {4}at /);
    }
  }
});
