// Private to scripts/_cli_bundle.ts: the chunks without the static
// side-effect imports of chunks that an earlier import of the same chunk
// already reaches, except in the entry chunks of the commands that start
// most often.
//
// Why: before `main` runs, Deno builds its module graph from every import it
// can follow in the bundle, every command's dynamic imports included, and
// that costs by the import as well as by the file. `deno bundle` lists in a
// chunk, after its bound imports, a side-effect import of every chunk it
// needs evaluated first, most of which an earlier import already reaches
// (about 280 of 650 imports). Blanking them makes `cli.ts --help` build its
// graph with about 8% fewer instructions (callgrind). They are not useless
// everywhere: in the entry chunk of a command (the file `main` imports when
// the command runs) the flat list lets Deno fetch the command's chunks at
// once; blanked there too, `run` of a built-in spent 15% more loading them,
// found one level of imports at a time. So they stay in `main.js` and in the
// entry chunks of the commands whose start-up counts (`run`, and `list` and
// its siblings), and go everywhere else.
//
// Exact: an import blanked here names a chunk that an earlier import of the
// same chunk evaluates, so it was already evaluated when this import came
// (evaluating it again does nothing), and the chunks each chunk reaches stay
// the same. The blank is spaces of the same length: every column stays where
// the source map says.

import type { BundleFile } from "./_stable_chunk_names.ts";

const STATIC =
  /(?<![\w$."'`])(?:import|export)\s*(?:([^;"]*?)\s*from\s*)?"\.\/([\w.-]+\.js)"\s*;?/g;

/** The files with redundant side-effect imports blanked, and how many were. */
export interface WithoutRedundantImports {
  /** Every file, each `.js` one the same length and lines. */
  files: BundleFile[];
  /** The number of imports blanked. */
  blanked: number;
}

/**
 * Blanks each static side-effect import (`import"./chunk-X.js";`) of a chunk
 * that an earlier import of the same file already reaches, in every `.js`
 * file but those `keep` names.
 */
export function withoutRedundantImports(
  files: BundleFile[],
  keep: ReadonlySet<string>,
): WithoutRedundantImports {
  const texts = new Map(files.filter((f) => f.name.endsWith(".js")).map((f) => [f.name, f.text]));
  const reach = new Map<string, Set<string>>();
  let blanked = 0;
  // Depth first: a chunk's imports are settled (and their reach known) before it.
  const settle = (name: string, trail: string[]): Set<string> => {
    const known = reach.get(name);
    if (known !== undefined) return known;
    if (trail.includes(name)) throw new Error(`chunks import one another: ${trail.join(" -> ")}`);
    const text = texts.get(name);
    if (text === undefined) throw new Error(`${trail.at(-1)} imports ${name}, not in the bundle`);
    const reached = new Set<string>();
    const drop: Array<[number, number]> = [];
    for (const match of text.matchAll(STATIC)) {
      const [whole, bound, chunk] = match;
      const sideEffect = bound === undefined && whole.startsWith("import");
      if (sideEffect && reached.has(chunk) && !keep.has(name)) {
        drop.push([match.index, match.index + whole.length]);
        continue;
      }
      reached.add(chunk);
      for (const further of settle(chunk, [...trail, name])) reached.add(further);
    }
    let out = text;
    for (const [start, end] of drop.reverse()) {
      out = `${out.slice(0, start)}${" ".repeat(end - start)}${out.slice(end)}`;
    }
    texts.set(name, out);
    blanked += drop.length;
    reach.set(name, reached);
    return reached;
  };
  for (const name of texts.keys()) settle(name, []);
  return {
    files: files.map((f) => texts.has(f.name) ? { name: f.name, text: texts.get(f.name)! } : f),
    blanked,
  };
}

/**
 * The chunks that hold the given modules (repository paths, e.g.
 * `cli/commands/run.ts`), read from their source maps; an error names a
 * module no chunk holds. `dir` is the bundle's directory in the repository.
 */
export function chunksHolding(files: BundleFile[], modules: string[], dir: string): Set<string> {
  const base = new URL(`file:///repository/${dir}/`);
  const holders = new Set<string>();
  for (const module of modules) {
    const holder = files.find((f) =>
      f.name.endsWith(".js.map") &&
      (JSON.parse(f.text).sources ?? []).some((source: string) =>
        new URL(source, base).pathname === `/repository/${module}`
      )
    );
    if (holder === undefined) throw new Error(`no chunk of the bundle holds ${module}`);
    holders.add(holder.name.slice(0, -".map".length));
  }
  return holders;
}
