// Private to scripts/_cli_bundle.ts: the bundle without the chunks that hold
// no code of their own.
//
// Why: before `main` runs, Deno reads every chunk it can reach through the
// bundle's imports, dynamic ones included, to build the module graph, and
// that costs by the file more than by the byte (measured with callgrind on
// `cli.ts --help`: about 0.35 M instructions a file, 0.5 M for the 103 KB
// YAML chunk). `deno bundle` writes two kinds of files that only cost:
// - a facade: the chunk a dynamic import names when the module it imports
//   lives in a chunk shared with others; it only imports chunks and
//   re-exports some of their names (`import{a}from"./chunk-X.js";
//   import"./chunk-Y.js";export{a as Runner};`);
// - an empty chunk (modules of types only), imported for its (no) effects.
// Here each `import("./facade.js")` becomes `__load("./facade.js")` (the
// same length, so every column stays where the source map says), and
// `__load`, on the chunk's prologue line, imports the facade's chunks one
// after the other in its order (as its static imports were evaluated) and
// answers an object whose getters read the facade's names from them (live,
// as a module namespace's are), leaving out the chunks an earlier one reaches
// (evaluated with it: importing them again would do nothing). An import of an
// empty chunk is blanked. The facades and empty chunks are then left out of
// the bundle.
//
// The chunks' own static side-effect imports of chunks an earlier import
// already reaches are blanked afterwards, outside the entry chunks of the
// commands whose start-up counts most (scripts/_redundant_imports.ts).

import type { BundleFile } from "./_stable_chunk_names.ts";

/** A chunk with its facade imports rewritten, and the prologue its `__load` needs. */
export interface FacadeFreeChunk {
  /** The chunk, same length and lines. */
  text: string;
  /** `const __load=...;`, or "" when the chunk imports no facade. */
  prologue: string;
}

/** What a facade does: the chunks it imports in order, and where each name it exports comes from. */
interface Facade {
  imports: string[];
  exports: Array<{ name: string; chunk: number; imported: string }>;
}

