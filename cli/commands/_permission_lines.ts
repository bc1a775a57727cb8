// Private: the lines `permissions` prints on stderr under the command lines:
// one per flag and reason (`--allow-env=A,B: why`), every part of the manifest
// that needs it named, optional grants said to be optional; and the note of
// the optional grants a command runs without.

import { formatFlags, type PermissionNeed } from "../../workspace/permissions.ts";
import { type CliIo, diagnose } from "../_io.ts";

/** One line per permission, reason and optionality, in the plan's order. */
export function permissionLines(needs: readonly PermissionNeed[]): string[] {
  const grouped = new Map<string, PermissionNeed[]>();
  for (const need of needs) {
    const key = JSON.stringify([need.name, need.value === undefined, need.reason, need.optional]);
    grouped.set(key, [...(grouped.get(key) ?? []), need]);
  }
  return [...grouped.values()].map((group) => {
    const [flag] = formatFlags({ needs: group, workers: false });
    const { reason, optional } = group[0];
    return `  ${flag}: ${optional === true ? "optional, " : ""}${reason}`;
  });
}

/**
 * Under `--verbose`, one note of the optional grants that are missing (what
 * will be skipped, e.g. inherited variables children will not get); nothing
 * otherwise, as a line written by hand leaves them out on purpose.
 */
export function noteSkipped(
  io: CliIo & { verbosity?: string },
  skipped: readonly PermissionNeed[],
): void {
  if (io.verbosity !== "verbose" || skipped.length === 0) return;
  const [flag] = formatFlags({ needs: [...skipped], workers: false });
  diagnose(
    io,
    undefined,
    "note",
    `not granted, so not passed to child processes even where set: ${flag} (${
      [...new Set(skipped.map((n) => n.reason))].join("; ")
    })`,
  );
}
