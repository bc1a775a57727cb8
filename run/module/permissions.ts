/**
 * The Deno permissions a module tool's process gets, as a manifest grants
 * them (`permissions:` of a module tool): nothing by default; each one all,
 * none, or a list. Relative paths resolve against the directory the module
 * handler is given (the manifest's).
 *
 * @module
 */

/** One permission of a module tool: all, none, or a list. */
export type ManifestGrant = boolean | string[];

/** The Deno permissions a module tool's process gets (none by default). */
export interface ManifestPermissions {
  /** Paths (relative to the manifest's directory) it may read. */
  read?: ManifestGrant;
  /** Paths (relative to the manifest's directory) it may write. */
  write?: ManifestGrant;
  /** Hosts (`host` or `host:port`) it may reach. */
  net?: ManifestGrant;
  /** Programs it may run. */
  run?: ManifestGrant;
  /** Environment variables it may read. */
  env?: ManifestGrant;
}
