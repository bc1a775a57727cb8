// Gemini needs every `required` name in the same schema's `properties`, also
// inside a nested `anyOf` branch that only adds `required` names.

import assert from "node:assert/strict";
import { defaultRegistry, preflight } from "../../adapter/mod.ts";
import { DefaultValidator, type Tool } from "../../model/mod.ts";

type S = Record<string, unknown>;
const registry = defaultRegistry();

const TOOL: Tool = {
  name: "contact",
  inputSchema: {
    type: "object",
    properties: {
      to: {
        type: "object",
        properties: { email: { type: "string" }, phone: { type: "string" } },
        anyOf: [{ required: ["email"] }, { required: ["phone", "fax"] }],
      },
    },
  },
};

Deno.test("gemini repeats the enclosing property schemas in a branch that only requires", () => {
  const out = registry.convert(TOOL, "mcp", "gemini");
  const to = ((out.tool as { parameters: S }).parameters.properties as S).to as S;
  assert.deepEqual(to.anyOf, [
    { required: ["email"], properties: { email: { type: "STRING" } } },
    { required: ["phone"], properties: { phone: { type: "STRING" } } },
  ]);
  assert.deepEqual(preflight([out.tool], "gemini"), []);
  const at = "/inputSchema/properties/to/anyOf/1/required";
  const here = out.warnings.filter((w) => w.path === at);
  assert.deepEqual(here.map((w) => [w.action, w.effect]), [["rewritten", "none"], [
    "dropped",
    "widens",
  ]]);
  assert.match(here[1].message, /"fax"/);
  const first = out.warnings.find((w) => w.path === "/inputSchema/properties/to/anyOf/0/required")!;
  assert.equal(first.effect, "none");
});

Deno.test("gemini branch rewrite keeps the accepted objects of declared names", async () => {
  const out = registry.convert(TOOL, "mcp", "gemini");
  const back = registry.convert(out.tool, "gemini", "mcp").tool as Tool;
  const validator = new DefaultValidator();
  const original = await validator.compile(TOOL.inputSchema);
  const converted = await validator.compile(back.inputSchema);
  for (const to of [{ email: "a" }, { phone: "1" }, {}, { fax: "2" }]) {
    const args = { to };
    if (original.check(args).valid) assert.equal(converted.check(args).valid, true);
  }
  assert.equal(converted.check({ to: {} }).valid, false);
});
