import assert from "node:assert/strict";
import {
  defaultRegistry,
  InvalidProviderToolError,
  openaiAdapter,
  openaiResponsesAdapter,
  preflight,
} from "../../adapter/mod.ts";
import { ALL_CASES, FEATURE_TOOLS, SEED_TOOLS } from "./_cases.ts";

const registry = defaultRegistry();
type Chat = {
  type: string;
  function: { name: string; parameters: Record<string, unknown>; strict: boolean };
};

Deno.test("openai strict output passes OpenAI strict preflight for every case", () => {
  for (const [name, tool] of Object.entries(ALL_CASES)) {
    for (const target of ["openai", "openai-responses"]) {
      const out = registry.convert(tool, "mcp", target, { strict: true });
      assert.deepEqual(preflight([out.tool], target), [], `${target} ${name}`);
      assert.equal(out.strict?.applied, true);
    }
  }
});

Deno.test("openai strict makes optional properties required and nullable, and the normalizer restores absence", () => {
  const out = registry.convert(SEED_TOOLS.email_sender, "mcp", "openai", { strict: true });
  const params = (out.tool as Chat).function.parameters as {
    required: string[];
    properties: Record<string, { type: unknown }>;
  };
  assert.deepEqual(params.required, ["to", "subject", "body", "cc", "attachments"]);
  assert.deepEqual(params.properties.cc.type, ["array", "null"]);
  const args = { to: ["a@b.c"], subject: "s", body: "b", cc: null, attachments: ["x"] };
  assert.deepEqual(out.normalizer.normalize(args), {
    to: ["a@b.c"],
    subject: "s",
    body: "b",
    attachments: ["x"],
  });
  assert.deepEqual(args.cc, null, "the normalizer does not mutate");
  assert.deepEqual(out.normalizer.denormalize({ to: [], subject: "s", body: "b" }), {
    to: [],
    subject: "s",
    body: "b",
    cc: null,
    attachments: null,
  });
});

Deno.test("openai strict normalizer follows $ref and anyOf branches", () => {
  const tool = {
    name: "t",
    inputSchema: {
      type: "object" as const,
      properties: {
        item: { $ref: "#/$defs/item" },
        either: {
          anyOf: [
            {
              type: "object",
              properties: { a: { type: "string" }, x: { type: "integer" } },
              required: ["a"],
              additionalProperties: false,
            },
            { type: "string" },
          ],
        },
      },
      required: ["item", "either"],
      additionalProperties: false,
      $defs: {
        item: {
          type: "object",
          properties: { id: { type: "string" }, note: { type: "string" } },
          required: ["id"],
          additionalProperties: false,
        },
      },
    },
  };
  const out = registry.convert(tool, "mcp", "openai", { strict: true });
  assert.deepEqual(
    out.normalizer.normalize({ item: { id: "1", note: null }, either: { a: "x", x: null } }),
    { item: { id: "1" }, either: { a: "x" } },
  );
  assert.deepEqual(out.normalizer.normalize({ item: { id: "1", note: "n" }, either: "s" }), {
    item: { id: "1", note: "n" },
    either: "s",
  });
});

Deno.test("openai strict keeps an optional property that already accepts null and reports that it narrows", () => {
  const tool = {
    name: "t",
    inputSchema: {
      type: "object" as const,
      properties: { a: { type: ["string", "null"] } },
      additionalProperties: false,
    },
  };
  const out = registry.convert(tool, "mcp", "openai", { strict: true });
  const w = out.warnings.find((w) => w.feature === "required");
  assert.equal(w?.effect, "narrows");
  assert.deepEqual(out.normalizer.normalize({ a: null }), { a: null });
});

Deno.test("openai auto goes strict when nothing about accepted inputs changes", () => {
  const out = registry.convert(FEATURE_TOOLS.enum_const, "mcp", "openai", { strict: "auto" });
  assert.equal(out.strict?.applied, true);
  assert.deepEqual(out.strict?.reasons, []);
  assert.equal((out.tool as Chat).function.strict, true);
});

Deno.test("openai auto stays non-strict and says why when strict would change accepted inputs", () => {
  const out = registry.convert(SEED_TOOLS.email_sender, "mcp", "openai", { strict: "auto" });
  assert.equal(out.strict?.applied, false);
  assert.ok(
    out.strict!.reasons.some((r) => r.includes("minLength")),
    out.strict!.reasons.join("\n"),
  );
  assert.ok(out.strict!.reasons.some((r) => r.includes("additionalProperties")));
  assert.equal((out.tool as Chat).function.strict, false);
  assert.deepEqual((out.tool as Chat).function.parameters, SEED_TOOLS.email_sender.inputSchema);
  assert.equal(out.normalizer.identity, true);
});

