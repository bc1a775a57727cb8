// Private to scripts/_cli_bundle.ts: the chunks `main.js` imports before any
// command runs (it and all they import) merged into one chunk, by a second
// `deno bundle` pass over them, its source map composed with theirs, and
// every import of one of them pointed at the merged chunk.
//
// Why: before `main` runs, Deno builds its module graph from every import it
// can follow in the bundle, and that costs by the file far more than by the
// byte (docs/benchmarks.md, "CLI start-up"). `deno bundle` splits the modules
// `main.js` needs into as many chunks as there are sets of commands sharing
// them (eight), each a file Deno resolves, loads and instantiates at every
// start; as one chunk, `--help` builds its graph with about 4% fewer
// instructions (callgrind), and every command with it.
//
// Exact: `main.js` imports each of these chunks statically, so all of them
// are evaluated before `main.js`'s own code at every start, in the order of
// its imports, and only then can any other chunk load (a command's chunks
// are imported dynamically, by `main`). The merged chunk evaluates the same
// modules once, in the same order (the second pass's entry imports them in
// `main.js`'s order); another chunk's import of one of them now names the
// merged chunk and the merged name of the same binding (a live binding
// still: classes, `instanceof` and module state are shared as before).

import { denoBundle } from "./_deno_bundle.ts";
import { composedMap, movedColumns } from "./_start_chunk_maps.ts";
import type { BundleFile } from "./_stable_chunk_names.ts";

