// Start-up: what a command actually loads when it runs, dynamic
// imports included, read from Deno's debug log (each module compiled: "V8
// code cache hit/miss/updating for ES module|script: <specifier>"). Most
// checks run the TypeScript sources (cli/main.ts), where module names say what
// loaded; `cli.ts` runs the same code bundled (scripts/_cli_bundle.ts), split
// at the same dynamic imports, checked at the end.
import assert from "node:assert/strict";

const ROOT = new URL("../../", import.meta.url);
const MODULE = /code cache[^:]*? for (?:ES module|script): (\S+?),/;

/** Deno's debug log (standard error) of `deno run <flags> <entry> <args>`, and its exit code. */
async function debugLog(
  entry: string,
  args: string[],
  flags: string[],
): Promise<{ code: number; lines: string[] }> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--log-level=debug", ...flags, entry, ...args],
    cwd: ROOT,
    stdin: "null",
    stdout: "null",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).output();
  return { code: out.code, lines: new TextDecoder().decode(out.stderr).split("\n") };
}

/** The modules `deno run <entry> <args>` compiles, and its exit code. */
async function loaded(
  args: string[],
  flags: string[] = [],
  entry = "cli/main.ts",
): Promise<{ code: number; modules: string[] }> {
  const { code, lines } = await debugLog(entry, args, flags);
  return {
    code,
    modules: lines.map((line) => MODULE.exec(line)?.[1]).filter((m) => m !== undefined),
  };
}

const READ = ["--allow-read=examples,tests"];
const HEAVY = /hyperjump|modelcontextprotocol|re2js|\/adapter\/|\/model\/default_validator\.ts$/;

// `--help` exits before Deno writes its code cache, so with a fresh cache its
// log names no module: what it loads is checked on the static graph instead
// (tests/cli/main_test.ts), and below for the bundle by what Deno fetches.

Deno.test("list of a valid manifest loads no validator, Hyperjump, adapter or MCP SDK", async () => {
  const { code, modules } = await loaded(["list", "examples/tools.yaml"], READ);
  assert.equal(code, 0);
  // The manifest is in the subset workspace/_yaml_subset.ts reads: no full YAML parser.
  assert.ok(modules.some((m) => m.endsWith("/workspace/_yaml_subset.ts")), modules.join("\n"));
  assert.deepEqual(modules.filter((m) => /_generated\/yaml\.js$|_yaml_position/.test(m)), []);
  assert.deepEqual(modules.filter((m) => HEAVY.test(m)), []);
  assert.deepEqual(modules.filter((m) => /npm|node_modules/.test(m)), []);
});

