// Answering: MCP content in each provider's own form where it has one (text, images,
// documents), otherwise text with a structured warning; structuredContent where the
// provider takes JSON; failures as compact JSON.
import assert from "node:assert/strict";
import { mcpBackend } from "../../model/mod.ts";
import type { McpCallResult } from "../../run/mod.ts";
import {
  answerAnthropic,
  answerChatCompletions,
  answerGemini,
  answerResponses,
  answerToolCalls,
  type CallOutcome,
  LOOP_FORMATS,
  type LoopFormat,
} from "../../loop/mod.ts";

const PNG = "iVBORw0KGgo=";
const PDF = "JVBERi0xLjQK";

function mcpOutcome(format: LoopFormat, mcpResult: McpCallResult, id = "id_1"): CallOutcome {
  return {
    call: { format, index: 0, id, name: "docs__fetch", toolId: "docs:fetch", arguments: {} },
    status: "ok",
    result: {
      tool: { name: "fetch", namespace: "docs", inputSchema: { type: "object" } },
      backend: mcpBackend("docs"),
      structured: mcpResult.structuredContent,
      mcpResult,
      durationMs: 1,
    },
  };
}

const MIXED: McpCallResult = {
  content: [
    { type: "text", text: "Here is the page." },
    { type: "image", data: PNG, mimeType: "image/png" },
    {
      type: "resource",
      resource: { uri: "file:///docs/guide.pdf", mimeType: "application/pdf", blob: PDF },
    },
    { type: "audio", data: "AAAA", mimeType: "audio/wav" },
    { type: "resource_link", uri: "file:///docs/more.md", name: "more.md" },
    {
      type: "resource",
      resource: { uri: "file:///docs/a.txt", mimeType: "text/plain", text: "plain text" },
    },
  ],
};

Deno.test("chat completions: every non-text block becomes text, with one warning each", () => {
  const { messages, warnings } = answerChatCompletions([mcpOutcome("openai", MIXED)]);
  assert.equal(messages.length, 1);
  assert.equal(messages[0].role, "tool");
  assert.equal(messages[0].tool_call_id, "id_1");
  assert.equal(
    messages[0].content,
    [
      "Here is the page.",
      "[image (image/png, 12 base64 characters) not included]",
      "[document (application/pdf, 12 base64 characters) not included]",
      "[audio (audio/wav) not included]",
      "[resource link more.md: file:///docs/more.md]",
      "plain text",
    ].join("\n"),
  );
  assert.deepEqual(warnings.map((w) => [w.code, w.callIndex, w.callId, w.block, w.type]), [
    ["content_as_text", 0, "id_1", 1, "image"],
    ["content_as_text", 0, "id_1", 2, "resource"],
    ["content_as_text", 0, "id_1", 3, "audio"],
    ["content_as_text", 0, "id_1", 4, "resource_link"],
  ]);
  assert.match(
    warnings[0].message,
    /^openai tool results have no form for image image\/png; it was sent as the text/,
  );
});

Deno.test("responses: images as input_image and PDFs as input_file data URLs, the rest as input_text", () => {
  const { messages, warnings } = answerResponses([mcpOutcome("openai-responses", MIXED)]);
  assert.deepEqual(messages, [{
    type: "function_call_output",
    call_id: "id_1",
    output: [
      { type: "input_text", text: "Here is the page." },
      { type: "input_image", image_url: `data:image/png;base64,${PNG}` },
      {
        type: "input_file",
        filename: "guide.pdf",
        file_data: `data:application/pdf;base64,${PDF}`,
      },
      { type: "input_text", text: "[audio (audio/wav) not included]" },
      { type: "input_text", text: "[resource link more.md: file:///docs/more.md]" },
      { type: "input_text", text: "plain text" },
    ],
  }]);
  assert.deepEqual(warnings.map((w) => w.type), ["audio", "resource_link"]);
});

Deno.test("anthropic: image and document blocks inside tool_result; an unsupported image type becomes text", () => {
  const outcome = mcpOutcome("anthropic", {
    content: [...MIXED.content.slice(0, 3), {
      type: "image",
      data: "AAAA",
      mimeType: "image/tiff",
    }],
  });
  const { messages, warnings } = answerAnthropic([outcome]);
  assert.deepEqual(messages, [{
    role: "user",
    content: [{
      type: "tool_result",
      tool_use_id: "id_1",
      content: [
        { type: "text", text: "Here is the page." },
        { type: "image", source: { type: "base64", media_type: "image/png", data: PNG } },
        { type: "document", source: { type: "base64", media_type: "application/pdf", data: PDF } },
        { type: "text", text: "[image (image/tiff, 4 base64 characters) not included]" },
      ],
    }],
  }]);
  assert.deepEqual(warnings.map((w) => [w.block, w.type]), [[3, "image"]]);
});

