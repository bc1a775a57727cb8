// cli/main.ts is the program; cli.ts only wires it to the process. `--help`
// must start fast: what main.ts loads before a command runs is checked here.
import assert from "node:assert/strict";
import { main } from "../../cli/main.ts";
import { main as exported } from "../../cli/mod.ts";

const ROOT = new URL("../../", import.meta.url);

interface InfoModule {
  specifier: string;
  dependencies?: Array<{ code?: { specifier: string }; isDynamic?: boolean }>;
}

/** Every module loaded when `entry` starts, before any dynamic import. */
async function staticGraph(entry: string): Promise<Set<string>> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", entry],
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.ok(out.success, new TextDecoder().decode(out.stderr));
  const info = JSON.parse(new TextDecoder().decode(out.stdout)) as {
    roots: string[];
    modules: InfoModule[];
  };
  const bySpecifier = new Map(info.modules.map((m) => [m.specifier, m]));
  const seen = new Set<string>();
  const stack = [...info.roots];
  while (stack.length > 0) {
    const specifier = stack.pop()!;
    if (seen.has(specifier)) continue;
    seen.add(specifier);
    for (const dep of bySpecifier.get(specifier)?.dependencies ?? []) {
      if (dep.code !== undefined && dep.isDynamic !== true) stack.push(dep.code.specifier);
    }
  }
  return seen;
}

// cli.ts runs cli/main.ts bundled, split at the same dynamic imports
// (tests/cli/startup_loads_test.ts checks what the bundle loads).
Deno.test("cli/main.ts loads no manifest parser, validator, YAML or MCP SDK before a command runs", async () => {
  const loaded = [...await staticGraph("cli/main.ts")];
  assert.ok(loaded.some((s) => s.endsWith("/cli/_help.ts")), loaded.join("\n"));
  const heavy = loaded.filter((s) =>
    /^npm:|hyperjump|modelcontextprotocol|yaml|\/model\/mod\.ts$|\/cli\/manifest\.ts$/.test(s)
  );
  assert.deepEqual(heavy, []);
});

Deno.test("--help loads only the CLI's own small modules: no adapter, model validator or npm package", async () => {
  const loaded = [...await staticGraph("cli/main.ts")];
  const heavy = loaded.filter((s) =>
    /^npm:|\/adapter\/|\/model\/(mod|default_validator)\.ts$/.test(s)
  );
  assert.deepEqual(heavy, []);
  // Every module loaded costs start-up: the entry, main, help, io, errors and what they need.
  assert.ok(loaded.length <= 16, loaded.join("\n"));
});

Deno.test("list and permissions load no validator, Hyperjump, adapter or MCP SDK (only YAML)", async () => {
  const loaded = [...await staticGraph("cli/commands/inspect.ts")];
  const heavy = loaded.filter((s) =>
    /hyperjump|modelcontextprotocol|re2js|\/adapter\/mod\.ts$|\/model\/(mod|default_validator|_hyperjump)\.ts$|\/run\/(mod|runner)\.ts$/
      .test(s)
  );
  assert.deepEqual(heavy, []);
});

Deno.test("help's format names are the adapter registry's", async () => {
  const { FORMATS } = await import("../../cli/_help.ts");
  const { defaultRegistry } = await import("../../adapter/mod.ts");
  assert.deepEqual([...FORMATS], defaultRegistry().list());
});

Deno.test("cli.ts is a thin entry point: the bundle of cli/main.ts, typed by cli/main.ts", async () => {
  const text = await Deno.readTextFile(new URL("cli.ts", ROOT));
  const imports = [...text.matchAll(/^import .* from "([^"]+)";$/gm)].map((m) => m[1]);
  assert.deepEqual(imports, ["./cli/_generated/cli/main.js"]);
  assert.match(text, /^\/\/ @ts-types="\.\/cli\/main\.ts"\nimport /m);
});

Deno.test("--version prints deno.json's version", async () => {
  const config = JSON.parse(await Deno.readTextFile(new URL("deno.json", ROOT)));
  const out: string[] = [];
  assert.equal(await main(["--version"], { io: { stdout: (text) => out.push(text) } }), 0);
  assert.equal(out.join(""), `toolfoundation ${config.version}\n`);
});

Deno.test("main of cli/mod.ts is cli/main.ts's and answers --version with exit 0", async () => {
  assert.equal(exported, main);
  const out: string[] = [];
  const code = await main(["--version"], { io: { stdout: (text) => out.push(text) } });
  assert.equal(code, 0);
  assert.match(out.join(""), /^toolfoundation \d+\.\d+\.\d+\n$/);
});

Deno.test("cli/mod.ts exports the command line as a function and nothing of the workspace", async () => {
  const entry = await import("../../cli/mod.ts");
  assert.deepEqual(Object.keys(entry).sort(), ["main"]);
});
