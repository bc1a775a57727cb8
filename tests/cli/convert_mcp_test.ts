// `convert --to mcp` writes what an MCP client expects: the fields of an MCP
// `Tool` only, as serve sends them; the library's own fields (namespace,
// version, tags) are dropped, each one reported.
import assert from "node:assert/strict";
import { cli } from "./_cli.ts";

const MCP_TOOL_FIELDS = [
  "name",
  "title",
  "description",
  "inputSchema",
  "outputSchema",
  "annotations",
  "icons",
  "execution",
  "_meta",
];

Deno.test("convert --to mcp writes MCP Tool fields only and reports each field it drops", async () => {
  const out = await cli(["convert", "examples/tools.yaml", "--to", "mcp"], {
    flags: ["--allow-read=examples"],
  });
  assert.equal(out.code, 0, out.stderr);
  const tools = JSON.parse(out.stdout) as Record<string, unknown>[];
  assert.ok(tools.length >= 6, out.stdout);
  for (const tool of tools) {
    const foreign = Object.keys(tool).filter((key) => !MCP_TOOL_FIELDS.includes(key));
    assert.deepEqual(foreign, [], `${tool.name}: not MCP Tool fields`);
  }
  const calculate = tools.find((t) => t.name === "calculate");
  assert.ok(calculate !== undefined, "math:calculate is served as calculate");
  // Summarised by default: every tool's namespace dropped, counted.
  assert.match(out.stderr, /warning: \d+ warnings: .*\d+ × /);
  // Every tool has a namespace, one has tags: with --verbose each dropped field is named.
  const verbose = await cli(["convert", "examples/tools.yaml", "--to", "mcp", "--verbose"], {
    flags: ["--allow-read=examples"],
  });
  assert.equal(verbose.code, 0, verbose.stderr);
  assert.equal(verbose.stdout, out.stdout);
  assert.match(verbose.stderr, /math:calculate.*\/namespace/);
  assert.match(verbose.stderr, /math:calculate.*\/tags/);
  assert.match(verbose.stderr, /text:template.*\/namespace/);
});
