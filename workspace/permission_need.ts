/**
 * One permission a manifest's tools need, and why: the record the permission
 * plan is made of and that a missing-permission error names. Declared apart
 * from the plan so that the errors and the needs' finders share it without
 * importing the plan.
 *
 * @module
 */

/** The Deno permission kinds the CLI may need. */
export type PermissionName = "read" | "write" | "net" | "run" | "env";

/** One needed permission value and why it is needed. */
export interface PermissionNeed {
  /** The permission. */
  name: PermissionName;
  /** The path, host, program or variable; `undefined` for all. */
  value?: string;
  /**
   * Why, e.g. `server "everything"`; once the plan is deduplicated, every
   * part that needs it (`servers "a", "b" and module tool "m"`).
   */
  reason: string;
  /**
   * Used when granted and skipped when not: a missing grant stops nothing
   * (e.g. a proxy variable a child process may inherit). The printed flags
   * include it; the check before a command runs does not require it.
   */
  optional?: boolean;
}
