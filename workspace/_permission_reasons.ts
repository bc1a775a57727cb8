// Private: one reason out of the reasons of every part of a manifest that needs
// the same permission value. Four servers started with `npx` need
// `--allow-run=npx` for the same reason; the plan names all four
// (`servers "a", "b", "c" and "d"`), not only the first one it met.

/** A reason's subject (`server "a"`) and the rest of it (` inherits it (...)`). */
const SUBJECT = /^(server|provider|module tool|checking module tool) ("(?:[^"\\]|\\.)*")(.*)$/s;

/** The rest of a reason, its verb agreeing with more than one subject. */
function plural(rest: string): string {
  return rest
    .replace(/^ inherits it /, " inherit it ")
    .replace(/^ references /, " reference ")
    .replace(/^ is granted /, " are granted ")
    .replace(
      /^ \(kill stops its process group, what it started included\)/,
      " (kill stops their process groups, what they started included)",
    )
    .replace(/^ \(runs in a child deno process\)/, " (run in child deno processes)")
    .replace(/^ \(its file, to load it\)/, " (their files, to load them)")
    .replace(/^ \(symlink check of its write grant\)/, " (symlink check of their write grants)");
}

function pluralKind(kind: string): string {
  return kind === "checking module tool" ? "checking module tools" : `${kind}s`;
}

/**
 * Merges the distinct reasons for one permission value, in the order met:
 * reasons that differ only in their subject become one
 * (`servers "a", "b" inherit it (default child environment)`); the others
 * are joined with `; `.
 *
 * @param reasons The reasons, possibly repeated.
 * @returns One reason naming every part.
 */
export function mergeReasons(reasons: readonly string[]): string {
  const groups = new Map<string, Map<string, string[]>>(); // rest -> kind -> names
  const order: string[] = []; // rests and unparsed reasons, as met
  const plain = new Set<string>();
  for (const reason of reasons) {
    const m = SUBJECT.exec(reason);
    if (m === null) {
      if (!plain.has(reason)) {
        plain.add(reason);
        order.push(`\u0000${reason}`);
      }
      continue;
    }
    const [, kind, name, rest] = m;
    let kinds = groups.get(rest);
    if (kinds === undefined) {
      kinds = new Map();
      groups.set(rest, kinds);
      order.push(rest);
    }
    const names = kinds.get(kind) ?? [];
    if (!names.includes(name)) names.push(name);
    kinds.set(kind, names);
  }
  return order.map((key) => {
    if (key.startsWith("\u0000")) return key.slice(1);
    const kinds = groups.get(key)!;
    const subjects = [...kinds].map(([kind, names]) =>
      names.length === 1 ? `${kind} ${names[0]}` : `${pluralKind(kind)} ${names.join(", ")}`
    );
    const count = [...kinds.values()].reduce((n, names) => n + names.length, 0);
    return `${subjects.join(" and ")}${count === 1 ? key : plural(key)}`;
  }).join("; ");
}
