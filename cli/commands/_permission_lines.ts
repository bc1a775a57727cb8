// Private: the lines `permissions` prints on stderr under the command lines:
// one per flag and reason (`--allow-env=A,B: why`), every part of the manifest
// that needs it named, optional grants said to be optional.

import { formatFlags, type PermissionNeed } from "../../workspace/permissions.ts";

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
