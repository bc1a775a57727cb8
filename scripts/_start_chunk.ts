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
import { decodeMappings, encodeMappings, type Segment, segmentAt } from "./_source_map_segments.ts";
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
 * The merged chunk's map, from the second pass's (merged → chunks) and each
 * chunk's own (chunk → sources): every position maps where the chunk's map
 * said its code came from. The second pass maps to each chunk as Deno's
 * loader gave it to the bundler (printed again, with other whitespace: the
 * map's `sourcesContent`), so a position there is first found in the chunk
 * as written, character by character outside whitespace.
 */
function composedMap(
  passMap: string,
  chunks: Map<string, { text: string; map: string | undefined }>,
  name: string,
): string {
  const pass = JSON.parse(passMap);
  const sources: string[] = [];
  const index = (source: string) => {
    const at = sources.indexOf(source);
    return at >= 0 ? at : sources.push(source) - 1;
  };
  const inputs = (pass.sources as string[]).map((path, at) => {
    const chunk = chunks.get(path.split("/").pop()!);
    if (chunk?.map === undefined) return undefined;
    const map = JSON.parse(chunk.map);
    const printed: string = pass.sourcesContent?.[at] ?? chunk.text;
    return {
      sources: (map.sources ?? []) as string[],
      lines: decodeMappings(map.mappings ?? ""),
      printed: lineStarts(printed),
      written: lineStarts(chunk.text),
      offsets: alignedOffsets(printed, chunk.text),
    };
  });
  const lines = decodeMappings(pass.mappings).map((segments) =>
    segments.flatMap((segment): Segment[] => {
      if (segment.source === undefined) return [];
      const input = inputs[segment.source];
      if (input === undefined) return [];
      const printedAt = (input.printed[segment.line!] ?? 0) + segment.sourceColumn!;
      const offset = input.offsets[Math.min(printedAt, input.offsets.length - 1)];
      const at = position(input.written, offset);
      const found = segmentAt(input.lines, at.line, at.column);
      if (found?.source === undefined) return [];
      return [{
        column: segment.column,
        source: index(input.sources[found.source]),
        line: found.line,
        sourceColumn: found.sourceColumn,
      }];
    })
  );
  return JSON.stringify({
    version: 3,
    file: name,
    sources,
    names: [],
    mappings: encodeMappings(lines),
  });
}

/** The offset each line of a text starts at. */
function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) starts.push(i + 1);
  return starts;
}

/** The line and column of an offset, from the text's line starts. */
function position(starts: number[], offset: number): { line: number; column: number } {
  let low = 0, high = starts.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (starts[mid] <= offset) low = mid;
    else high = mid - 1;
  }
  return { line: low, column: offset - starts[low] };
}

/**
 * For each offset of `printed`, the offset of the same character in
 * `written` (the same code, whitespace aside; where the printer changed a
 * few characters the two are aligned again on the next eight that agree).
 * A blank maps to the next character that maps.
 */
function alignedOffsets(printed: string, written: string): Int32Array {
  const solid = (text: string) => {
    const at: number[] = [];
    let chars = "";
    for (let i = 0; i < text.length; i++) {
      if (!/\s/.test(text[i])) {
        at.push(i);
        chars += text[i];
      }
    }
    return { at, chars };
  };
  const p = solid(printed), w = solid(written);
  const offsets = new Int32Array(printed.length + 1).fill(-1);
  let i = 0, j = 0;
  while (i < p.chars.length && j < w.chars.length) {
    if (p.chars[i] === w.chars[j]) {
      offsets[p.at[i++]] = w.at[j++];
      continue;
    }
    let moved = false;
    for (let d = 1; d <= 64 && !moved; d++) {
      if (p.chars.startsWith(w.chars.slice(j, j + 8), i + d)) [i, moved] = [i + d, true];
      else if (w.chars.startsWith(p.chars.slice(i, i + 8), j + d)) [j, moved] = [j + d, true];
    }
    if (!moved) [i, j] = [i + 1, j + 1];
  }
  let next = written.length;
  for (let k = printed.length; k >= 0; k--) {
    if (offsets[k] === -1) offsets[k] = next;
    else next = offsets[k];
  }
  return offsets;
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

/** A map with each segment after an edit on its line moved by what the edits before it grew. */
function movedColumns(
  mapText: string,
  text: string,
  edits: Array<{ start: number; end: number; text: string }>,
): string {
  const map = JSON.parse(mapText);
  const lines = decodeMappings(map.mappings);
  const lineStarts = [0];
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) lineStarts.push(i + 1);
  const position = (offset: number) => {
    let line = 0;
    while (line + 1 < lineStarts.length && lineStarts[line + 1] <= offset) line++;
    return { line, column: offset - lineStarts[line] };
  };
  // Last edit first: an earlier edit's columns are those of the original line.
  for (const edit of [...edits].reverse()) {
    const start = position(edit.start);
    const end = position(edit.end);
    if (start.line !== end.line) throw new Error("an import spans lines: its map cannot be moved");
    const delta = edit.text.length - (edit.end - edit.start);
    for (const segment of lines[start.line] ?? []) {
      if (segment.column >= end.column) segment.column += delta;
      else if (segment.column > start.column) segment.column = start.column;
    }
  }
  map.mappings = encodeMappings(lines);
  return JSON.stringify(map);
}
