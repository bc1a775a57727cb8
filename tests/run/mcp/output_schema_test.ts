// structuredContent is checked against the tool's output schema by our
// validator (Hyperjump, JSON Schema 2020-12), never by the SDK's ajv: a schema
// with unevaluatedProperties and $dynamicRef is applied as 2020-12 defines it,
// in both protocol eras, and the SDK's validator hook is never asked.
import assert from "node:assert/strict";
import { OutputValidationError, Runner } from "../../../run/mod.ts";
import { PASS_THROUGH } from "../../../run/mcp/_sdk.ts";
import { modernStdio } from "../_mcp_servers.ts";

for (const protocol of ["auto", "legacy"] as const) {
  Deno.test(`a 2020-12 output schema is checked by our validator (protocol ${protocol})`, async () => {
    let asked = 0;
    const original = PASS_THROUGH.getValidator;
    PASS_THROUGH.getValidator = (schema) => {
      asked++;
      return original(schema);
    };
    const runner = new Runner({ mcpServers: { s: modernStdio([], { protocol }) } });
    try {
      const { imported } = await runner.importMcpTools("s");
      assert.ok(imported.some((t) => t.tool.name === "strict"));
      const ok = await runner.run("s:strict", {});
      assert.deepEqual(ok.structured, { name: "a", tags: ["x", "y"] });

      const extra = await runner.run("s:strict", { mode: "extra" }).catch((e) => e);
      assert.ok(extra instanceof OutputValidationError, String(extra));
      assert.ok(
        extra.failures.some((f) => f.keyword === "unevaluatedProperties"),
        JSON.stringify(extra.failures),
      );
      assert.deepEqual(extra.result.mcpResult?.structuredContent, {
        name: "a",
        tags: ["x"],
        extra: 1,
      });

      const badTag = await runner.run("s:strict", { mode: "badtag" }).catch((e) => e);
      assert.ok(badTag instanceof OutputValidationError, String(badTag));
      assert.ok(
        badTag.failures.some((f) => f.instanceLocation === "/tags/1"),
        JSON.stringify(badTag.failures),
      );
      assert.equal(asked, 0, "the SDK's output-schema validator was asked");
    } finally {
      PASS_THROUGH.getValidator = original;
      await runner.close();
    }
  });
}
