// Private to scripts/_cli_bundle.ts: a chunk's imports of npm packages turned
// into imports that Deno resolves only when the chunk runs.
//
// Why: before `main` runs, Deno follows every statically analysable import of
// the bundle, the dynamic ones of every command included. One npm package among
// them makes it set up npm resolution (the lockfile's packages, Deno's npm
// cache) on every start: `--help` paid ~8 ms for it (an eighth of `deno run` of
// an empty module) though it never loads a package. An import whose specifier
// is not a string literal is not followed: Deno resolves it when it runs, needs
// no permission for an npm package, and loads it as before.
//
// How, keeping every generated column where the source map says it is:
// - `import{a as b}from"x";` (any static form) is blanked to as many spaces,
//   and its `const{a:b}=await __npm("x");` goes to the chunk's prologue line
//   (before the chunk's code, as static imports are evaluated before it);
// - `import("x")` becomes `__npm("x")` padded to the same length;
// - `__npm` maps the name to the npm specifier deno.json pins, so the chunk
//   needs no import map (as from JSR).
// `deno compile` does not see these imports either: the compile task adds
// `cli/_generated/cli/externals.ts`, which imports every package statically.

/** A chunk's text with its npm imports made lazy, and the line that goes before it. */
export interface LazyChunk {
  /** The chunk, same length and lines; static imports of packages blanked. */
  text: string;
  /** One line: `__npm` and the blanked imports, or "" when the chunk imports no package. */
  prologue: string;
  /** The npm specifiers the chunk imports, sorted. */
  packages: string[];
}

const HELPER = "__npm";
const STATIC =
  /(?<![\w$."'`])import\s*(?:([\w$]+)\s*,?\s*)?(?:\{([^}]*)\}\s*|\*\s*as\s+([\w$]+)\s*)?(?:from\s*)?"([^"]+)"\s*;?/g;
const DYNAMIC = /(?<![\w$."'`])import\s*\(\s*"([^"]+)"\s*\)/g;
const REEXPORT = /(?<![\w$."'`])export\s*(?:\*|\{[^}]*\})\s*from\s*"([^"]+)"/g;

/**
 * The npm specifier of a module name as deno.json's `imports` maps it (exact
 * entries and `name/` prefixes), `npm:` specifiers as they are, or undefined
 * for anything else (`node:` modules and the bundle's own chunks stay static).
 */
export function npmSpecifier(
  name: string,
  imports: Record<string, string>,
): string | undefined {
  if (name.startsWith("npm:")) return name;
  const exact = imports[name];
  if (exact !== undefined) return exact.startsWith("npm:") ? exact : undefined;
  const prefix = Object.keys(imports)
    .filter((key) => key.endsWith("/") && name.startsWith(key))
    .sort((a, b) => b.length - a.length)[0];
  if (prefix === undefined || !imports[prefix].startsWith("npm:")) return undefined;
  return imports[prefix].replace(/^npm:\/?/, "npm:") + name.slice(prefix.length);
}

/** The chunk `name` with its imports of npm packages made lazy. */
export function lazyExternals(
  text: string,
  name: string,
  imports: Record<string, string>,
): LazyChunk {
  if (text.includes(HELPER)) throw new Error(`${name} already uses the name ${HELPER}`);
  for (const match of text.matchAll(REEXPORT)) {
    if (npmSpecifier(match[1], imports) !== undefined) {
      throw new Error(`${name} re-exports ${match[1]}: not supported by the lazy imports`);
    }
  }
  const map = new Map<string, string>();
  const statements: string[] = [];
  const lazy = (module: string) => {
    const specifier = npmSpecifier(module, imports);
    if (specifier !== undefined) map.set(module, specifier);
    return specifier;
  };
  let out = text.replace(STATIC, (whole, def, named, namespace, module) => {
    if (lazy(module) === undefined) return whole;
    const load = `await ${HELPER}(${JSON.stringify(module)})`;
    if (namespace !== undefined) statements.push(`const ${namespace}=${load};`);
    else if (def === undefined && named === undefined) statements.push(`${load};`);
    else {
      const names = [
        ...def === undefined ? [] : [`default:${def}`],
        ...(named ?? "").split(",").map((s: string) => s.trim()).filter(Boolean).map(binding),
      ];
      statements.push(`const{${names.join(",")}}=${load};`);
    }
    return whole.replace(/[^\n]/g, " ");
  });
  out = out.replace(DYNAMIC, (whole, module) => {
    if (lazy(module) === undefined) return whole;
    return `${HELPER}(${JSON.stringify(module)})`.padEnd(whole.length, " ");
  });
  if (map.size === 0) return { text, prologue: "", packages: [] };
  const table = JSON.stringify(Object.fromEntries([...map].sort(([a], [b]) => a < b ? -1 : 1)));
  const prologue = `const ${HELPER}=(m)=>import(${table}[m]);${statements.join("")}`;
  return { text: out, prologue, packages: [...new Set(map.values())].sort() };
}

/** `a as b` → `a:b`, `"a-b" as c` → `"a-b":c`, `a` → `a`. */
function binding(item: string): string {
  const [imported, local] = item.split(/\s+as\s+/);
  return local === undefined ? imported : `${imported}:${local}`;
}
