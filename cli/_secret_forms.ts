// Private: the forms a secret's characters may take in what the CLI prints
// (as is, percent-encoded, JSON-escaped once or more), as regular-expression
// source, for `Redactor` in `secrets.ts`.

const SHORT_ESCAPES: Record<string, string> = {
  '"': '"',
  "\\": "\\",
  "/": "/",
  "\b": "b",
  "\f": "f",
  "\n": "n",
  "\r": "r",
  "\t": "t",
};

function escapeRegExp(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/-]/g, "\\$&");
}

/** A hex digit in either case, as a regular-expression atom. */
function hexAtom(digit: string): string {
  const lower = digit.toLowerCase();
  return lower === digit ? escapeRegExp(digit) : `[${digit}${lower}]`;
}

function hexAtoms(n: number, width: number): string {
  return n.toString(16).toUpperCase().padStart(width, "0").split("").map(hexAtom).join("");
}

/**
 * The regular-expression source matching one code point in every form the
 * CLI may print it: as is, percent-encoded (UTF-8, either hex case; `+` for a
 * space), and JSON-escaped (`\uXXXX` or the short escapes, also escaped
 * again, e.g. JSON inside a JSON string).
 */
export function codePointForms(char: string): string {
  const forms = [escapeRegExp(char)];
  forms.push([...new TextEncoder().encode(char)].map((b) => `%${hexAtoms(b, 2)}`).join(""));
  if (char === " ") forms.push("\\+");
  const units: string[] = [];
  for (let i = 0; i < char.length; i++) units.push(`u${hexAtoms(char.charCodeAt(i), 4)}`);
  const slashes = "\\\\{1,16}";
  forms.push(units.map((u) => `${slashes}${u}`).join(""));
  const short = Object.hasOwn(SHORT_ESCAPES, char) ? SHORT_ESCAPES[char] : undefined;
  if (short !== undefined) forms.push(`${slashes}${escapeRegExp(short)}`);
  return `(?:${forms.join("|")})`;
}
