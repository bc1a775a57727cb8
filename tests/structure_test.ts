// The house's rules, checked on the tree as it is: few files at the top of a
// layer (its subsystems are folders), a layer's private files (`_`-prefixed,
// or in a `_` folder) imported only from within that layer, no import circle
// (type-only and dynamic imports included), a small `./cli` entry, one meaning
// per exported name, and a root entry that re-exports the model and the
// adapters whole. Each failure lists every offender, to be fixed where named.
//
// The import graph is read from the sources (tests/_import_graph.ts), checked
// against what Deno itself resolves from each entry point. Tests, benches,
// scripts and examples are not the package: they may import what they test.
import assert from "node:assert/strict";
import {
  type Import,
  importsOf,
  isGenerated,
  LAYERS,
  packageFiles,
  ROOT,
} from "./_import_graph.ts";

/** The most `.ts` files directly in a layer's folder; the rest live in its subfolders. */
const TOP_FILES: Record<string, number> = { cli: 20, run: 25 };
/** The most names `./cli` exports: the command line as a function and its types. */
const CLI_NAMES = 10;

const config = JSON.parse(await Deno.readTextFile(new URL("deno.json", ROOT))) as {
  exports: Record<string, string>;
};

/** The top-level folder a path is in (`.` for the root's files). */
function layerOf(path: string): string {
  return path.includes("/") ? path.slice(0, path.indexOf("/")) : ".";
}

/** Whether a file is private to its layer: `_`-prefixed, or in a `_` folder. */
function isPrivate(path: string): boolean {
  return !isGenerated(path) && path.split("/").some((part) => part.startsWith("_"));
}

function describe(i: Import): string {
  return `${i.from} imports ${i.to} (${i.kind}: "${i.specifier}")`;
}

Deno.test("cli/ and run/ keep at most 20 and 25 .ts files at their top, the rest in folders", async () => {
  const over: string[] = [];
  for (const [folder, most] of Object.entries(TOP_FILES)) {
    const top: string[] = [];
    for await (const entry of Deno.readDir(new URL(`${folder}/`, ROOT))) {
      if (entry.isFile && entry.name.endsWith(".ts")) top.push(entry.name);
    }
    if (top.length > most) {
      over.push(`${folder}/ has ${top.length} files (at most ${most}): ${top.sort().join(", ")}`);
    }
  }
  assert.ok(over.length === 0, `group a layer's subsystems in folders:\n${over.join("\n")}`);
});

Deno.test("no layer imports another layer's private file (`_` file or `_` folder)", async () => {
  const imports = await importsOf(await packageFiles());
  assert.ok(imports.length > 500, `only ${imports.length} imports found: is the parser broken?`);
  const offenders = imports
    .filter((i) => isPrivate(i.to) && layerOf(i.from) !== layerOf(i.to))
    .map(describe);
  assert.ok(
    offenders.length === 0,
    `${offenders.length} imports of another layer's private files: make what two layers ` +
      `share public in the lower one (or move it):\n${offenders.join("\n")}`,
  );
});

/** The strongly connected components of more than one file (or a file importing itself). */
function circles(imports: Import[]): string[][] {
  const graph = new Map<string, string[]>();
  for (const i of imports) {
    graph.set(i.from, [...graph.get(i.from) ?? [], i.to]);
    if (!graph.has(i.to)) graph.set(i.to, []);
  }
  // Tarjan's algorithm, iterative (the graph is deep).
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let next = 0;
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work: Array<[string, number]> = [[start, 0]];
    while (work.length > 0) {
      const frame = work[work.length - 1];
      const [node, at] = frame;
      if (at === 0) {
        index.set(node, next);
        low.set(node, next++);
        stack.push(node);
        onStack.add(node);
      }
      const targets = graph.get(node)!;
      if (at < targets.length) {
        frame[1]++;
        const target = targets[at];
        if (!index.has(target)) work.push([target, 0]);
        else if (onStack.has(target)) low.set(node, Math.min(low.get(node)!, index.get(target)!));
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1][0];
        low.set(parent, Math.min(low.get(parent)!, low.get(node)!));
      }
      if (low.get(node) === index.get(node)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.push(member);
        } while (member !== node);
        if (component.length > 1 || targets.includes(node)) found.push(component.sort());
      }
    }
  }
  return found.sort((a, b) => a[0] < b[0] ? -1 : 1);
}

Deno.test("the package's files import one another without a circle, type-only and dynamic imports included", async () => {
  const imports = (await importsOf(await packageFiles())).filter((i) => !isGenerated(i.to));
  const report = circles(imports).map((component) => {
    const members = new Set(component);
    const inside = imports.filter((i) => members.has(i.from) && members.has(i.to));
    return [
      `circle through ${component.length} files: ${component.join(", ")}; its imports:`,
      ...inside.map((i) => `  ${describe(i)}`),
    ].join("\n");
  });
  assert.ok(
    report.length === 0,
    `${report.length} import circles: declare what both sides need in the lower file (a type ` +
      `where it belongs, not in its consumer) and import it from there:\n${report.join("\n")}`,
  );
});

interface DocSymbol {
  name: string;
  declarations: Array<{ location: { filename: string; line: number } }>;
}

