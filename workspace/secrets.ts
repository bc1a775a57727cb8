/**
 * Secrets by reference: `${env:NAME}` in a server's or provider's settings is
 * replaced by the environment variable at run time. Resolved values are never
 * echoed: a {@linkcode Redactor} scrubs them from everything the CLI prints.
 *
 * @module
 */

import { base64Forms, base64Sources, codePointForms } from "./_secret_forms.ts";

const REFERENCE = /\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}/g;
const ANY_PLACEHOLDER = /\$\{([^}]*)\}/g;

/**
 * The variable names referenced in a value (deeply), sorted and unique.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { secretReferences } from "@toolfoundation/core/workspace";
 *
 * assert.deepEqual(secretReferences({ headers: { Authorization: "Bearer ${env:TOKEN}" } }), ["TOKEN"]);
 * ```
 *
 * @param value Any JSON value.
 * @returns The variable names.
 */
export function secretReferences(value: unknown): string[] {
  const names = new Set<string>();
  const visit = (v: unknown): void => {
    if (typeof v === "string") { for (const m of v.matchAll(REFERENCE)) names.add(m[1]); }
    else if (Array.isArray(v)) v.forEach(visit);
    else if (typeof v === "object" && v !== null) Object.values(v).forEach(visit);
  };
  visit(value);
  return [...names].sort();
}

/**
 * Placeholders that look like references but are not `${env:NAME}`.
 *
 * @param text A string from the manifest.
 * @returns The malformed placeholders, as written.
 */
export function malformedReferences(text: string): string[] {
  return [...text.matchAll(ANY_PLACEHOLDER)].map((m) => m[0]).filter((p) => {
    REFERENCE.lastIndex = 0;
    return !new RegExp(`^${REFERENCE.source}$`).test(p);
  });
}

/**
 * The shortest secret value that is scrubbed from output (6 characters).
 * Shorter values would turn ordinary words and numbers into `***` all over a
 * result; they are not scrubbed, and the CLI warns about each one.
 */
export const MIN_SECRET_LENGTH = 6;

/** The replacement for a scrubbed secret. */
export const REDACTED = "***";

/** A resolved secret too short to scrub (see {@linkcode MIN_SECRET_LENGTH}). */
export interface ShortSecret {
  /** The variable it came from, when known. */
  variable?: string;
  /** Its length in characters. */
  length: number;
}

/**
 * Scrubs secret values out of what the CLI prints. A secret is found as
 * written, percent-encoded (`encodeURIComponent`, `encodeURI`, URL parsers)
 * and JSON-escaped (also twice), in any mixture; a prefix or suffix of at
 * least {@linkcode MIN_SECRET_LENGTH} characters next to an excerpt's cut
 * (`... (N chars in all)` or a leading `...`) is scrubbed too. Inside
 * base64 or base64url text (a token, an HTTP Basic `user:secret`) a secret is
 * found at each of the three byte alignments, padded or not; so are its
 * Latin-1 bytes (`btoa`) and its form encoding (OAuth's HTTP Basic).
 *
 * {@linkcode Redactor.redactJson} changes only strings inside a value (never
 * keys, numbers or structure): a value with no secret in it prints
 * byte-identical to `JSON.stringify`.
 */
export class Redactor {
  readonly #secrets = new Set<string>();
  readonly #short: ShortSecret[] = [];
  #pattern: RegExp | undefined;

  /**
   * Remembers a secret value.
   *
   * @param value The secret.
   * @param variable The variable it came from (for the warning when it is too short).
   * @returns `false` when the value is too short to be scrubbed (it is then listed by {@linkcode Redactor.tooShort}).
   */
  add(value: string, variable?: string): boolean {
    if ([...value].length < MIN_SECRET_LENGTH) {
      if (value.length > 0 && !this.#short.some((s) => s.variable === variable)) {
        this.#short.push({ variable, length: [...value].length });
      }
      return false;
    }
    if (!this.#secrets.has(value)) {
      this.#secrets.add(value);
      this.#pattern = undefined;
    }
    return true;
  }

