// server-filesystem on a temporary directory.
import assert from "node:assert/strict";
import { Runner } from "../../../run/mod.ts";
import { filesystemStdio } from "../_mcp_servers.ts";

Deno.test("mcp backend against server-filesystem on a temp dir", async (t) => {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "tf-fs-" }));
  const runner = new Runner({ mcpServers: { fs: filesystemStdio(dir) } });
  try {
    await t.step("lists 14 tools, all with an output schema", async () => {
      const { imported, skipped } = await runner.importMcpTools("fs");
      assert.deepEqual(skipped, []);
      assert.equal(imported.length, 14);
      assert.ok(imported.every((e) => e.tool.outputSchema?.type === "object"));
    });

    await t.step(
      "writes and reads a file, results checked against the output schemas",
      async () => {
        const path = `${dir}/note.txt`;
        await runner.run("fs:write_file", { path, content: "hello from toolfoundation" });
        assert.equal(await Deno.readTextFile(path), "hello from toolfoundation");
        const read = await runner.run("fs:read_text_file", { path });
        assert.deepEqual(read.structured, { content: "hello from toolfoundation" });
        const listing = await runner.run("fs:list_directory", { path: dir });
        assert.match(JSON.stringify(listing.structured), /note\.txt/);
      },
    );

    await t.step("missing arguments are caught before the server", async () => {
      const error = await runner.run("fs:read_text_file", {}).catch((e) => e);
      assert.equal(error.code, "input_validation");
    });

    await t.step("access outside the allowed directory is a tool_error", async () => {
      const error = await runner.run("fs:read_text_file", { path: "/etc/hostname" })
        .catch((e) => e);
      assert.equal(error.code, "tool_error");
      assert.match(error.message, /denied|outside|not allowed/i);
    });
  } finally {
    await runner.close();
    await Deno.remove(dir, { recursive: true });
  }
});
