// Private: a module tool's grants: the child process's permission flags, and
// the symbolic-link check that refuses a call whose granted paths hold a link
// leading outside the grant.

import { ExecutionError, SandboxDeniedError } from "../errors.ts";
import type { ToolContext } from "../local.ts";
import type { ManifestGrant, ManifestPermissions } from "./permissions.ts";
import { resolvePath } from "./paths.ts";
import { findGrantLinks } from "./_symlinks.ts";

/** A grant's values (paths resolved against `dir`), `true` for all, `false` for none. */
export function listOf(
  value: ManifestGrant | undefined,
  dir: string,
  paths: boolean,
): string[] | boolean {
  if (value === undefined || value === false) return false;
  if (value === true) return true;
  return paths ? value.map((p) => resolvePath(dir, p)) : [...value];
}

export /** The child's permission flags; throws on a value Deno's flag syntax cannot carry. */
function permissionFlags(p: ManifestPermissions, dir: string): string[] {
  const flags: string[] = [];
  for (const name of ["read", "write", "net", "env", "run"] as const) {
    const value = listOf(p[name], dir, name === "read" || name === "write");
    if (value === true) flags.push(`--allow-${name}`);
    else if (Array.isArray(value) && value.length > 0) {
      const bad = value.find((v) => v.includes(",") || v === "");
      if (bad !== undefined) {
        throw new Error(`permissions.${name} entry ${JSON.stringify(bad)} cannot be granted`);
      }
      flags.push(`--allow-${name}=${value.join(",")}`);
    }
  }
  return flags;
}

/**
 * Refuses to run when a symbolic link inside a granted path leads outside the
 * grant (it would widen it).
 */
export async function checkGrantLinks(
  grants: { read: string[]; write: string[] },
  ctx: ToolContext,
): Promise<void> {
  let links;
  try {
    links = await findGrantLinks(grants, { signal: ctx.signal });
  } catch (cause) {
    if (ctx.signal.aborted) throw ctx.signal.reason;
    throw new ExecutionError(
      `cannot check its granted paths for symbolic links (the check needs read access to them): ${
        (cause as Error)?.message
      }`,
      { toolId: ctx.toolId, cause },
    );
  }
  if (links.length === 0) return;
  const list = links.map((l) =>
    `${l.link} -> ${l.target} (outside permissions.${l.kind} ${JSON.stringify(l.grant)})`
  );
  throw new SandboxDeniedError(
    `refused to run: symbolic links would widen its grant: ${list.join("; ")}; ` +
      `remove them, or grant their targets explicitly`,
    { toolId: ctx.toolId },
  );
}
