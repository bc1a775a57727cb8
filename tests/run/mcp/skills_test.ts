// The skills extension (io.modelcontextprotocol/skills): this client does not
// implement it. What the harness's sep-2640-* scenarios check only when a
// client lists skills (no skill file read ahead of need; a read verified
// against the entry's digest, size and frontmatter) is shown here for what the
// client does: against a server that declares the extension, importing and
// calling its tools never lists skills and never reads a skill file, in either
// era. Digest, size and frontmatter verification are not implemented: no
// skill is ever loaded, so there is nothing to verify.
import assert from "node:assert/strict";
import { type McpProtocol, Runner } from "../../../run/mod.ts";
import { startScriptedServer } from "./_scripted_http.ts";

const SKILLS = { extensions: { "io.modelcontextprotocol/skills": {} }, resources: {} };

for (const protocol of ["2026-07-28", "legacy"] as McpProtocol[]) {
  Deno.test(`a server declaring the skills extension (${protocol}): no skills/list and no skill file read`, async () => {
    const server = startScriptedServer(
      [{ name: "echo", inputSchema: { type: "object" } }],
      SKILLS,
    );
    const runner = new Runner({
      mcpServers: { s: { transport: "http", url: server.url, protocol } },
      timeoutMs: 30_000,
    });
    try {
      await runner.importMcpTools("s");
      await runner.run("s:echo", {});
      const methods = server.received.map((r) => r.method);
      assert.ok(methods.includes("tools/call"), methods.join(", "));
      assert.ok(!methods.includes("skills/list"), methods.join(", "));
      assert.ok(!methods.includes("resources/read"), methods.join(", "));
    } finally {
      await runner.close();
      await server.close();
    }
  });
}
