// The adapter layer shows its design: few files at the top, one folder per
// provider and per piece of private machinery (reached only through its
// mod.ts), no import cycle, and provider names only in their own folders.
import assert from "node:assert/strict";

const ADAPTER = new URL("../../adapter/", import.meta.url);

interface InfoModule {
  specifier: string;
  dependencies?: Array<{ code?: { specifier: string }; type?: { specifier: string } }>;
}

/** The imports between adapter modules (`types`: type-only imports too). */
async function importGraph(types = false): Promise<Map<string, string[]>> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", new URL("mod.ts", ADAPTER).href],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.ok(out.success, new TextDecoder().decode(out.stderr));
  const info = JSON.parse(new TextDecoder().decode(out.stdout)) as { modules: InfoModule[] };
  const graph = new Map<string, string[]>();
  for (const module of info.modules) {
    if (!module.specifier.startsWith(ADAPTER.href)) continue;
    const local = (module.dependencies ?? [])
      .flatMap((dep) => [dep.code?.specifier, types ? dep.type?.specifier : undefined])
      .filter((s): s is string => s !== undefined && s.startsWith(ADAPTER.href));
    graph.set(
      module.specifier.slice(ADAPTER.href.length),
      local.map((s) => s.slice(ADAPTER.href.length)),
    );
  }
  return graph;
}

async function sources(dir: URL, prefix = ""): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  for await (const entry of Deno.readDir(dir)) {
    const path = prefix + entry.name;
    if (entry.isDirectory) {
      for (const [p, text] of await sources(new URL(`${entry.name}/`, dir), `${path}/`)) {
        found.set(p, text);
      }
    } else if (entry.name.endsWith(".ts")) {
      found.set(path, await Deno.readTextFile(new URL(entry.name, dir)));
    }
  }
  return found;
}

Deno.test("adapter/ has at most 20 files at the top and a folder per provider", async () => {
  const top: string[] = [];
  const folders: string[] = [];
  for await (const entry of Deno.readDir(ADAPTER)) {
    (entry.isDirectory ? folders : top).push(entry.name);
  }
  assert.ok(top.length <= 20, `${top.length} files: ${top.sort().join(", ")}`);
  for (const provider of ["mcp", "openai", "openai_responses", "anthropic", "gemini"]) {
    assert.ok(folders.includes(provider), provider);
  }
});

function assertAcyclic(graph: Map<string, string[]>): void {
  const state = new Map<string, "open" | "done">();
  const visit = (module: string, trail: string[]): void => {
    if (state.get(module) === "done") return;
    assert.notEqual(state.get(module), "open", `cycle: ${[...trail, module].join(" -> ")}`);
    state.set(module, "open");
    for (const next of graph.get(module) ?? []) visit(next, [...trail, module]);
    state.set(module, "done");
  };
  for (const module of graph.keys()) visit(module, []);
}

Deno.test("adapter modules import one another without a cycle, type imports included", async () => {
  const graph = await importGraph(true);
  assert.ok(graph.size > 40);
  assertAcyclic(graph);
});

Deno.test("the schema walk's files import one another without a cycle, type imports included", async () => {
  const graph = await importGraph(true);
  const walk = new Map(
    [...graph]
      .filter(([module]) => module.startsWith("_walk"))
      .map(([module, imports]) => [module, imports.filter((i) => i.startsWith("_walk"))]),
  );
  assert.ok(walk.size >= 8, [...walk.keys()].join(", "));
  assertAcyclic(walk);
});

Deno.test("private folders are reached from outside only through their mod.ts", async () => {
  const graph = await importGraph();
  for (const [module, imports] of graph) {
    for (const target of imports) {
      const folder = target.match(/^(_[a-z_]+)\//)?.[1];
      if (folder === undefined || module.startsWith(`${folder}/`)) continue;
      assert.equal(target, `${folder}/mod.ts`, `${module} imports ${target}`);
    }
  }
});

Deno.test("a provider's format name is written as a string only in its own folder", async () => {
  const files = await sources(ADAPTER);
  const providers = {
    mcp: "mcp",
    openai: "openai",
    "openai-responses": "openai_responses",
    anthropic: "anthropic",
    gemini: "gemini",
  };
  for (const [path, text] of files) {
    const code = text.split("\n").filter((line) => !/^\s*(\*|\/\/|\/\*)/.test(line)).join("\n");
    for (const [format, folder] of Object.entries(providers)) {
      if (path.startsWith(`${folder}/`)) continue;
      // openai-responses reuses OpenAI's function-tool conversion, "openai" provider fields included
      if (format === "openai" && path.startsWith("openai_responses/")) continue;
      assert.ok(!code.includes(`"${format}"`), `${path} names "${format}"`);
    }
  }
});
