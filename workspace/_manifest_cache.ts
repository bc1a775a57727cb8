// Private: parsed manifests kept in Deno's cache folder, keyed by a hash of
// their text, so that a manifest outside the YAML subset `parseYamlSubset`
// reads is parsed by npm:yaml once and not on every start while it is
// unchanged. An entry holds the value and where each node starts (what the
// checks need to place their messages), never the checked manifest: the
// checks run on every start.
//
// The cache is used only where this process may already use it: the
// environment variables that name the folder (DENO_DIR; else XDG_CACHE_HOME
// and HOME on Linux, HOME on macOS, LOCALAPPDATA on Windows) and reading and
// writing the folder must be granted (`Deno.permissions.querySync`, which
// never prompts); else it is skipped without a word. Entries are written to a
// temporary file and renamed into place (a reader never sees half an entry,
// concurrent writers of the same entry write the same bytes); an entry that
// cannot be read, is not JSON or does not have the expected shape counts as a
// miss and is written again.

import type { PlacedNode, SubsetDocument, SubsetPlace } from "./_yaml_subset.ts";

/** Bumped when an entry's shape or meaning changes: older entries then miss. */
const FORMAT = 1;
/** What an entry's value depends on besides the text: the format and npm:yaml's version. */
// (not written as an npm: specifier: the bundle check reads those as imports)
const PARSER = "yaml 2.9.1";

function granted(descriptor: Deno.PermissionDescriptor): boolean {
  try {
    return Deno.permissions.querySync(descriptor).state === "granted";
  } catch {
    return false;
  }
}

/** An environment variable's value if reading it is granted; `null` when it may not be read. */
function env(name: string): string | undefined | null {
  if (!granted({ name: "env", variable: name })) return null;
  const value = Deno.env.get(name);
  return value === "" ? undefined : value;
}

/**
 * Deno's cache folder as Deno finds it (DENO_DIR, else the platform's cache
 * folder + `deno`), or `undefined` when a variable that decides it may not be read.
 */
function denoDir(): string | undefined {
  const dir = env("DENO_DIR");
  if (dir === null) return undefined;
  if (dir !== undefined) return dir;
  if (Deno.build.os === "windows") return env("LOCALAPPDATA")?.concat("\\deno") ?? undefined;
  if (Deno.build.os === "darwin") return env("HOME")?.concat("/Library/Caches/deno") ?? undefined;
  const xdg = env("XDG_CACHE_HOME");
  if (xdg === null) return undefined;
  if (xdg !== undefined) return `${xdg}/deno`;
  return env("HOME")?.concat("/.cache/deno") ?? undefined;
}

/**
 * The folder of parsed manifests, when this process may read and write it:
 * `folder` when given, none when it is `false`, else the one in Deno's cache folder.
 */
export function manifestCacheDir(folder?: string | false): string | undefined {
  if (folder === false) return undefined;
  let dir = folder;
  if (dir === undefined) {
    const base = denoDir();
    if (base === undefined) return undefined;
    dir = `${base}/toolfoundation/manifests`;
  }
  return granted({ name: "read", path: dir }) && granted({ name: "write", path: dir })
    ? dir
    : undefined;
}

/** The entry's file name: SHA-256 of the format, parser, depth limit and text. */
async function entryName(text: string, maxDepth: number): Promise<string> {
  const bytes = new TextEncoder().encode(`${FORMAT}\n${PARSER}\n${maxDepth}\n${text}`);
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return `${Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("")}.json`;
}

type PlacedJson = { at: [number, number]; entries?: [string, [number, number], PlacedJson][] } | {
  at: [number, number];
  items: PlacedJson[];
};

function placeToJson(p: SubsetPlace): [number, number] {
  return [p.line, p.column];
}