/** A static import or re-export of a chunk, as `deno bundle` writes them (minified). */
const STATIC =
  /(?<![\w$."'`])(import|export)\s*(?:(\{[^}]*\}|\*\s*as\s*[\w$]+)\s*from\s*)?"\.\/([\w.-]+\.js)"\s*;?/g;
const DYNAMIC = /(?<![\w$."'`])import\s*\(\s*"\.\/([\w.-]+\.js)"\s*\)/g;
/** A chunk's own export list (not a re-export). */
const EXPORTS = /(?<![\w$."'`])export\s*\{([^}]*)\}(?!\s*from)\s*;?/g;
const MAP_COMMENT = /^\/\/# sourceMappingURL=.*$/m;
const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

/** The files with the start chunks merged, and which were. */
export interface WithStartChunk {
  /** Every file: the merged chunks left out, the merged one and its map in. */
  files: BundleFile[];
  /** The merged chunk's name. */
  name: string;
  /** The chunks merged into it, in `main.js`'s order. */
  merged: string[];
}

/** Where the second pass runs and what it leaves external. */
export interface StartChunkOptions {
  /** The directory `deno bundle` runs in. */
  root: URL;
  /** A fresh directory under `root` (relative to it) for the second pass. */
  scratch: string;
  /** `deno bundle --external=` patterns (the npm packages and import-map names). */
  externals: string[];
}

/**
 * Merges the chunks `entry` statically imports (and all they import) into
 * one chunk, `start-<8 characters>.js` (named after the chunks it holds), and
 * rewrites every other file's imports of them. With fewer than two such
 * chunks the files come back as they are.
 */
export async function withStartChunk(
  files: BundleFile[],
  entry: string,
  options: StartChunkOptions,
): Promise<WithStartChunk> {
  const texts = new Map(files.map((f) => [f.name, f.text]));
  const entryText = texts.get(entry);
  if (entryText === undefined) throw new Error(`the bundle has no ${entry}`);
  const members: string[] = [];
  const visit = (name: string, trail: string[]) => {
    if (members.includes(name)) return;
    if (trail.includes(name)) throw new Error(`chunks import one another: ${trail.join(" -> ")}`);
    const text = texts.get(name);
    if (text === undefined) throw new Error(`${trail.at(-1)} imports ${name}, not in the bundle`);
    for (const match of text.matchAll(STATIC)) visit(match[3], [...trail, name]);
    const dynamic = text.match(DYNAMIC);
    if (dynamic !== null) {
      throw new Error(
        `${name}, which ${entry} imports, imports a chunk dynamically (${dynamic[0]}): not merged`,
      );
    }
    members.push(name);
  };
  for (const match of entryText.matchAll(STATIC)) visit(match[3], [entry]);
  if (members.length < 2) return { files, name: members[0] ?? "", merged: [] };
  // main.js's own imports first, in its order: the merged chunk evaluates as main.js did.
  const direct = [...entryText.matchAll(STATIC)].map((m) => m[3]);
  const ordered = [...new Set([...direct, ...members])];
  const name = `start-${await tag(ordered.toSorted().join("\n"))}.js`;

  // Each binding's name in the merged chunk.
  const renamed = new Map<string, string>();
  const entryLines: string[] = [];
  let count = 0;
  for (const member of ordered) {
    const items = exportsOf(texts.get(member)!).map((exported) => {
      const merged = shortName(count++);
      renamed.set(`${member}\0${exported}`, merged);
      return `${exported} as ${merged}`;
    });
    entryLines.push(
      items.length === 0 ? `import"./${member}";` : `export{${items.join(",")}}from"./${member}";`,
    );
  }

  const merged = await secondPass(texts, ordered, entryLines.join("\n"), options);
  const out: BundleFile[] = [];
  for (const file of files) {
    const chunk = file.name.replace(/\.map$/, "");
    if (ordered.includes(chunk)) continue;
    if (!file.name.endsWith(".js")) continue;
    const map = texts.get(`${file.name}.map`);
    const edited = pointedAtMerged(file.name, file.text, map, ordered, renamed, name);
    out.push({ name: file.name, text: edited.text });
    if (map !== undefined) out.push({ name: `${file.name}.map`, text: edited.map! });
  }
  for (const file of files) {
    // Files other than chunks and maps (none today) pass through.
    if (!file.name.endsWith(".js") && !file.name.endsWith(".js.map")) out.push(file);
  }
  const chunks = new Map(ordered.map((member) => [member, {
    text: texts.get(member)!.replace(MAP_COMMENT, ""),
    map: texts.get(`${member}.map`),
  }]));
  out.push({ name, text: merged.text.replace(MAP_COMMENT, `//# sourceMappingURL=${name}.map`) });
  out.push({ name: `${name}.map`, text: composedMap(merged.map, chunks, name) });
  return { files: out, name, merged: ordered };
}

/** The names a chunk exports (`export{x as a,b}` gives a and b). */
function exportsOf(text: string): string[] {
  return [...text.matchAll(EXPORTS)].flatMap((m) =>
    m[1].split(",").map((item) => item.trim()).filter((item) => item !== "")
      .map((item) => item.split(/\s+as\s+/).pop()!)
  );
}

/** a, b, ... z, A ... Z, then two letters (no keyword: do, if, in). */
function shortName(index: number): string {
  const letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
  for (let n = 0, found = 0;; n++) {
    let name = "";
    let rest = n;
    do {
      name = letters[rest % letters.length] + name;
      rest = Math.floor(rest / letters.length) - 1;
    } while (rest >= 0);
    if (["do", "if", "in"].includes(name)) continue;
    if (found++ === index) return name;
  }
}

/** Eight base-32 characters of the SHA-256 of a text. */
async function tag(text: string): Promise<string> {
  const digest = new Uint8Array(
    await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)),
  );
  return [...digest.slice(0, 8)].map((byte) => ALPHABET[byte % 32]).join("");
}

/** `deno bundle` of an entry that re-exports every member's bindings under merged names. */
async function secondPass(
  texts: Map<string, string>,
  members: string[],
  entry: string,
  options: StartChunkOptions,
): Promise<{ text: string; map: string }> {
  const dir = new URL(`${options.scratch}/`, options.root);
  await Deno.mkdir(new URL("in/", dir), { recursive: true });
  for (const member of members) {
    // Without its map comment: the second pass maps to the chunk, composed below.
    await Deno.writeTextFile(
      new URL(`in/${member}`, dir),
      texts.get(member)!.replace(MAP_COMMENT, ""),
    );
  }
  await Deno.writeTextFile(new URL("in/__start.js", dir), `${entry}\n`);
  // No --keep-names: the first pass's calls that name each function and class stay in the code.
  await denoBundle(options.root, [
    "--platform=deno",
    "--format=esm",
    "--minify",
    "--sourcemap=linked",
    ...options.externals.map((name) => `--external=${name}`),
    `--outdir=${options.scratch}/out`,
    `${options.scratch}/in/__start.js`,
  ]);
  const text = await Deno.readTextFile(new URL("out/__start.js", dir));
  const map = await Deno.readTextFile(new URL("out/__start.js.map", dir));
  if (STATIC.test(text) || DYNAMIC.test(text)) {
    throw new Error("the merged start chunk still imports a chunk of the bundle");
  }
  STATIC.lastIndex = DYNAMIC.lastIndex = 0;
  return { text, map };
}

/**
 * A file with each import of a merged chunk naming the merged chunk and the
 * bindings' merged names (a second side-effect import of it blanked), and its
 * map's columns moved by as much as each import grew.
 */
function pointedAtMerged(
  file: string,
  text: string,
  map: string | undefined,
  members: string[],
  renamed: Map<string, string>,
  name: string,
): { text: string; map?: string } {
  const edits: Array<{ start: number; end: number; text: string }> = [];
  // Every import of a merged chunk becomes one import of the merged chunk
  // (the first, with all their bindings): Deno's graph costs by the import.
  const imports: Array<{ start: number; end: number; text: string }> = [];
  const bindings: string[] = [];
  for (const match of text.matchAll(STATIC)) {
    const [whole, keyword, clause, chunk] = match;
    if (!members.includes(chunk)) continue;
    const start = match.index!;
    const end = start + whole.length;
    if (clause !== undefined && !clause.startsWith("{")) {
      throw new Error(
        `${file} imports ${chunk} as a namespace (${whole}): not supported when merging`,
      );
    }
    const items = (clause ?? "{}").slice(1, -1).split(",").map((item) => item.trim())
      .filter((item) => item !== "")
      .map((item) => {
        const [from, as = from] = item.split(/\s+as\s+/);
        const merged = renamed.get(`${chunk}\0${from}`);
        if (merged === undefined) {
          throw new Error(`${file} imports ${from} from ${chunk}, which does not export it`);
        }
        return `${merged} as ${as}`;
      });
    if (keyword === "export") {
      edits.push({ start, end, text: `export{${items.join(",")}}from"./${name}";` });
    } else {
      bindings.push(...items);
      const edit = { start, end, text: "" };
      imports.push(edit);
      edits.push(edit);
    }
  }
  if (imports.length > 0) {
    imports[0].text = bindings.length === 0
      ? `import"./${name}";`
      : `import{${bindings.join(",")}}from"./${name}";`;
  }
  if (text.match(DYNAMIC)?.some((found) => members.some((m) => found.includes(`"./${m}"`)))) {
    throw new Error(
      `${file} imports a chunk main.js imports dynamically: not supported when merging`,
    );
  }
  if (edits.length === 0) return { text, map };
  let out = "";
  let at = 0;
  for (const edit of edits) {
    out += text.slice(at, edit.start) + edit.text;
    at = edit.end;
  }
  out += text.slice(at);
  if (map === undefined) return { text: out };
  return { text: out, map: movedColumns(map, text, edits) };
}