/** The names each entry point of deno.json exports and where each is declared, from `deno doc`. */
async function entryNames(): Promise<Map<string, Map<string, string>>> {
  const entries = Object.entries(config.exports).filter(([, path]) =>
    path.endsWith(".ts") && !isGenerated(path.slice(2))
  );
  // One `deno doc` per entry: given several files at once, it places a name
  // that an earlier file exported at the later file's re-export.
  const docs = await Promise.all(entries.map(async ([entry, path]) => {
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["doc", "--json", path],
      cwd: ROOT,
      stdout: "piped",
      stderr: "piped",
      env: { NO_COLOR: "1" },
    }).output();
    assert.ok(out.success, `deno doc ${path} failed:\n${new TextDecoder().decode(out.stderr)}`);
    const doc = JSON.parse(new TextDecoder().decode(out.stdout)) as {
      nodes: Record<string, { symbols: DocSymbol[] }>;
    };
    const node = doc.nodes[new URL(path, ROOT).href];
    assert.ok(node !== undefined, `deno doc said nothing of ${path}`);
    return [entry, node.symbols] as const;
  }));
  const names = new Map<string, Map<string, string>>();
  for (const [entry, symbols] of docs) {
    names.set(
      entry,
      new Map(symbols.map((symbol) => {
        const at = symbol.declarations[0]?.location;
        const where = at === undefined ? "?" : `${at.filename.slice(ROOT.href.length)}:${at.line}`;
        return [symbol.name, where];
      })),
    );
  }
  return names;
}

let entryNamesOnce: ReturnType<typeof entryNames> | undefined;
/** `entryNames()`, run once for the tests that need it. */
function names(): ReturnType<typeof entryNames> {
  return entryNamesOnce ??= entryNames();
}

Deno.test(`./cli exports at most ${CLI_NAMES} names: the command line as a function and its types`, async () => {
  const cli = (await names()).get("./cli");
  assert.ok(cli !== undefined, "deno.json exports no ./cli");
  const list = [...cli].map(([name, where]) => `${name} (${where})`).sort();
  assert.ok(
    list.length <= CLI_NAMES,
    `./cli exports ${list.length} names (at most ${CLI_NAMES}); export what the manifest layer ` +
      `owns from its own entry, and nothing a test alone needs:\n${list.join("\n")}`,
  );
});

Deno.test("a name exported by several entry points means one thing (one declaration)", async () => {
  const declared = new Map<string, Map<string, string[]>>();
  for (const [entry, symbols] of await names()) {
    for (const [name, where] of symbols) {
      const places = declared.get(name) ?? new Map<string, string[]>();
      places.set(where, [...places.get(where) ?? [], entry]);
      declared.set(name, places);
    }
  }
  const offenders = [...declared]
    .filter(([, places]) => places.size > 1)
    .map(([name, places]) =>
      `${name}: ${
        [...places].map(([where, entries]) => `${where} (${entries.join(", ")})`).join("; ")
      }`
    )
    .sort();
  assert.ok(
    offenders.length === 0,
    `${offenders.length} names declared twice: rename one, or export the one declaration:\n` +
      offenders.join("\n"),
  );
});

Deno.test("the root entry re-exports ./model and ./adapter whole (`export *`)", async () => {
  const text = await Deno.readTextFile(new URL(config.exports["."], ROOT));
  const problems: string[] = [];
  for (const layer of ["model", "adapter"]) {
    const line = `export * from "./${layer}/mod.ts";`;
    if (!text.split("\n").some((l) => l.trim() === line)) problems.push(`mod.ts lacks \`${line}\``);
  }
  const all = await names();
  const root = all.get(".")!;
  for (const entry of ["./model", "./adapter"]) {
    const missing = [...all.get(entry)?.keys() ?? []].filter((name) => !root.has(name)).sort();
    if (missing.length > 0) {
      problems.push(`${missing.length} names of ${entry} missing from ".": ${missing.join(", ")}`);
    }
  }
  assert.ok(problems.length === 0, problems.join("\n"));
});

Deno.test("the import graph read from the sources holds every import Deno resolves from the entry points", async () => {
  const parsed = new Set(
    (await importsOf(await packageFiles())).map((i) => `${i.from} -> ${i.to}`),
  );
  const missing = new Set<string>();
  for (const path of Object.values(config.exports)) {
    if (isGenerated(path.slice(2))) continue;
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["info", "--json", new URL(path, ROOT).href],
      stdout: "piped",
      stderr: "piped",
      env: { NO_COLOR: "1" },
    }).output();
    assert.ok(out.success, `deno info ${path} failed:\n${new TextDecoder().decode(out.stderr)}`);
    const info = JSON.parse(new TextDecoder().decode(out.stdout)) as {
      modules: Array<{
        specifier: string;
        dependencies?: Array<{ code?: { specifier: string }; type?: { specifier: string } }>;
      }>;
    };
    for (const module of info.modules) {
      if (!module.specifier.startsWith(ROOT.href)) continue;
      const from = module.specifier.slice(ROOT.href.length);
      if (
        isGenerated(from) || !LAYERS.some((l) => from.startsWith(`${l}/`)) && from.includes("/")
      ) {
        continue;
      }
      for (const dep of module.dependencies ?? []) {
        for (const to of [dep.code?.specifier, dep.type?.specifier]) {
          if (to === undefined || !to.startsWith(ROOT.href)) continue;
          const edge = `${from} -> ${to.slice(ROOT.href.length)}`;
          if (!parsed.has(edge)) missing.add(edge);
        }
      }
    }
  }
  assert.ok(
    missing.size === 0,
    `tests/_import_graph.ts misses these imports:\n${[...missing].sort().join("\n")}`,
  );
});
