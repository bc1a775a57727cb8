// Private: what the built-in tools share.

/** Pure functions of their arguments. */
export const PURE = { readOnlyHint: true, idempotentHint: true, openWorldHint: false };
