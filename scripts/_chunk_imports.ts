// Private to scripts/_cli_bundle.ts: the bundle's chunks without the imports
// that cannot do anything.
//
// Why: `deno bundle` gives a chunk a side-effect import (`import"./x.js";`)
// of every chunk its modules need evaluated first, in order, even when an
// earlier import of the same chunk already reaches that chunk: about 280 of
// the bundle's 650 static imports. Deno resolves every import of every chunk
// it can reach when it builds the module graph at each start, and that cost
// is measurable (callgrind on `cli.ts --help`: about 6 M instructions for
// those 280, of about 90 M). Such an import is a no-op when it runs: a module
// is evaluated once, and an earlier import's graph, which holds it, was
// evaluated before. So it is blanked to as many spaces (every column stays
// where the source map says); the order in which the chunks are evaluated
// does not change.

import type { BundleFile } from "./_stable_chunk_names.ts";

const STATIC = /(?<![\w$."'`])(?:import|export)\s*(?:[^;"]*?\s*from\s*)?"\.\/([\w.-]+\.js)"\s*;?/g;
const SIDE_EFFECT = /^import\s*"/;

/**
 * What each chunk reaches through static imports (the chunks evaluated before
 * it, or with it, when it is imported), from the files' text.
 */
export function staticReach(files: BundleFile[]): (chunk: string) => Set<string> {
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

/** The files with each chunk's side-effect imports of chunks an earlier import reaches blanked. */
export function withoutRedundantImports(files: BundleFile[]): BundleFile[] {
  const reached = staticReach(files);
  return files.map(({ name, text }) => {
    if (!name.endsWith(".js")) return { name, text };
    const before = new Set<string>();
    const out = text.replace(STATIC, (whole, chunk) => {
      if (SIDE_EFFECT.test(whole) && before.has(chunk)) return " ".repeat(whole.length);
      before.add(chunk);
      for (const further of reached(chunk)) before.add(further);
      return whole;
    });
    return { name, text: out };
  });
}