Deno.test("openai strict rewrites oneOf to anyOf and reports widening only for overlapping branches", () => {
  const out = registry.convert(FEATURE_TOOLS.anyof_oneof, "mcp", "openai", { strict: true });
  const byPath = new Map(out.warnings.map((w) => [w.path, w]));
  assert.equal(byPath.get("/inputSchema/properties/shape/oneOf")?.effect, "none");
  assert.equal(byPath.get("/inputSchema/properties/size/oneOf")?.effect, "widens");
});

Deno.test("openai strict merges allOf when the branches combine exactly", () => {
  const tool = {
    name: "t",
    inputSchema: {
      type: "object" as const,
      allOf: [
        { properties: { a: { type: "string" } }, required: ["a"] },
        { properties: { b: { type: "integer", minimum: 1 } }, required: ["b"] },
      ],
    },
  };
  const out = registry.convert(tool, "mcp", "openai", { strict: true });
  const params = (out.tool as Chat).function.parameters;
  assert.deepEqual(params.required, ["a", "b"]);
  assert.equal(params.allOf, undefined);
  assert.ok(out.warnings.some((w) => w.feature === "allOf" && w.effect === "none"));
});

Deno.test("openai strict inlines a $ref that has siblings and keeps bare local refs", () => {
  const out = registry.convert(FEATURE_TOOLS.ref_defs, "mcp", "openai", { strict: true });
  const params = (out.tool as Chat).function.parameters as {
    properties: Record<string, Record<string, unknown>>;
    $defs: Record<string, unknown>;
  };
  assert.deepEqual(params.properties.home, { $ref: "#/$defs/address" });
  assert.equal(params.properties.work.$ref, undefined);
  assert.deepEqual(params.properties.manager, { $ref: "#/$defs/person" });
  assert.ok(params.$defs.person !== undefined, "recursive definitions are kept");
});

Deno.test("openai Responses output is flat and always carries strict", () => {
  const out = registry.convert(SEED_TOOLS.calculator, "mcp", "openai-responses", { strict: false });
  const tool = out.tool as Record<string, unknown>;
  assert.equal(tool.type, "function");
  assert.equal(tool.name, "calculator");
  assert.equal(tool.strict, false);
  assert.equal(tool.function, undefined);
});

Deno.test("openai toCanonical decodes the name and keeps the strict flag for the way back", () => {
  const source = {
    type: "function",
    function: {
      name: "math__add",
      description: "Add",
      parameters: {
        type: "object",
        properties: { a: { type: "number" } },
        required: ["a"],
        additionalProperties: false,
      },
      strict: true,
    },
  };
  const canonical = openaiAdapter.toCanonical(source).tool;
  assert.equal(canonical.namespace, "math");
  assert.equal(canonical.name, "add");
  assert.deepEqual(openaiAdapter.fromCanonical(canonical).tool, source);
});

Deno.test("openai toCanonical adds a missing root type and rejects malformed tools", () => {
  const out = openaiResponsesAdapter.toCanonical({
    type: "function",
    name: "x",
    parameters: { properties: {} },
  });
  assert.equal(out.tool.inputSchema.type, "object");
  assert.equal(out.warnings[0].feature, "type");
  assert.deepEqual(
    openaiAdapter.toCanonical({ type: "function", function: { name: "x" } }).tool.inputSchema,
    { type: "object" },
  );
  assert.throws(
    () => openaiAdapter.toCanonical({ type: "function", function: { name: "" } }),
    InvalidProviderToolError,
  );
  assert.throws(
    () =>
      openaiAdapter.toCanonical({
        type: "function",
        function: { name: "x", parameters: { type: "string" } },
      }),
    InvalidProviderToolError,
  );
  assert.throws(() => openaiAdapter.toCanonical("x"), InvalidProviderToolError);
});

Deno.test("openai strict drops keywords the subset lacks, with JSON Pointers and effects", () => {
  const tool = {
    name: "t",
    inputSchema: {
      type: "object" as const,
      properties: {
        s: { type: "string", minLength: 2, format: "uri", pattern: "^a" },
        n: { type: "integer", not: { const: 3 } },
        m: {
          type: "object",
          patternProperties: { "^x": { type: "string" } },
          additionalProperties: false,
        },
        any: {},
      },
      required: ["s", "n", "m", "any"],
      additionalProperties: false,
    },
  };
  const out = registry.convert(tool, "mcp", "openai", { strict: true });
  const got = out.warnings.map((w) => `${w.path} ${w.action} ${w.effect}`);
  assert.deepEqual(got, [
    "/inputSchema/properties/s/minLength moved-to-description widens",
    "/inputSchema/properties/s/format moved-to-description none",
    "/inputSchema/properties/n/not dropped widens",
    "/inputSchema/properties/m/patternProperties dropped narrows",
    "/inputSchema/properties/any/type rewritten narrows",
  ]);
  assert.deepEqual(preflight([out.tool], "openai"), []);
});
