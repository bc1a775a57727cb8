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

const BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/** The regular-expression source of one base64 digit value set (both alphabets). */
function base64Atom(values: readonly number[]): string {
  const plain: string[] = [];
  const encoded: string[] = [];
  for (const v of values) {
    if (v < 62) plain.push(BASE64[v]);
    else if (v === 62) {
      plain.push("+", "-"); // base64 and base64url
      encoded.push("%2[Bb]");
    } else {
      plain.push("/", "_");
      encoded.push("\\\\\\/", "%2[Ff]"); // JSON's `\/` and percent-encoding
    }
  }
  const set = plain.length === 1 && encoded.length === 0
    ? escapeRegExp(plain[0])
    : `[${plain.map((c) => (c === "-" || c === "/" ? `\\${c}` : c)).join("")}]`;
  return encoded.length === 0 ? set : `(?:${set}|${encoded.join("|")})`;
}

/**
 * The regular-expression sources matching `bytes` base64- or
 * base64url-encoded inside a longer encoded text: one per alignment (the
 * bytes start at an offset of 0, 1 or 2 modulo 3 of what was encoded). A
 * digit that also carries bits of the neighbouring bytes is matched by the
 * set of digits it can be, so no bit of the secret is left; padding (`=`,
 * also percent-encoded) after the last digit is matched when present.
 */
export function base64Forms(bytes: Uint8Array): string[] {
  const out: string[] = [];
  for (let align = 0; align < 3; align++) {
    const start = align * 8;
    const end = start + bytes.length * 8;
    const bit = (i: number): number | undefined =>
      i < start || i >= end ? undefined : (bytes[(i - start) >> 3] >> (7 - ((i - start) & 7))) & 1;
    const atoms: string[] = [];
    for (let c = Math.floor(start / 6); c * 6 < end; c++) {
      let mask = 0;
      let known = 0;
      for (let k = 0; k < 6; k++) {
        const b = bit(c * 6 + k);
        if (b === undefined) continue;
        mask |= 1 << (5 - k);
        known |= b << (5 - k);
      }
      const values: number[] = [];
      for (let v = 0; v < 64; v++) if ((v & mask) === known) values.push(v);
      atoms.push(base64Atom(values));
    }
    out.push(`${atoms.join("")}(?:==?|%3[Dd](?:%3[Dd])?)?`);
  }
  return out;
}

/**
 * The byte sequences a secret may have been base64-encoded from: its UTF-8
 * bytes; its Latin-1 bytes (what `btoa` encodes, e.g. an HTTP Basic
 * `client_id:client_secret`); and the UTF-8 bytes of its form encoding (HTTP
 * Basic of OAuth clients as RFC 6749 section 2.3.1 asks).
 */
export function base64Sources(secret: string): Uint8Array[] {
  const encoder = new TextEncoder();
  const seen = new Set<string>();
  const out: Uint8Array[] = [];
  const push = (bytes: Uint8Array) => {
    const key = bytes.join(",");
    if (!seen.has(key)) {
      seen.add(key);
      out.push(bytes);
    }
  };
  push(encoder.encode(secret));
  if (/^[\0-\xff]*$/.test(secret)) {
    push(Uint8Array.from(secret, (c) => c.charCodeAt(0)));
  }
  push(encoder.encode(new URLSearchParams({ s: secret }).toString().slice(2)));
  return out;
}
