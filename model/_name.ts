// Private: the MCP name rule shared by names, namespaces and tool IDs.

/** Longest allowed name or namespace. */
const MAX_NAME_LENGTH = 128;

const NAME_CHAR = /[A-Za-z0-9_.-]/;

/**
 * Problems with a name under the MCP rule (1-128 chars of `[A-Za-z0-9_.-]`),
 * in the Go original's order: empty, too long, offending characters (each
 * named once, in order of first appearance).
 */
export function nameProblems(value: unknown, what: string): string[] {
  if (typeof value !== "string") return [`${what} must be a string`];
  if (value.length === 0) return [`${what} must not be empty`];
  const problems: string[] = [];
  if (value.length > MAX_NAME_LENGTH) {
    problems.push(`${what} is ${value.length} characters long; the limit is ${MAX_NAME_LENGTH}`);
  }
  const bad: string[] = [];
  for (const ch of value) {
    if (!NAME_CHAR.test(ch) && !bad.includes(ch)) bad.push(ch);
  }
  if (bad.length > 0) {
    problems.push(
      `${what} contains ${bad.map((c) => JSON.stringify(c)).join(", ")}; ` +
        "only letters, digits, '_', '.' and '-' are allowed",
    );
  }
  return problems;
}
