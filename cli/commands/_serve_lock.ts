// Private: the lock check `serve` gives each upstream, so that the tools a
// server lists are compared with the lock file on every connection, not only
// when `serve` starts: after a crash or restart a server may list (and run) a
// changed tool. The lock file is read once, when `serve` starts: what it
// serves is what was approved then; to approve a change, run `lock` and
// restart `serve`.

import type { McpToolCheck } from "../../run/mod.ts";
import { lockPath, readLock } from "../../workspace/lock.ts";
import { lockCheck } from "../../workspace/lock_check.ts";
import type { Manifest } from "../../workspace/manifest.ts";

/** Checks one server's listed tools; returns the changed ones with the error their calls get. */
export type ToolCheck = McpToolCheck;

/**
 * The check of each server's tools against the manifest's lock file, by
 * server name; `undefined` when there is no lock file (nothing is compared,
 * as at start).
 */
export async function lockChecks(
  manifest: Manifest,
): Promise<((server: string) => ToolCheck) | undefined> {
  const lock = await readLock(lockPath(manifest.path));
  if (lock === undefined) return undefined;
  return (server) => lockCheck(lock, manifest.path, server);
}
