// Private: a module tool's sandbox refused something its manifest grant does
// not cover. Unlike the CLI's own permission checks (exit 3), this is the
// tool's failure (exit 1): the fix is the tool's `permissions:` grant in the
// manifest, not a flag of the CLI.

import { PermissionDeniedError, type RunErrorOptions } from "../run/errors.ts";

/** A denial by a module tool's own grant (code `permission_denied`, exit 1). */
export class SandboxDeniedError extends PermissionDeniedError {
  /** Always true: the tool's grant refused it, not the CLI's flags. */
  readonly sandbox: true = true;

  /**
   * Creates the error.
   *
   * @param detail What was refused and which grant to change.
   * @param options Cause and tool ID.
   */
  constructor(detail: string, options?: RunErrorOptions) {
    super(detail, options);
  }
}

/** Whether an error is a module tool's sandbox denial (see {@linkcode SandboxDeniedError}). */
export function isSandboxDenial(error: unknown): boolean {
  return error instanceof SandboxDeniedError ||
    (error as { sandbox?: unknown } | null)?.sandbox === true;
}
