// Private: Deno checks a path against a grant as written, and the operating
// system then follows symbolic links. A link inside a granted directory would
// widen the grant to its target, so before a module tool runs, every link in
// its read and write grants must resolve inside a grant of the same kind.

/** A symbolic link that would widen a grant. */
interface GrantLink {
  /** The grant kind (`read` or `write`). */
  kind: "read" | "write";
  /** The grant entry, as resolved against the manifest directory. */
  grant: string;
  /** The link's path. */
  link: string;
  /** Where it leads (its textual target when it dangles). */
  target: string;
}

function isUnder(path: string, root: string): boolean {
  return path === root || path.startsWith(root.endsWith("/") ? root : `${root}/`);
}

function join(dir: string, name: string): string {
  return dir.endsWith("/") ? `${dir}${name}` : `${dir}/${name}`;
}

function parentOf(path: string): string {
  const i = path.lastIndexOf("/");
  return i <= 0 ? "/" : path.slice(0, i);
}

/** Normalizes `.` and `..` of an absolute path without touching the file system. */
function normalize(path: string): string {
  const parts: string[] = [];
  for (const part of path.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") parts.pop();
    else parts.push(part);
  }
  return `/${parts.join("/")}`;
}

function absolute(path: string): string {
  return path.startsWith("/") ? normalize(path) : normalize(`${Deno.cwd()}/${path}`);
}

/** Where a link leads: its real path, or for a dangling link its textual target. */
async function targetOf(link: string): Promise<string> {
  try {
    return await Deno.realPath(link);
  } catch {
    const raw = await Deno.readLink(link);
    // A dangling link may be written through (creating its target): judge its textual target.
    return raw.startsWith("/") ? normalize(raw) : normalize(join(parentOf(link), raw));
  }
}

async function realRoots(grants: readonly string[]): Promise<string[]> {
  const roots: string[] = [];
  for (const g of grants) {
    try {
      roots.push(await Deno.realPath(g));
    } catch {
      roots.push(absolute(g)); // not there (yet): it can only be created where it is named
    }
  }
  return roots;
}

/** Options of {@linkcode findGrantLinks}. */
interface FindGrantLinksOptions {
  /** Stops the scan. */
  signal?: AbortSignal;
  /** Stop after this many offending links (default 10). */
  limit?: number;
}

/**
 * The symbolic links inside the given grants that lead outside every grant of
 * their kind. A grant entry that is itself a link is judged the same way,
 * against the other entries; entries that do not exist are skipped.
 */
export async function findGrantLinks(
  grants: { read: readonly string[]; write: readonly string[] },
  options: FindGrantLinksOptions = {},
): Promise<GrantLink[]> {
  const found: GrantLink[] = [];
  const limit = options.limit ?? 10;
  for (const kind of ["read", "write"] as const) {
    const entries = grants[kind];
    if (entries.length === 0) continue;
    const roots = await realRoots(entries);
    const inside = (target: string, exceptIndex?: number) =>
      roots.some((r, i) => i !== exceptIndex && isUnder(target, r));
    for (const [index, grant] of entries.entries()) {
      if (found.length >= limit) return found;
      let info: Deno.FileInfo;
      try {
        info = await Deno.lstat(grant);
      } catch (error) {
        if (error instanceof Deno.errors.NotFound) continue;
        throw error;
      }
      if (info.isSymlink) {
        const target = await targetOf(grant);
        const lexical = absolute(grant);
        // A link named as the grant widens nothing only if it leads inside another entry.
        if (!inside(target, index) && target !== lexical) {
          found.push({ kind, grant, link: grant, target });
        }
        continue;
      }
      if (!info.isDirectory) continue;
      const stack = [grant];
      while (stack.length > 0 && found.length < limit) {
        options.signal?.throwIfAborted();
        const dir = stack.pop()!;
        for await (const entry of Deno.readDir(dir)) {
          const path = join(dir, entry.name);
          if (entry.isSymlink) {
            const target = await targetOf(path);
            if (!inside(target)) found.push({ kind, grant, link: path, target });
            if (found.length >= limit) break;
          } else if (entry.isDirectory) {
            stack.push(path);
          }
        }
      }
    }
  }
  return found;
}
