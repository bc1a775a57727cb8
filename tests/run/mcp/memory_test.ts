// server-memory with a temporary absolute MEMORY_FILE_PATH.
import assert from "node:assert/strict";
import { Runner } from "../../../run/mod.ts";
import { memoryStdio } from "../_mcp_servers.ts";

Deno.test("mcp backend against server-memory with a temp memory file", async (t) => {
  const dir = await Deno.makeTempDir({ prefix: "tf-memory-" });
  const file = `${dir}/memory.jsonl`;
  const runner = new Runner({ mcpServers: { memory: memoryStdio(file) } });
  try {
    await t.step("lists 9 tools with output schemas", async () => {
      const { imported } = await runner.importMcpTools("memory", { namespace: null });
      assert.equal(imported.length, 9);
      assert.ok(runner.registry.has("create_entities"));
      assert.ok(imported.every((e) => e.tool.outputSchema !== undefined));
    });

    await t.step(
      "creates entities and reads the graph back, structured and validated",
      async () => {
        const created = await runner.run("create_entities", {
          entities: [{ name: "Ada", entityType: "person", observations: ["wrote notes"] }],
        });
        assert.equal((created.structured as { entities: unknown[] }).entities.length, 1);
        const graph = await runner.run("read_graph", {});
        const entities = (graph.structured as { entities: { name: string }[] }).entities;
        assert.deepEqual(entities.map((e) => e.name), ["Ada"]);
        assert.match(await Deno.readTextFile(file), /"Ada"/);
      },
    );

    await t.step("wrongly shaped arguments are input_validation", async () => {
      const error = await runner.run("create_entities", { entities: [{ name: 1 }] })
        .catch((e) => e);
      assert.equal(error.code, "input_validation");
      assert.ok(error.failures.length >= 1);
    });
  } finally {
    await runner.close();
    await Deno.remove(dir, { recursive: true });
  }
});
