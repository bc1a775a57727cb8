// An MCP result's non-text content (image, audio, resource link, embedded
// resource) is never dropped from what the CLI prints, also when the result
// has structuredContent.
import assert from "node:assert/strict";
import { cli, flagsFor, tempManifest } from "./_cli.ts";

const FAKE = new URL("../fixtures/run/mcp_fake_server.ts", import.meta.url).pathname;

const BLOCKS = [
  { type: "text", text: "a picture, a sound and two resources" },
  { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" },
  { type: "audio", data: "UklGRg==", mimeType: "audio/wav" },
  { type: "resource_link", uri: "file:///tmp/a.txt", name: "a.txt" },
  { type: "resource", resource: { uri: "file:///tmp/b.txt", text: "bee" } },
];

async function manifest(): Promise<string> {
  return await tempManifest(
    [
      "version: 1",
      "servers:",
      `  fake: { command: deno, args: [run, -A, --no-config, ${FAKE}, normal] }`,
      "tools:",
      "  - { name: content, server: fake, inputSchema: { type: object } }",
      "  - { name: env, server: fake, inputSchema: { type: object } }",
      "chains:",
      "  mixed:",
      "    steps:",
      "      - { tool: content, args: { structured: true } }",
    ].join("\n"),
  );
}

Deno.test("structuredContent with non-text blocks prints {structured, content}, dropping nothing", async () => {
  const path = await manifest();
  const flags = await flagsFor(path);
  const out = await cli(["run", path, "content", "--args", '{"structured":true}'], { flags });
  assert.equal(out.code, 0, out.stderr);
  assert.deepEqual(JSON.parse(out.stdout), { structured: { kept: true, n: 1 }, content: BLOCKS });
  // The same shape in the --events done event, and in a chain's step and result.
  const events = await cli(["run", path, "content", "--args", '{"structured":true}', "--events"], {
    flags,
  });
  assert.equal(events.code, 0, events.stderr);
  const done = events.stderr.trim().split("\n").map((l) => JSON.parse(l)).find((e) =>
    e.kind === "done"
  );
  assert.deepEqual(done.data.structured, { structured: { kept: true, n: 1 }, content: BLOCKS });
  const chain = await cli(["chain", path, "mixed"], { flags: await flagsFor(path, "mixed") });
  assert.equal(chain.code, 0, chain.stderr);
  const result = JSON.parse(chain.stdout);
  assert.deepEqual(result.result, { structured: { kept: true, n: 1 }, content: BLOCKS });
  assert.deepEqual(result.steps[0].structured, result.result);
});

Deno.test("without structuredContent the blocks print as they came; text-only structured prints as is", async () => {
  const path = await manifest();
  const flags = await flagsFor(path);
  const blocks = await cli(["run", path, "content", "--args", "{}"], { flags });
  assert.equal(blocks.code, 0, blocks.stderr);
  assert.deepEqual(JSON.parse(blocks.stdout), BLOCKS);
  const env = await cli(["run", path, "env", "--args", "{}"], { flags });
  assert.equal(env.code, 0, env.stderr);
  assert.deepEqual(Object.keys(JSON.parse(env.stdout)), ["names"]);
});
