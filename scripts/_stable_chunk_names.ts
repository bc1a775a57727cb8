// Private to scripts/_cli_bundle.ts: the bundle's chunks renamed so that a
// chunk's name does not change with its content.
//
// Why: `deno bundle` names a chunk `<name>-<hash of its content>.js`, so one
// edit renamed every chunk whose content or whose imports' names changed (a
// 23-line change touched 56 committed files). Here the eight characters after
// the name hash what the chunk *is*, not what it holds: the first module in it
// (its source map's first source, a path of this repository); for a chunk
// that holds no module, the names it exports and the chunks it imports (it
// re-exports them), or, when it is empty, the chunks that import it. A
// change then touches the chunks whose content changed, and a chunk is renamed
// only when the modules it holds change.
//
// The new name has the old one's length (same name, eight characters), so
// every column of every chunk stays where its source map says it is.

/** A file `deno bundle` wrote: its name in the output directory and its text. */
export interface BundleFile {
  name: string;
  text: string;
}

const HASHED = /^(.+)-([A-Z0-9]{8})\.js$/;
const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
const CHUNK_REFERENCE = /"\.\/([\w.-]+\.js)"/g;

/** Eight base-32 characters of the SHA-256 of a text. */
async function tag(text: string): Promise<string> {
  const digest = new Uint8Array(
    await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)),
  );
  return [...digest.slice(0, 8)].map((byte) => ALPHABET[byte % 32]).join("");
}

/**
 * The files with every content-hashed chunk name (`x-ABCDEFGH.js`, its
 * `.js.map`) replaced by a name of the same length that depends on the
 * chunk's modules only, in the names and in every text that names them.
 * `dir` is the output directory relative to the repository (where the source
 * maps' relative sources start), to name a source by its repository path.
 */
export async function stableChunkNames(files: BundleFile[], dir: string): Promise<BundleFile[]> {
  const texts = new Map(files.map((f) => [f.name, f.text]));
  const identity = new Map<string, string>();
  const base = new URL(`file:///repository/${dir}/`);
  const references = (chunk: string) =>
    [...(texts.get(chunk) ?? "").matchAll(CHUNK_REFERENCE)].map((m) => m[1]).filter((name) =>
      texts.has(name)
    );
  const codeOf = (chunk: string) =>
    (texts.get(chunk) ?? "").replace(/^\/\/# sourceMappingURL=.*$/m, "").trim();
  const sourcesOf = (chunk: string): string[] => {
    const map = texts.get(`${chunk}.map`);
    return map === undefined ? [] : JSON.parse(map).sources ?? [];
  };
  const isEmpty = (chunk: string) => sourcesOf(chunk).length === 0 && codeOf(chunk) === "";
  const identify = (chunk: string, trail: string[] = []): string => {
    const known = identity.get(chunk);
    if (known !== undefined) return known;
    if (trail.includes(chunk)) throw new Error(`chunks import one another: ${trail.join(" -> ")}`);
    const sources = sourcesOf(chunk);
    const code = codeOf(chunk);
    const deeper = [...trail, chunk];
    let id: string;
    if (sources.length > 0) {
      // The modules it holds, named by the first.
      id = `module ${new URL(sources[0], base).pathname.slice("/repository/".length)}`;
    } else if (code !== "") {
      // No module (it re-exports others, or it is the bundler's own helper):
      // the names it exports and the chunks it imports.
      const exported = [...code.matchAll(/export\s*\{([^}]*)\}/g)]
        .flatMap((m) => m[1].split(",").map((item) => item.trim().split(/\s+as\s+/).pop()!))
        .sort();
      // (An empty chunk is named after its importers: left out here.)
      const imported = references(chunk).filter((name) => !isEmpty(name))
        .map((name) => identify(name, deeper)).sort();
      id = `exports ${exported.join(",")} from ${imported.join(", ")}`;
    } else {
      // Empty (modules of types only): the chunks that import it.
      const importers = [...texts.keys()]
        .filter((name) => name.endsWith(".js") && references(name).includes(chunk))
        .map((name) => identify(name, deeper))
        .sort();
      id = `imported by ${importers.join(", ")}`;
    }
    identity.set(chunk, id);
    return id;
  };
  const renames = new Map<string, string>();
  for (const name of texts.keys()) {
    const hashed = HASHED.exec(name);
    if (hashed === null) continue;
    const renamed = `${hashed[1]}-${await tag(`${hashed[1]}\n${identify(name)}`)}.js`;
    if ([...renames.values()].includes(renamed)) {
      throw new Error(`two chunks would be named ${renamed}: ${identify(name)}`);
    }
    renames.set(name, renamed);
  }
  const rename = (text: string) =>
    text.replace(/[\w.-]+-[A-Z0-9]{8}\.js/g, (found) => renames.get(found) ?? found);
  return files.map(({ name, text }) => {
    const chunk = name.endsWith(".map") ? name.slice(0, -".map".length) : name;
    const renamed = renames.get(chunk);
    return {
      name: renamed === undefined ? name : name.replace(chunk, renamed),
      text: rename(text),
    };
  });
}
