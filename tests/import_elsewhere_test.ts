// The sources used from a project in another folder (a checkout, not JSR):
// bare specifiers in them ("re2js", "@modelcontextprotocol/server", ...) are
// names of this repository's import map, and Deno resolves them with the
// configuration of the project that runs, not of the file that imports them.
// So a plain path import fails on the first npm package loaded; the project
// links the checkout (`"links"` in its deno.json) or runs with this
// repository's `--config`, as docs/library.md says.
import assert from "node:assert/strict";

const ROOT = new URL("../", import.meta.url);

/** Uses the root, run and serve entries: a defined tool, run, and called through the gateway. */
function program(prefix: string): string {
  return `
import { defineTool } from "${prefix}";
import { Runner } from "${prefix}/run";
import { Gateway } from "${prefix}/serve";

const slug = defineTool({
  name: "slug",
  inputSchema: {
    type: "object",
    properties: { text: { type: "string", pattern: "^[a-z ]+$" } },
    required: ["text"],
  },
  handler: ({ text }) => text.replaceAll(" ", "-"),
});
const runner = new Runner();
runner.addLocalTool(slug);
const gateway = await Gateway.create(runner);
const result = await gateway.callTool("slug", { text: "hello world" }, { caller: "elsewhere" });
console.log(JSON.stringify(result.content));
await gateway.close();
await runner.close();
`;
}

async function runIn(
  dir: string,
  args: string[],
): Promise<{ code: number; out: string; stdout: string }> {
  const env: Record<string, string> = { NO_COLOR: "1" };
  for (const name of ["DENO_DIR", "HOME", "PATH", "NODE_EXTRA_CA_CERTS"]) {
    const value = Deno.env.get(name);
    if (value !== undefined) env[name] = value;
  }
  const output = await new Deno.Command(Deno.execPath(), {
    // Not --cached-only: the other project has no lockfile of ours, so Deno
    // resolves the packages' dependencies again (from the npm registry on a
    // fresh machine, as a user's project would).
    args: ["run", "--allow-read", "--allow-env", ...args],
    cwd: dir,
    env,
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const dec = new TextDecoder();
  const stdout = dec.decode(output.stdout);
  return { code: output.code, out: stdout + dec.decode(output.stderr), stdout };
}

const ANSWER = '[{"type":"text","text":"hello-world"}]';

Deno.test("a project in another folder that links the checkout uses its entries by their JSR names", async () => {
  const dir = await Deno.makeTempDir({ prefix: "tf-elsewhere-" });
  try {
    await Deno.writeTextFile(
      `${dir}/deno.json`,
      JSON.stringify({
        links: [ROOT.pathname],
        imports: {
          "@toolfoundation/core": "jsr:@toolfoundation/core@^0.1.0",
          "@toolfoundation/core/": "jsr:/@toolfoundation/core@^0.1.0/",
        },
      }),
    );
    await Deno.writeTextFile(`${dir}/main.ts`, program("@toolfoundation/core"));
    const linked = await runIn(dir, ["main.ts"]);
    assert.equal(linked.code, 0, linked.out);
    assert.equal(linked.stdout.trim(), ANSWER, linked.out);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a plain path import from another folder fails on the import map's names unless given this --config", async () => {
  const dir = await Deno.makeTempDir({ prefix: "tf-elsewhere-" });
  try {
    const base = new URL(".", ROOT).href.replace(/\/$/, "");
    // Entry files by path: `${base}/mod.ts`, `${base}/run/mod.ts`, `${base}/serve/mod.ts`.
    const text = program(base).replace(`"${base}"`, `"${base}/mod.ts"`)
      .replace(`"${base}/run"`, `"${base}/run/mod.ts"`)
      .replace(`"${base}/serve"`, `"${base}/serve/mod.ts"`);
    await Deno.writeTextFile(`${dir}/main.ts`, text);
    const plain = await runIn(dir, ["--no-lock", "main.ts"]);
    assert.notEqual(plain.code, 0, plain.out);
    assert.match(plain.out, /Import "[^"]+" not a dependency/);
    const configured = await runIn(dir, [
      "--config",
      new URL("deno.json", ROOT).pathname,
      "--no-lock",
      "main.ts",
    ]);
    assert.equal(configured.code, 0, configured.out);
    assert.equal(configured.stdout.trim(), ANSWER, configured.out);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