const HELPER = "__load";
const SOURCE_MAP_COMMENT = /^\/\/# sourceMappingURL=.*$/m;
const IMPORT = /^import\s*(?:\{([^}]*)\}\s*from\s*)?"\.\/([\w.-]+\.js)";?/;
const EXPORT = /^export\s*\{([^}]*)\};?/;
const DYNAMIC = /(?<![\w$."'`])import\s*\(\s*"\.\/([\w.-]+\.js)"\s*\)/g;
const SIDE_EFFECT = /(?<![\w$."'`])import\s*"\.\/([\w.-]+\.js)"\s*;?/g;
const STATIC = /(?<![\w$."'`])(?:import|export)\s*(?:[^;"]*?\s*from\s*)?"\.\/([\w.-]+\.js)"\s*;?/g;
const STATIC_FROM = /(?<![\w$."'`])(?:import|export)\s*[^;"]*?from\s*"\.\/([\w.-]+\.js)"/g;

/** The facade a chunk's code is, or undefined when it holds anything else. */
function facadeOf(text: string): Facade | undefined {
  let code = text.replace(SOURCE_MAP_COMMENT, "").trim();
  const imports: string[] = [];
  const locals = new Map<string, { chunk: number; imported: string }>();
  for (let match = IMPORT.exec(code); match !== null; match = IMPORT.exec(code)) {
    const chunk = imports.push(match[2]) - 1;
    for (const item of (match[1] ?? "").split(",").map((s) => s.trim()).filter(Boolean)) {
      const [imported, local = imported] = item.split(/\s+as\s+/);
      locals.set(local, { chunk, imported });
    }
    code = code.slice(match[0].length).trimStart();
  }
  const exports: Facade["exports"] = [];
  const exported = EXPORT.exec(code);
  if (exported !== null) {
    for (const item of exported[1].split(",").map((s) => s.trim()).filter(Boolean)) {
      const [local, name = local] = item.split(/\s+as\s+/);
      const from = locals.get(local);
      if (from === undefined || !/^[\w$]+$/.test(name)) return undefined;
      exports.push({ name, ...from });
    }
    code = code.slice(exported[0].length).trim();
  }
  return code === "" ? { imports, exports } : undefined;
}

/**
 * The bundle's files without facades and empty chunks, and for each chunk
 * left the prologue its rewritten imports need (by file name). A facade that
 * a file imports statically stays.
 */
export function withoutFacades(
  files: BundleFile[],
): { files: BundleFile[]; prologues: Map<string, string> } {
  const texts = new Map(files.filter((f) => f.name.endsWith(".js")).map((f) => [f.name, f.text]));
  const facades = new Map<string, Facade>();
  for (const [name, text] of texts) {
    const facade = facadeOf(text);
    if (facade !== undefined && name !== "main.js") facades.set(name, facade);
  }
  const empty = (name: string) => {
    const facade = facades.get(name);
    return facade !== undefined && facade.imports.length === 0 && facade.exports.length === 0;
  };
  // Kept: a facade any file imports statically, another facade included (an
  // empty chunk's import is blanked instead).
  for (const text of texts.values()) {
    for (const match of text.matchAll(STATIC_FROM)) facades.delete(match[1]);
    for (const match of text.matchAll(SIDE_EFFECT)) if (!empty(match[1])) facades.delete(match[1]);
  }
  const reached = staticReach(files);
  const prologues = new Map<string, string>();
  const out: BundleFile[] = [];
  for (const file of files) {
    const chunk = file.name.replace(/\.map$/, "");
    if (facades.has(chunk)) continue;
    if (!file.name.endsWith(".js")) {
      out.push(file);
      continue;
    }
    const used = new Map<string, Facade>();
    let text = file.text.replace(DYNAMIC, (whole, name) => {
      const facade = facades.get(name);
      if (facade === undefined) return whole;
      used.set(name, facade);
      const call = `${HELPER}(${JSON.stringify(`./${name}`)})`;
      if (call.length > whole.length) {
        throw new Error(`${file.name}: ${call} is longer than ${whole}`);
      }
      return call.padEnd(whole.length, " ");
    });
    text = text.replace(
      SIDE_EFFECT,
      (whole, name) => empty(name) ? " ".repeat(whole.length) : whole,
    );
    if (used.size > 0 && file.text.includes(HELPER)) {
      throw new Error(`${file.name} already uses the name ${HELPER}`);
    }
    if (used.size > 0) prologues.set(file.name, prologue(used, empty, reached));
    out.push({ name: file.name, text });
  }
  return { files: out, prologues };
}

/** `const __load=(m)=>({"./f.js":async()=>{...}})[m]();` for the facades a chunk imports. */
function prologue(
  used: Map<string, Facade>,
  empty: (name: string) => boolean,
  reached: (chunk: string) => Set<string>,
): string {
  const entries = [...used].sort(([a], [b]) => a < b ? -1 : 1).map(([name, facade]) => {
    const bound = new Set(facade.exports.map((e) => e.chunk));
    const before = new Set<string>();
    const loads = facade.imports.map((chunk, i) => {
      if (empty(chunk) || (before.has(chunk) && !bound.has(i))) return "";
      before.add(chunk);
      for (const further of reached(chunk)) before.add(further);
      const load = `await import(${JSON.stringify(`./${chunk}`)});`;
      return bound.has(i) ? `const m${i}=${load}` : load;
    }).join("");
    const getters = facade.exports.map(({ name, chunk, imported }) =>
      `get ${name}(){return m${chunk}[${JSON.stringify(imported)}]}`
    ).join(",");
    return `${JSON.stringify(`./${name}`)}:async()=>{${loads}return{${getters}}}`;
  });
  return `const ${HELPER}=(m)=>({${entries.join(",")}})[m]();`;
}

/**
 * What each chunk reaches through static imports (the chunks evaluated before
 * it, or with it, when it is imported), from the files' text.
 */
function staticReach(files: BundleFile[]): (chunk: string) => Set<string> {
  const imports = new Map<string, string[]>();
  for (const { name, text } of files) {
    if (name.endsWith(".js")) imports.set(name, [...text.matchAll(STATIC)].map((m) => m[1]));
  }
  const reach = new Map<string, Set<string>>();
  const reached = (chunk: string, trail: string[] = []): Set<string> => {
    const known = reach.get(chunk);
    if (known !== undefined) return known;
    if (trail.includes(chunk)) throw new Error(`chunks import one another: ${trail.join(" -> ")}`);
    const all = new Set<string>();
    for (const next of imports.get(chunk) ?? []) {
      all.add(next);
      for (const further of reached(next, [...trail, chunk])) all.add(further);
    }
    reach.set(chunk, all);
    return all;
  };
  return (chunk) => reached(chunk);
}
