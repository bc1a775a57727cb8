// Private: the one generated function a refused value runs (see
// _detailed_code.ts): the walk that proves the value JSON within the depth
// limit (the check's own walk, _cover.ts) and the failures code, in one
// function of the failures code's scope, so that a refusal calls one
// function of the schema after its check.

import type { ValidationFailure } from "../errors.ts";

/**
 * What a refusal function returns when the failures code threw (a bail on a
 * deep `$ref` chain, an exhausted stack): the caller then leaves the failures
 * to be computed when read, as before. Never a list of failures.
 */
export const REFUSAL_THREW: ValidationFailure[] = Object.freeze(
  [],
) as unknown as ValidationFailure[];

/**
 * The source of the refusal function (an expression), or `"undefined"`
 * without a walk. `walk` is an expression whose value is the walk (a copy
 * of the check's, run in the failures code's scope: it names only `hasOwn`
 * and `OP`, which that scope has too); `body` the failures function's body.
 * A walk that throws (a member's getter) throws out of the function, as the
 * walk does when run alone; the failures code's throws are caught.
 */
export function refusalSource(walk: string | undefined, body: string): string {
  if (walk === undefined) return "undefined";
  return `(() => { const J = ${walk};\nreturn function refuse(v) { if (!J(v)) return null; ` +
    `try { ${body} } catch { return RT; } }; })()`;
}
