// prepareTools gives each format's own request shape, checked by the compiler
// (`deno test` type-checks this file: each `@ts-expect-error` line must NOT
// compile) and at run time against what the adapters write.
import assert from "node:assert/strict";
import type {
  AnthropicTool,
  GeminiFunctionDeclaration,
  OpenAIChatTool,
  OpenAIResponsesTool,
} from "../../adapter/mod.ts";
import type { Tool } from "../../model/mod.ts";
import {
  type GeminiRequestTool,
  type LoopFormat,
  type PreparedTools,
  prepareTools,
} from "../../loop/mod.ts";

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2) ? true
  : false;
function same<_T extends true>(): void {}

const tools: Tool[] = [{
  name: "read",
  namespace: "files",
  description: "Reads a file",
  inputSchema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
}];

Deno.test("prepareTools types the definitions and the request's tools by format", () => {
  const openai = prepareTools(tools, "openai");
  same<Equal<typeof openai.definitions, OpenAIChatTool[]>>();
  same<Equal<typeof openai.requestTools, OpenAIChatTool[]>>();
  assert.equal(openai.definitions[0].function.name, "files__read");
  assert.equal(openai.requestTools[0].function.parameters?.type, "object");

  const responses = prepareTools(tools, "openai-responses");
  same<Equal<typeof responses.requestTools, OpenAIResponsesTool[]>>();
  assert.equal(responses.requestTools[0].name, "files__read");
  assert.equal(responses.requestTools[0].strict, false);

  const anthropic = prepareTools(tools, "anthropic");
  same<Equal<typeof anthropic.requestTools, AnthropicTool[]>>();
  assert.deepEqual(anthropic.requestTools[0].input_schema.required, ["path"]);

  const gemini = prepareTools(tools, "gemini");
  same<Equal<typeof gemini.definitions, GeminiFunctionDeclaration[]>>();
  same<Equal<typeof gemini.requestTools, GeminiRequestTool[]>>();
  assert.equal(gemini.requestTools[0].functionDeclarations[0].name, "files:read");
  assert.equal(gemini.requestTools.length, 1);

  // @ts-expect-error Chat Completions definitions have no top-level name
  openai.definitions[0].name;
  // @ts-expect-error a Gemini request's tools hold declarations, not names
  gemini.requestTools[0].name;
  // @ts-expect-error not a format of the loop
  prepareTools(tools, "mcp");
});

Deno.test("a format known only at run time gives the union of the formats' shapes", () => {
  const format = "anthropic" as LoopFormat;
  const prepared: PreparedTools = prepareTools(tools, format);
  same<Equal<typeof prepared.format, LoopFormat>>();
  // A prepared set of one format is a PreparedTools, as toolStep takes it.
  const narrow: PreparedTools = prepareTools(tools, "openai");
  assert.equal(narrow.format, "openai");
  assert.equal(
    (prepared.requestTools as AnthropicTool[])[0].name,
    "files__read",
  );
});
