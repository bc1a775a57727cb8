import assert from "node:assert/strict";
import {
  AdapterExistsError,
  AdapterRegistry,
  defaultRegistry,
  mcpAdapter,
  UnknownFormatError,
} from "../../adapter/mod.ts";
import { ToolFoundationError } from "../../model/mod.ts";
import { ALL_CASES, SEED_TOOLS } from "./_cases.ts";

Deno.test("defaultRegistry lists the five built-in formats sorted", () => {
  assert.deepEqual(defaultRegistry().list(), [
    "anthropic",
    "gemini",
    "mcp",
    "openai",
    "openai-responses",
  ]);
});

Deno.test("get with an unknown format throws an error listing the registered formats", () => {
  const error = assert.throws(() => defaultRegistry().get("cohere"), UnknownFormatError) as never;
  void error;
  try {
    defaultRegistry().convert(SEED_TOOLS.calculator, "mcp", "cohere");
  } catch (e) {
    assert.ok(e instanceof UnknownFormatError);
    assert.ok(e instanceof ToolFoundationError);
    assert.equal(e.code, "unknown_format");
    assert.match(e.message, /anthropic, gemini, mcp, openai, openai-responses/);
  }
});

Deno.test("register refuses a taken name unless replace is set", () => {
  const registry = new AdapterRegistry().register(mcpAdapter);
  assert.throws(() => registry.register(mcpAdapter), AdapterExistsError);
  registry.register(mcpAdapter, { replace: true });
  assert.equal(registry.has("mcp"), true);
});

Deno.test("convert works between the same format", () => {
  const registry = defaultRegistry();
  for (const target of registry.list()) {
    const out = registry.convert(SEED_TOOLS.calculator, "mcp", target);
    const again = registry.convert(out.tool, target, target);
    assert.deepEqual(again.tool, out.tool, target);
  }
});

Deno.test("convert never mutates its input", () => {
  const registry = defaultRegistry();
  for (const tool of Object.values(ALL_CASES)) {
    const before = structuredClone(tool);
    for (const target of registry.list()) {
      for (const strict of [true, false, "auto"] as const) {
        registry.convert(tool, "mcp", target, { strict });
        assert.deepEqual(tool, before);
      }
    }
  }
});

Deno.test("convert is deterministic, warnings included", () => {
  const registry = defaultRegistry();
  for (const tool of Object.values(ALL_CASES)) {
    for (const target of registry.list()) {
      const a = registry.convert(tool, "mcp", target, { strict: true });
      const b = registry.convert(structuredClone(tool), "mcp", target, { strict: true });
      assert.equal(JSON.stringify(a.tool), JSON.stringify(b.tool));
      assert.deepEqual(a.warnings, b.warnings);
    }
  }
});

Deno.test("convert maps warning paths into the source format's tool", () => {
  const registry = defaultRegistry();
  const openai = registry.convert(SEED_TOOLS.email_sender, "mcp", "openai", { strict: false }).tool;
  const out = registry.convert(openai, "openai", "anthropic", { strict: true });
  const paths = out.warnings.map((w) => w.path);
  assert.ok(paths.includes("/function/parameters/properties/subject/minLength"), paths.join());
  assert.ok(out.warnings.every((w) => w.from === "openai" && w.to === "anthropic"));
});

Deno.test("convert with describeDropped false drops constraints without touching descriptions", () => {
  const out = defaultRegistry().convert(SEED_TOOLS.email_sender, "mcp", "openai", {
    strict: true,
    describeDropped: false,
  });
  const subject = (out.tool as {
    function: { parameters: { properties: Record<string, Record<string, unknown>> } };
  })
    .function.parameters.properties.subject;
  assert.equal(subject.description, "Email subject");
  assert.ok(
    out.warnings.filter((w) => w.feature === "minLength").every((w) => w.action === "dropped"),
  );
});

Deno.test("convert uses a ToolNameMap for provider names in both directions", async () => {
  const { ToolNameMap } = await import("../../adapter/mod.ts");
  const tool = { ...SEED_TOOLS.calculator, namespace: "math.v2" };
  const names = new ToolNameMap(["math.v2:calculator"], "openai");
  const registry = defaultRegistry();
  const out = registry.convert(tool, "mcp", "openai", { names, strict: false });
  const name = (out.tool as { function: { name: string } }).function.name;
  assert.match(name, /^math_v2__calculator_[0-9a-f]{8}$/);
  assert.ok(out.warnings.some((w) => w.feature === "name" && w.path === "/name"));
  const back = registry.convert(out.tool, "openai", "mcp", { names }).tool as {
    name: string;
    namespace: string;
  };
  assert.equal(back.namespace, "math.v2");
  assert.equal(back.name, "calculator");
  const lost = registry.convert(out.tool, "openai", "mcp");
  assert.ok(lost.warnings.some((w) => w.feature === "name" && w.path === "/function/name"));
});
