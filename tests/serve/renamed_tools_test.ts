// `serve` in front of a server whose tools a manifest renames: the client calls
// the new name, the upstream is called with its own name (as `run` does), with
// and without a prefix.
import assert from "node:assert/strict";
import { ROOT, stdioClient } from "./_helpers.ts";

async function manifest(): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "tf-renamed-" });
  const path = `${dir}/tools.yaml`;
  await Deno.writeTextFile(
    path,
    [
      "version: 1",
      "servers:",
      "  up:",
      `    command: ${JSON.stringify(Deno.execPath())}`,
      `    args: [run, --quiet, -A, ${JSON.stringify(`${ROOT}tests/fixtures/serve/upstream.ts`)}]`,
      "    protocol: legacy",
      "    include: [test_simple_text, echo]",
      "    tools:",
      "      test_simple_text: { name: say, description: Says something }",
    ].join("\n") + "\n",
  );
  return path;
}

for (
  const [prefix, served] of [[undefined, ""], ["p_", "p_"], ["p", "p_"], ["p.", "p."]] as const
) {
  Deno.test(`a tool renamed by an override is served under its new name and called by the server's${prefix ? ` (with the prefix ${prefix}, served as ${served}NAME)` : ""}`, async () => {
    const path = await manifest();
    const client = await stdioClient(
      prefix === undefined ? [] : ["--prefix", `up=${prefix}`],
      path,
    );
    try {
      const p = served;
      const { tools } = await client.listTools();
      const names = tools.map((t) => t.name).sort();
      assert.deepEqual(names, [`${p}echo`, `${p}say`]);
      assert.equal(tools.find((t) => t.name === `${p}say`)?.description, "Says something");
      const said = await client.callTool({ name: `${p}say`, arguments: {} });
      assert.equal(said.isError, undefined, JSON.stringify(said));
      assert.deepEqual(said.content, [{
        type: "text",
        text: "This is a simple text response for testing.",
      }]);
      const old = await client.callTool({ name: `${p}test_simple_text`, arguments: {} })
        .catch((e) => e);
      const refused = old instanceof Error ? old.message : JSON.stringify(old);
      assert.match(refused, /test_simple_text/, "the old name is not served");
    } finally {
      await client.close();
      await Deno.remove(path.slice(0, path.lastIndexOf("/")), { recursive: true });
    }
  });
}