function toJson(node: PlacedNode): PlacedJson {
  if (node.items !== undefined) return { at: placeToJson(node.at), items: node.items.map(toJson) };
  if (node.entries === undefined) return { at: placeToJson(node.at) };
  return {
    at: placeToJson(node.at),
    entries: [...node.entries].map(([k, e]) => [k, placeToJson(e.key), toJson(e.node)]),
  };
}

function isPlace(x: unknown): x is [number, number] {
  return Array.isArray(x) && x.length === 2 && Number.isInteger(x[0]) && x[0] > 0 &&
    Number.isInteger(x[1]) && x[1] > 0;
}

/** The places of an entry, or `undefined` when it does not have their shape. */
function fromJson(x: unknown, depth = 0): PlacedNode | undefined {
  if (depth > 200 || x === null || typeof x !== "object") return undefined;
  const { at, entries, items } = x as Record<string, unknown>;
  if (!isPlace(at)) return undefined;
  const node: PlacedNode = { at: { line: at[0], column: at[1] } };
  if (items !== undefined) {
    if (!Array.isArray(items) || entries !== undefined) return undefined;
    node.items = [];
    for (const item of items) {
      const child = fromJson(item, depth + 1);
      if (child === undefined) return undefined;
      node.items.push(child);
    }
  } else if (entries !== undefined) {
    if (!Array.isArray(entries)) return undefined;
    node.entries = new Map();
    for (const entry of entries) {
      if (!Array.isArray(entry) || entry.length !== 3 || typeof entry[0] !== "string") {
        return undefined;
      }
      const child = fromJson(entry[2], depth + 1);
      if (!isPlace(entry[1]) || child === undefined) return undefined;
      node.entries.set(entry[0], { key: { line: entry[1][0], column: entry[1][1] }, node: child });
    }
  }
  return node;
}

/** Whether a value survives JSON unchanged (no NaN, infinities, -0 or undefined). */
function jsonSafe(value: unknown, depth = 0): boolean {
  if (depth > 200) return false;
  if (value === null || typeof value === "string" || typeof value === "boolean") return true;
  if (typeof value === "number") return Number.isFinite(value) && !Object.is(value, -0);
  if (Array.isArray(value)) return value.every((v) => jsonSafe(v, depth + 1));
  if (typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.values(value as object).every((v) => jsonSafe(v, depth + 1));
  }
  return false;
}

/** The parsed manifest kept for this text, or `undefined` (no cache, a miss, an unreadable entry). */
export async function readCachedManifest(
  text: string,
  maxDepth: number,
  folder?: string | false,
): Promise<SubsetDocument | undefined> {
  const dir = manifestCacheDir(folder);
  if (dir === undefined) return undefined;
  try {
    const entry = JSON.parse(await Deno.readTextFile(`${dir}/${await entryName(text, maxDepth)}`));
    if (entry?.format !== FORMAT || entry.parser !== PARSER) return undefined;
    const root = fromJson(entry.root);
    const value = entry.value;
    if (root === undefined || value === null || typeof value !== "object") return undefined;
    return { value, root };
  } catch {
    return undefined;
  }
}

/**
 * Keeps a parsed manifest for this text (when the cache may be used and the
 * value survives JSON). Never fails: a cache that cannot be written is skipped.
 */
export async function writeCachedManifest(
  text: string,
  maxDepth: number,
  value: unknown,
  root: PlacedNode | undefined,
  folder?: string | false,
): Promise<void> {
  const dir = manifestCacheDir(folder);
  if (dir === undefined || root === undefined || value === null || typeof value !== "object") {
    return;
  }
  if (!jsonSafe(value)) return;
  const file = `${dir}/${await entryName(text, maxDepth)}`;
  const temp = `${file}.${crypto.randomUUID()}.tmp`;
  try {
    await Deno.mkdir(dir, { recursive: true });
    const entry = { format: FORMAT, parser: PARSER, value, root: toJson(root) };
    await Deno.writeTextFile(temp, JSON.stringify(entry));
    await Deno.rename(temp, file);
  } catch {
    await Deno.remove(temp).catch(() => {});
  }
}