Deno.test("gemini: structuredContent is the response's output; images and PDFs go as inlineData parts", () => {
  const outcome = mcpOutcome("gemini", {
    content: [
      { type: "text", text: '{"title":"Guide"}' },
      { type: "image", data: PNG, mimeType: "image/png" },
      {
        type: "resource",
        resource: { uri: "file:///g.pdf", mimeType: "application/pdf", blob: PDF },
      },
    ],
    structuredContent: { title: "Guide" },
  });
  const { messages, warnings } = answerGemini([outcome]);
  assert.deepEqual(messages, [{
    role: "user",
    parts: [{
      functionResponse: {
        id: "id_1",
        name: "docs__fetch",
        response: { output: { title: "Guide" } },
        parts: [
          { inlineData: { mimeType: "image/png", data: PNG } },
          { inlineData: { mimeType: "application/pdf", data: PDF } },
        ],
      },
    }],
  }]);
  assert.deepEqual(warnings, []);
});

Deno.test("media: text sends every non-text block as text, with warnings, for every format", () => {
  for (const format of LOOP_FORMATS) {
    const { warnings } = answerToolCalls(format, [mcpOutcome(format, MIXED)], { media: "text" });
    assert.deepEqual(warnings.map((w) => w.block), [1, 2, 3, 4], format);
  }
});

Deno.test("a text-only MCP result is plain text; structuredContent without content is JSON text", () => {
  const text = mcpOutcome("openai", {
    content: [{ type: "text", text: "a" }, { type: "text", text: "b" }],
  });
  assert.equal(answerChatCompletions([text]).messages[0].content, "a\nb");
  const structured = mcpOutcome("anthropic", { content: [], structuredContent: { n: 1 } });
  assert.deepEqual(answerAnthropic([structured]).messages[0].content[0].content, '{"n":1}');
  const gemini = mcpOutcome("gemini", { content: [{ type: "text", text: "hello" }] });
  assert.deepEqual(answerGemini([gemini]).messages[0].parts[0].functionResponse.response, {
    output: "hello",
  });
});

Deno.test("failures: JSON with error, message and issues everywhere; Anthropic adds is_error, Gemini an error object", () => {
  const failed: CallOutcome = {
    call: {
      format: "openai",
      index: 0,
      id: "c",
      name: "math__add",
      toolId: "math:add",
      arguments: {},
    },
    status: "failed",
    failure: {
      code: "invalid_arguments",
      message: "fix them",
      issues: [{ path: "/a", expected: "must be number" }],
      cause: new Error("never sent"),
    },
  };
  const text =
    '{"error":"invalid_arguments","message":"fix them","issues":[{"path":"/a","expected":"must be number"}]}';
  assert.equal(answerChatCompletions([failed]).messages[0].content, text);
  assert.equal(answerResponses([failed]).messages[0].output, text);
  assert.deepEqual(answerAnthropic([failed]).messages[0].content[0], {
    type: "tool_result",
    tool_use_id: "c",
    content: text,
    is_error: true,
  });
  assert.deepEqual(answerGemini([failed]).messages[0].parts[0].functionResponse, {
    id: "c",
    name: "math__add",
    response: {
      error: {
        code: "invalid_arguments",
        message: "fix them",
        issues: [{ path: "/a", expected: "must be number" }],
      },
    },
  });
});

Deno.test("no outcomes: no messages for any format", () => {
  for (const format of LOOP_FORMATS) assert.deepEqual(answerToolCalls(format, []).messages, []);
});

Deno.test("gemini: blocks sent as text next to a structured output go along as content, not lost", () => {
  const outcome = mcpOutcome("gemini", {
    content: [{ type: "audio", data: "AAAA", mimeType: "audio/wav" }],
    structuredContent: { ok: true },
  });
  const { messages, warnings } = answerGemini([outcome]);
  assert.deepEqual(messages[0].parts[0].functionResponse.response, {
    output: { ok: true },
    content: "[audio (audio/wav) not included]",
  });
  assert.equal(warnings.length, 1);
});
