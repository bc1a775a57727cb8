// Adding a provider is one adapter plus one registry line: a toy provider,
// written against the public entry points only, converts, preflights and reads
// its tool calls through the registry like a built-in one.
import assert from "node:assert/strict";
import {
  type Adapter,
  type CanonicalResult,
  type CanonicalTool,
  type ConversionResult,
  type ConvertOptions,
  decodeToolName,
  defaultRegistry,
  encodeToolName,
  IDENTITY_NORMALIZER,
  InvalidProviderToolError,
  OPENAI_PROFILE,
  type PreflightProblem,
  type PreflightTool,
  type ProviderProfile,
  type ToolCallReading,
  UnknownFormatError,
} from "../../adapter/mod.ts";
import { parseToolCall, preflight } from "../../mod.ts";

// --- the toy provider: tools are { tool, about?, schema, strict? }; calls are
// { kind: "toy_call", name, input } (a `name` string, which MCP's fallback
// reader would also accept: the toy reader must come first).

interface ToyTool {
  tool: string;
  about?: string;
  schema: Record<string, unknown>;
  strict?: boolean;
}

const TOY_PROFILE: ProviderProfile = {
  format: "toy",
  date: "2026-11-24",
  notes: "a toy provider for the registry test",
  names: { allowed: "a-z0-9_", maxLength: 20, separator: "__" },
  schema: OPENAI_PROFILE.schema,
  strictSchema: OPENAI_PROFILE.strictSchema,
};

function options(value: ConvertOptions | undefined): { shout: boolean } {
  const own = value?.providers?.toy as { shout?: boolean } | undefined;
  return { shout: own?.shout === true };
}

const toyAdapter: Adapter<ToyTool> = {
  format: "toy",
  profile: TOY_PROFILE,
  toCanonical(tool: unknown, _options?: ConvertOptions): CanonicalResult {
    const t = tool as ToyTool;
    if (typeof t?.tool !== "string") {
      throw new InvalidProviderToolError("toy", [{ path: "/tool", message: "must be a string" }]);
    }
    const id = decodeToolName(t.tool, TOY_PROFILE) ?? t.tool;
    const [namespace, name] = id.includes(":") ? id.split(":") : [undefined, id];
    const canonical: CanonicalTool = {
      name,
      ...(namespace === undefined ? {} : { namespace }),
      ...(t.about === undefined ? {} : { description: t.about }),
      inputSchema: t.schema as CanonicalTool["inputSchema"],
    };
    return { tool: canonical, warnings: [] };
  },
  fromCanonical(tool: CanonicalTool, convert?: ConvertOptions): ConversionResult<ToyTool> {
    const id = tool.namespace === undefined ? tool.name : `${tool.namespace}:${tool.name}`;
    const out: ToyTool = { tool: encodeToolName(id, TOY_PROFILE), schema: tool.inputSchema };
    const warnings = [];
    if (tool.description !== undefined) {
      out.about = options(convert).shout ? tool.description.toUpperCase() : tool.description;
    }
    if (tool.title !== undefined) {
      warnings.push({
        feature: "title",
        path: "/title",
        from: "canonical",
        to: "toy",
        action: "dropped" as const,
        effect: "none" as const,
        message: "toy tools have no title",
      });
    }
    return { tool: out, warnings, normalizer: IDENTITY_NORMALIZER };
  },
  sourcePointer(pointer: string): string {
    if (pointer.startsWith("/inputSchema")) return `/schema${pointer.slice(12)}`;
    return pointer === "/name" ? "/tool" : pointer === "/description" ? "/about" : pointer;
  },
  preflightTool(
    tool: Record<string, unknown>,
    path: string,
    problems: PreflightProblem[],
  ): PreflightTool {
    if (tool.schema === undefined) {
      problems.push({ code: "invalid_shape", path: `${path}/schema`, message: "is required" });
    }
    return {
      name: tool.tool,
      namePath: `${path}/tool`,
      schemas: tool.schema === undefined ? [] : [{ schema: tool.schema, path: `${path}/schema` }],
      strict: tool.strict === true,
    };
  },
  readToolCall(call: Record<string, unknown>): ToolCallReading | undefined {
    if (call.kind !== "toy_call") return undefined;
    return { name: call.name, arguments: call.input ?? {} };
  },
};

// --- the one registry line
const registry = defaultRegistry().register(toyAdapter);

const ADD = {
  name: "add",
  namespace: "math",
  title: "Add",
  description: "Adds two numbers",
  inputSchema: {
    type: "object" as const,
    properties: { a: { type: "number" }, b: { type: "number" } },
    required: ["a", "b"],
  },
};

Deno.test("a registered toy provider is listed among the formats", () => {
  assert.deepEqual(registry.list(), [
    "anthropic",
    "gemini",
    "mcp",
    "openai",
    "openai-responses",
    "toy",
  ]);
  assert.equal(registry.get("toy").profile, TOY_PROFILE);
});

Deno.test("the toy provider converts to and from every other format through the registry", () => {
  const out = registry.convert(ADD, "mcp", "toy", { providers: { toy: { shout: true } } });
  assert.deepEqual(out.tool, {
    tool: "math__add",
    schema: ADD.inputSchema,
    about: "ADDS TWO NUMBERS",
  });
  assert.deepEqual(out.warnings.map((w) => `${w.path} ${w.feature} ${w.from}->${w.to}`), [
    "/title title mcp->toy",
  ]);
  // and back out of toy: warning paths point into the toy tool
  const toy = {
    tool: "math__add",
    schema: { type: "object", properties: { s: { minLength: 2 } } },
  };
  const openai = registry.convert(toy, "toy", "openai", { strict: true });
  assert.equal((openai.tool as { function: { name: string } }).function.name, "math__add");
  assert.ok(openai.warnings.length > 0);
  for (const w of openai.warnings) {
    assert.ok(w.path.startsWith("/schema"), w.path);
    assert.equal(w.from, "toy");
  }
  // every built-in target takes the toy tool
  for (const target of registry.list()) {
    assert.doesNotThrow(() => registry.convert(toy, "toy", target), target);
  }
});

Deno.test("preflight of the toy format runs the shared checks on what the toy adapter describes", () => {
  const problems = registry.preflight([
    { tool: "math__add", schema: { type: "object", properties: { a: { type: "number" } } } },
    { tool: "Bad-Name", schema: { type: "object" }, strict: true },
    { tool: "math__add" },
  ], "toy");
  assert.deepEqual(problems.map((p) => `${p.code} ${p.path}`), [
    "invalid_shape /2/schema",
    "invalid_name /1/tool",
    "not_closed /1/schema/additionalProperties",
    "duplicate_name /2/tool",
  ]);
  // the built-in preflight does not know the toy format: registries are separate
  assert.throws(() => preflight([], "toy"), UnknownFormatError);
});

Deno.test("the toy reader reads toy calls before MCP's fallback reader, and built-in shapes still read", () => {
  assert.deepEqual(
    registry.parseToolCall({ kind: "toy_call", name: "math__add", input: { a: 1, b: 2 } }),
    { format: "toy", toolId: "math:add", arguments: { a: 1, b: 2 } },
  );
  // without the toy adapter the same object is an MCP call
  assert.equal(parseToolCall({ kind: "toy_call", name: "math__add", input: {} }).format, "mcp");
  assert.deepEqual(
    registry.parseToolCall({ type: "tool_use", id: "t1", name: "math__add", input: { a: 1 } }),
    { format: "anthropic", toolId: "math:add", callId: "t1", arguments: { a: 1 } },
  );
  assert.equal(registry.parseToolCall({ name: "add", arguments: {} }).format, "mcp");
});