Deno.test("list of a manifest outside the YAML subset loads npm:yaml's bundle, not the package", async () => {
  const dir = await Deno.makeTempDir({ dir: new URL("tests/", ROOT).pathname });
  try {
    const file = `${dir}/anchors.yaml`;
    await Deno.writeTextFile(
      file,
      "version: 1\ntools:\n  - &calc { name: x, builtin: calculate }\n",
    );
    const rel = file.slice(new URL(ROOT).pathname.length);
    const { code, modules } = await loaded(["list", rel], READ);
    assert.equal(code, 0);
    assert.ok(modules.some((m) => m.endsWith("/workspace/_generated/yaml.js")), modules.join("\n"));
    // The YAML parser is the bundle generated at build time, not npm:yaml's CommonJS build.
    assert.deepEqual(modules.filter((m) => /npm|node_modules/.test(m)), []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("list of a manifest the generated check refuses loads Hyperjump for its messages", async () => {
  const dir = await Deno.makeTempDir({ dir: new URL("tests/", ROOT).pathname });
  try {
    const file = `${dir}/bad.yaml`;
    await Deno.writeTextFile(
      file,
      "version: 1\ntools:\n  - name: x\n    builtin: calculate\n    oops: 1\n",
    );
    const rel = file.slice(new URL(ROOT).pathname.length);
    const { code, modules } = await loaded(["list", rel], READ);
    assert.equal(code, 2);
    assert.ok(modules.some((m) => /hyperjump/.test(m)), modules.join("\n"));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("validate loads the adapters only for --target, run a built-in no module-tool host", async () => {
  const plain = await loaded(["validate", "examples/tools.yaml"], READ);
  assert.equal(plain.code, 0);
  assert.deepEqual(plain.modules.filter((m) => /\/adapter\//.test(m)), []);
  const target = await loaded(["validate", "examples/tools.yaml", "--target", "openai"], READ);
  assert.equal(target.code, 0);
  assert.ok(target.modules.some((m) => /\/adapter\/mod\.ts$/.test(m)), target.modules.join("\n"));
  const run = await loaded(
    ["run", "examples/tools.yaml", "math:calculate", "--args", '{"operation":"add","a":1,"b":2}'],
    READ,
  );
  assert.equal(run.code, 0);
  assert.deepEqual(
    run.modules.filter((m) => /\/run\/module\/(module_tool|_\w+)\.ts$/.test(m)),
    [],
  );
  assert.deepEqual(run.modules.filter((m) => /\/adapter\/|yaml@|node:util/.test(m)), []);
  // The tool's schemas compile on the validator's fast path alone; a manifest
  // without servers loads no MCP client and no server-tools code.
  assert.deepEqual(
    run.modules.filter((m) =>
      /hyperjump|re2js|modelcontextprotocol|\/cli\/server_tools\.ts$/.test(m)
    ),
    [],
  );
  // Nor the MCP connection layer, providers, processes, chains, streams or the run/mod.ts barrel.
  assert.ok(run.modules.some((m) => m.endsWith("/run/runner.ts")), run.modules.join("\n"));
  const RUN_EXTRAS =
    /\/run\/(mcp\/\w+|command\/\w+|http\/\w+|process\/group|_chain_run|_stream_run|mod)\.ts$/;
  assert.deepEqual(run.modules.filter((m) => RUN_EXTRAS.test(m)), []);
  // A chain loads the chain machinery (and still no MCP layer).
  const chain = await loaded(["chain", "examples/tools.yaml", "area-report"], READ);
  assert.equal(chain.code, 0);
  assert.ok(chain.modules.some((m) => m.endsWith("/run/_chain_run.ts")), chain.modules.join("\n"));
  assert.deepEqual(chain.modules.filter((m) => /\/run\/mcp\/(pool|session)\.ts$/.test(m)), []);
});

Deno.test("run of a provider's tool loads that provider's module and no MCP connection layer", async () => {
  const dir = await Deno.makeTempDir({ dir: new URL("tests/", ROOT).pathname });
  try {
    const file = `${dir}/provider.yaml`;
    await Deno.writeTextFile(
      file,
      [
        "version: 1",
        "providers:",
        "  api:",
        "    url: http://127.0.0.1:9/tools",
        "tools:",
        "  - name: x",
        "    provider: api",
        "    inputSchema: { type: object }",
        "",
      ].join("\n"),
    );
    const rel = file.slice(new URL(ROOT).pathname.length);
    const { code, modules } = await loaded(
      ["run", rel, "x", "--args", "{}"],
      [...READ, "--allow-net=127.0.0.1:9"],
    );
    // The call itself fails (nothing answers there): the provider was set up and called.
    assert.equal(code, 1);
    assert.ok(modules.some((m) => m.endsWith("/run/http/http_provider.ts")), modules.join("\n"));
    assert.deepEqual(
      modules.filter((m) =>
        /\/run\/(mcp\/pool|command\/command_provider|mcp\/session)\.ts$/.test(m)
      ),
      [],
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

const BUNDLE = /\/cli\/_generated\/cli\/[\w.]+-[A-Z0-9]{8}\.js$|\/cli\/_generated\/cli\/main\.js$/;

/** The files Deno fetches for the module graph of `deno run <flags> cli.ts --help`. */
async function fetched(flags: string[] = []): Promise<string[]> {
  const { code, lines } = await debugLog("cli.ts", ["--help"], flags);
  assert.equal(code, 0);
  const FETCH = /FileFetcher::fetch_no_follow - specifier: (\S+)/;
  return [...new Set(lines.map((l) => FETCH.exec(l)?.[1]).filter((m) => m !== undefined))];
}

Deno.test("cli.ts runs the bundle: its graph is the bundle's chunks, none of the sources", async () => {
  const files = await fetched();
  assert.ok(files.some((m) => m.endsWith("/cli/_generated/cli/main.js")), files.join("\n"));
  // Every command's chunks (the dynamic imports are followed), and nothing else.
  assert.ok(files.length > 10, files.join("\n"));
  assert.deepEqual(files.filter((m) => !m.endsWith("/cli.ts") && !BUNDLE.test(m)), []);
  // ... all of them: no chunk is left unreachable (`deno compile` embeds the graph).
  const chunks = [...Deno.readDirSync(new URL("cli/_generated/cli/", ROOT))]
    .map((entry) => entry.name).filter((name) => name.endsWith(".js"));
  assert.deepEqual(
    chunks.filter((c) => !files.some((m) => m.endsWith(`/_generated/cli/${c}`))),
    [],
  );
});

Deno.test("cli.ts --help sets up no npm resolution; a command that needs a package loads it when it runs", async () => {
  // Every import Deno can follow in the bundle names a chunk or a node: module
  // (scripts/_lazy_externals.ts): packages are imported through __npm.
  const dir = new URL("cli/_generated/cli/", ROOT);
  const lazy = new Set<string>();
  const FOLLOWED = /(?<![\w$.\-"'`])(?:from\s*|import\s*\(?\s*)"([^"]+)"/g;
  for (const entry of Deno.readDirSync(dir)) {
    if (!entry.name.endsWith(".js")) continue;
    const text = Deno.readTextFileSync(new URL(entry.name, dir));
    const followed = [...text.matchAll(FOLLOWED)].map((m) => m[1]);
    assert.deepEqual(followed.filter((s) => !/^\.\/[\w.-]+\.js$|^node:/.test(s)), [], entry.name);
    for (const m of text.matchAll(/"(npm:[^"]+)"/g)) lazy.add(m[1]);
  }
  // deno compile sees them through externals.ts, which the compile task and bin/npm name.
  const externals = Deno.readTextFileSync(new URL("externals.ts", dir));
  const listed = [...externals.matchAll(/^import "(npm:[^"]+)";$/gm)].map((m) => m[1]);
  assert.ok(lazy.size > 5, [...lazy].join("\n"));
  assert.deepEqual(listed, [...lazy].sort());
  const config = JSON.parse(Deno.readTextFileSync(new URL("deno.json", ROOT)));
  assert.match(config.tasks.compile, / --include=cli\/_generated\/cli\/externals\.ts /);
  // ... and, with the lockfile's other packages left out, the binary holds those alone.
  assert.match(config.tasks.compile, / --exclude-unused-npm /);
  assert.equal(config.exports["./bin/npm"], "./cli/_generated/cli/externals.ts");
  // Deno logs its npm resolution when it sets it up: never for --help ...
  const NPM = /deno_npm_installer/;
  const help = await debugLog("cli.ts", ["--help"], []);
  assert.equal(help.code, 0);
  assert.deepEqual(help.lines.filter((l) => NPM.test(l)), []);
  // ... and when a command runs a chunk that imports a package (Hyperjump's messages here).
  const tmp = await Deno.makeTempDir({ dir: new URL("tests/", ROOT).pathname });
  try {
    await Deno.writeTextFile(`${tmp}/bad.yaml`, "version: 1\ntools:\n  - name: x\n    oops: 1\n");
    const rel = `${tmp}/bad.yaml`.slice(new URL(ROOT).pathname.length);
    const bad = await debugLog("cli.ts", ["list", rel], READ);
    assert.equal(bad.code, 2);
    assert.ok(bad.lines.some((l) => NPM.test(l)), bad.lines.join("\n"));
    assert.ok(bad.lines.some((l) => /oops/.test(l)), bad.lines.join("\n"));
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});

Deno.test("the bundle holds no chunk that only imports other chunks (each costs Deno a file at every start)", () => {
  // `deno bundle`'s facades and empty chunks are left out by scripts/_chunk_facades.ts.
  const dir = new URL("cli/_generated/cli/", ROOT);
  const onlyImports: string[] = [];
  for (const entry of Deno.readDirSync(dir)) {
    if (!entry.name.endsWith(".js")) continue;
    const code = Deno.readTextFileSync(new URL(entry.name, dir)).split("\n")
      .filter((line) => !line.startsWith("//") && !line.startsWith("const __"))
      .join("\n")
      .replace(/import\s*(?:\{[^}]*\}\s*from\s*)?"[^"]*"\s*;?/g, "")
      .replace(/export\s*\{[^}]*\}\s*;?/g, "")
      .trim();
    if (code === "") onlyImports.push(entry.name);
  }
  assert.deepEqual(onlyImports, []);
});

Deno.test("the bundle's chunks import no chunk an earlier import reaches, but run's and list's entries", () => {
  // scripts/_redundant_imports.ts: each import costs Deno at every start; the
  // entries of the commands that start most often keep their flat list.
  const dir = new URL("cli/_generated/cli/", ROOT);
  const texts = new Map<string, string>();
  for (const entry of Deno.readDirSync(dir)) {
    if (entry.name.endsWith(".js")) {
      texts.set(entry.name, Deno.readTextFileSync(new URL(entry.name, dir)));
    }
  }
  const STATIC = /(?<![\w$."'`])(?:import|export)\s*([^;"]*?\s*from\s*)?"\.\/([\w.-]+\.js)"/g;
  const reach = new Map<string, Set<string>>();
  const reached = (name: string): Set<string> => {
    if (!reach.has(name)) {
      const all = new Set<string>();
      for (const [, , chunk] of texts.get(name)!.matchAll(STATIC)) {
        all.add(chunk);
        for (const further of reached(chunk)) all.add(further);
      }
      reach.set(name, all);
    }
    return reach.get(name)!;
  };
  const redundant = new Map<string, number>();
  for (const [name, text] of texts) {
    const before = new Set<string>();
    for (const [whole, bound, chunk] of text.matchAll(STATIC)) {
      if (bound === undefined && whole.startsWith("import") && before.has(chunk)) {
        redundant.set(name, (redundant.get(name) ?? 0) + 1);
      }
      before.add(chunk);
      for (const further of reached(chunk)) before.add(further);
    }
  }
  const main = Deno.readTextFileSync(new URL("main.js", dir));
  // The chunk main.js imports when the command runs.
  const entry = (command: string) =>
    new RegExp(`\\["${command}",\\(\\)=>import\\("\\./([\\w.-]+\\.js)"\\)`).exec(main)?.[1];
  // main.js keeps its flat list too, but it imports one chunk (the start chunk, next test).
  const flat = ["main.js", entry("run"), entry("list")];
  assert.ok(flat.every((name) => name !== undefined && texts.has(name)), flat.join(", "));
  assert.deepEqual([...redundant.keys()].filter((name) => !flat.includes(name)), []);
  // The flat lists are there (the chunk choice is not empty).
  assert.ok(flat.slice(1).every((name) => redundant.has(name!)), JSON.stringify([...redundant]));
});

Deno.test("main.js imports one chunk before any command: the start chunk, which imports no chunk", () => {
  // scripts/_start_chunk.ts: the chunks main.js needs at every start are one
  // file (Deno's graph costs by the file); a command's chunks import it too.
  const dir = new URL("cli/_generated/cli/", ROOT);
  const STATIC = /(?<![\w$."'`])(?:import|export)\s*(?:[^;"]*?\s*from\s*)?"\.\/([\w.-]+\.js)"/g;
  const importsOf = (name: string) =>
    new Set(
      [...Deno.readTextFileSync(new URL(name, dir)).matchAll(STATIC)].map((m) => m[1]),
    );
  const fromMain = [...importsOf("main.js")];
  assert.equal(fromMain.length, 1, fromMain.join(", "));
  assert.match(fromMain[0], /^start-[A-Z2-7]{8}\.js$/);
  assert.deepEqual([...importsOf(fromMain[0])], []);
  const main = Deno.readTextFileSync(new URL("main.js", dir));
  const run = /\["run",\(\)=>import\("\.\/([\w.-]+\.js)"\)/.exec(main)?.[1];
  assert.ok(run !== undefined && importsOf(run).has(fromMain[0]), `${run} imports ${fromMain[0]}`);
});

Deno.test("cli.ts's run of a built-in compiles only chunks of the bundle, no npm package", async () => {
  const run = await loaded(
    ["run", "examples/tools.yaml", "math:calculate", "--args", '{"operation":"add","a":1,"b":2}'],
    READ,
    "cli.ts",
  );
  assert.equal(run.code, 0);
  assert.ok(run.modules.some((m) => BUNDLE.test(m)), run.modules.join("\n"));
  assert.deepEqual(run.modules.filter((m) => !m.endsWith("/cli.ts") && !BUNDLE.test(m)), []);
});

Deno.test("opt-in lazy dynamic imports: a command's chunks load only when it runs", async () => {
  const lazy = "--unstable-lazy-dynamic-imports";
  // --help: without the flag Deno fetches every command's chunks; with it, none of them.
  const COMMAND = /\/cli\/_generated\/cli\/(run|inspect|chain|serve)-[A-Z0-9]{8}\.js$/;
  const eager = await fetched();
  const help = await fetched([lazy]);
  assert.ok(eager.some((m) => COMMAND.test(m)), eager.join("\n"));
  assert.deepEqual(help.filter((m) => COMMAND.test(m)), []);
  assert.ok(help.length < eager.length, `${help.length} of ${eager.length}`);
  // list still runs, from the same chunks as without the flag.
  const plain = await loaded(["list", "examples/tools.yaml"], READ, "cli.ts");
  assert.equal(plain.code, 0);
  const list = await loaded(["list", "examples/tools.yaml"], [
    lazy,
    "--allow-read=examples,cli/_generated/cli",
  ], "cli.ts");
  assert.equal(list.code, 0);
  // As sets: a first run may log a module's cache miss and then its update.
  const distinct = (modules: string[]) => [...new Set(modules)].sort();
  assert.deepEqual(distinct(list.modules), distinct(plain.modules));
  assert.ok(
    list.modules.some((m) => /\/inspect-[A-Z0-9]{8}\.js$/.test(m)),
    list.modules.join("\n"),
  );
});

Deno.test("opt-in lazy dynamic imports without read access to the CLI's source: exit 3, named", async () => {
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--quiet",
      "--unstable-lazy-dynamic-imports",
      "--allow-read=examples",
      "cli.ts",
      "list",
      "examples/tools.yaml",
    ],
    cwd: ROOT,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).output();
  const stderr = new TextDecoder().decode(out.stderr);
  assert.equal(out.code, 3, stderr);
  assert.equal(out.stdout.length, 0);
  assert.match(
    stderr,
    /^error: missing permission: Requires read access to ".*\/cli\/_generated\/cli\/[\w-]+\.js"/,
  );
  assert.match(stderr, /grant read access to its source/);
});