  /** The resolved secrets too short to scrub, in the order they were seen. */
  get tooShort(): readonly ShortSecret[] {
    return this.#short;
  }

  #regex(): RegExp | undefined {
    if (this.#secrets.size === 0) return undefined;
    if (this.#pattern === undefined) {
      const sorted = [...this.#secrets].sort((a, b) => b.length - a.length);
      const raw = sorted.map((s) => [...s].map(codePointForms).join(""));
      const encoded = sorted.flatMap((s) => base64Sources(s).flatMap(base64Forms));
      this.#pattern = new RegExp([...raw, ...encoded].join("|"), "g");
    }
    return this.#pattern;
  }

  /**
   * Replaces every remembered secret in `text` with `***`.
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import { Redactor } from "@toolfoundation/core/workspace";
   *
   * const r = new Redactor();
   * r.add("s3cr3t/value");
   * assert.equal(r.redact("token s3cr3t/value rejected"), "token *** rejected");
   * assert.equal(r.redact("GET /x?t=s3cr3t%2Fvalue"), "GET /x?t=***");
   * assert.equal(r.redact('{"t":"s3cr3t\\/value"}'), '{"t":"***"}');
   * ```
   *
   * @param text The text.
   * @returns The text without secrets.
   */
  redact(text: string): string {
    const regex = this.#regex();
    if (regex === undefined) return text;
    let out = text.replace(regex, REDACTED);
    if (!out.includes("...")) return out;
    for (const secret of this.#secrets) out = scrubCuts(out, secret);
    return out;
  }

  /**
   * `JSON.stringify(value, null, indent)` with secrets scrubbed from string
   * values only.
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import { Redactor } from "@toolfoundation/core/workspace";
   *
   * const r = new Redactor();
   * r.add("123456");
   * assert.equal(r.redactJson({ "123456": 123456, s: "id 123456" }), '{"123456":123456,"s":"id ***"}');
   * ```
   *
   * @param value A JSON value.
   * @param indent The indentation (default none).
   * @returns The JSON text (`undefined` becomes `null`).
   * @throws {TypeError} When the value cannot be JSON (a BigInt, a cycle).
   */
  redactJson(value: unknown, indent?: number): string {
    const regex = this.#regex();
    const text = regex === undefined
      ? JSON.stringify(value, null, indent)
      : JSON.stringify(value, (_key, v) => typeof v === "string" ? this.redact(v) : v, indent);
    return text ?? "null";
  }

  /**
   * A copy of a JSON-like value with secrets scrubbed from its strings only
   * (arrays and plain objects are copied; keys, numbers and other objects stay).
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import { Redactor } from "@toolfoundation/core/workspace";
   *
   * const r = new Redactor();
   * r.add("s3cr3t-value");
   * assert.deepEqual(r.redactValue({ n: 1, t: ["x s3cr3t-value"] }), { n: 1, t: ["x ***"] });
   * ```
   *
   * @param value The value.
   * @returns The scrubbed copy (the value itself when no secret is known).
   */
  redactValue<T>(value: T): T {
    if (this.#regex() === undefined) return value;
    const visit = (v: unknown): unknown => {
      if (typeof v === "string") return this.redact(v);
      if (Array.isArray(v)) return v.map(visit);
      if (typeof v === "object" && v !== null && Object.getPrototypeOf(v) === Object.prototype) {
        return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, visit(x)]));
      }
      return v;
    };
    return visit(value) as T;
  }
}

/** Scrubs a secret's prefix cut by an excerpt, or its suffix after a leading `...`. */
function scrubCuts(text: string, secret: string): string {
  let out = text;
  const chars = [...secret];
  for (let k = chars.length - 1; k >= MIN_SECRET_LENGTH; k--) {
    const head = chars.slice(0, k).join("");
    const tail = chars.slice(chars.length - k).join("");
    out = out.replaceAll(`${head}... (`, `${REDACTED}... (`);
    if (out.startsWith(`...${tail}`)) out = `...${REDACTED}${out.slice(3 + tail.length)}`;
  }
  return out;
}
