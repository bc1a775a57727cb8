// Type-level proof that the MCP part of our Tool is 1:1 with the pinned SDK's Tool,
// both the zod-inferred one (`types.js`) and the spec's plain interface
// (`spec.types.js`). The hints name the extensionless subpath: the SDK's
// `exports["./*"].types` is `./dist/esm/*.d.ts`, so a `.js` or `.d.ts` subpath
// resolves to no file and `deno check` silently types the import as `any`.
// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/types"
import type { Tool as SdkTool } from "@modelcontextprotocol/sdk/types.js";
// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/spec.types"
import type { Tool as SpecTool } from "@modelcontextprotocol/sdk/spec.types.js";
import assert from "node:assert/strict";
import {
  MCP_VERSION,
  type McpTool,
  SCHEMA_DIALECT_2020_12,
  SCHEMA_DIALECT_DRAFT_07,
  SCHEMA_DIALECT_DRAFT_07_ALT,
  type Tool,
} from "../../model/mod.ts";

type IsAny<T> = 0 extends 1 & T ? true : false;
type Expect<T extends true> = T;
type Not<T extends boolean> = T extends true ? false : true;
type Equal<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

// If the SDK types collapsed to `any` (missing @ts-types hint), these would not compile.
type _SdkIsTyped = Expect<Not<IsAny<SdkTool>>>;
type _NameIsString = Expect<Equal<SdkTool["name"], string>>;
// Assignable both ways: our McpTool <-> the SDK's Tool.
type _OursToSdk = Expect<[McpTool] extends [SdkTool] ? true : false>;
type _SdkToOurs = Expect<[SdkTool] extends [McpTool] ? true : false>;
type _SpecIsTyped = Expect<Not<IsAny<SpecTool>>>;
type _OursToSpec = Expect<[McpTool] extends [SpecTool] ? true : false>;
type _SpecToOurs = Expect<[SpecTool] extends [McpTool] ? true : false>;
// Every SDK key is one of ours and vice versa.
type _SameKeys = Expect<Equal<keyof SdkTool, keyof McpTool>>;
type _SameSpecKeys = Expect<Equal<keyof SpecTool, keyof McpTool>>;
// Tool extends the MCP part with exactly namespace, version and tags.
type _Extensions = Expect<
  Equal<Exclude<keyof Tool, keyof McpTool>, "namespace" | "version" | "tags">
>;

Deno.test("Tool values round-trip through the SDK type without casts", () => {
  const ours: Tool = {
    name: "read",
    title: "Read",
    description: "Read a file",
    inputSchema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
    outputSchema: { type: "object", properties: { text: { type: "string" } } },
    annotations: { title: "Read", readOnlyHint: true, openWorldHint: false },
    icons: [{
      src: "https://example.com/i.png",
      mimeType: "image/png",
      sizes: ["48x48"],
      theme: "dark",
    }],
    execution: { taskSupport: "optional" },
    _meta: { "x/y": 1 },
    namespace: "fs",
  };
  const sdk: SdkTool = ours;
  const spec: SpecTool = ours;
  const back: McpTool = sdk;
  const backFromSpec: McpTool = spec;
  assert.deepEqual(back, backFromSpec);
  assert.equal(back.name, "read");
});

Deno.test("constants match the documented values and the MCP spec version", () => {
  assert.equal(MCP_VERSION, "2025-11-25");
  assert.equal(SCHEMA_DIALECT_2020_12, "https://json-schema.org/draft/2020-12/schema");
  assert.equal(SCHEMA_DIALECT_DRAFT_07, "http://json-schema.org/draft-07/schema#");
  assert.equal(SCHEMA_DIALECT_DRAFT_07_ALT, "http://json-schema.org/draft-07/schema");
});
