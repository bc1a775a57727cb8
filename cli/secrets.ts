/**
 * Secrets by reference: `${env:NAME}` in a server's or provider's settings is
 * replaced by the environment variable at run time. Resolved values are never
 * echoed: a {@linkcode Redactor} scrubs them from everything the CLI prints.
 *
 * @module
 */

import { ToolFoundationError } from "../model/mod.ts";

const REFERENCE = /\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}/g;
const ANY_PLACEHOLDER = /\$\{([^}]*)\}/g;

/**
 * The variable names referenced in a value (deeply), sorted and unique.
 *
 * @example
 * ```ts
 * import { secretReferences } from "@toolfoundation/core/cli";
 *
 * console.log(secretReferences({ headers: { Authorization: "Bearer ${env:TOKEN}" } })); // [ "TOKEN" ]
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

/** Scrubs secret values out of text before it is printed. */
export class Redactor {
  readonly #secrets = new Set<string>();

  /**
   * Remembers a secret value.
   *
   * @param value The secret.
   */
  add(value: string): void {
    if (value.length >= 3) this.#secrets.add(value);
  }

  /**
   * Replaces every remembered secret in `text` with `***`.
   *
   * @example
   * ```ts
   * import { Redactor } from "@toolfoundation/core/cli";
   *
   * const r = new Redactor();
   * r.add("s3cr3t");
   * console.log(r.redact("token s3cr3t rejected")); // token *** rejected
   * ```
   *
   * @param text The text.
   * @returns The text without secrets.
   */
  redact(text: string): string {
    let out = text;
    for (const secret of [...this.#secrets].sort((a, b) => b.length - a.length)) {
      out = out.replaceAll(secret, "***");
    }
    return out;
  }
}

/** A variable a reference names is not set (exit code 2: a configuration error). */
export class MissingSecretError extends ToolFoundationError {
  /** The variable's name. */
  readonly variable: string;

  /**
   * Creates the error.
   *
   * @param variable The variable's name.
   */
  constructor(variable: string) {
    super(
      "missing_secret",
      `environment variable ${variable} is not set (referenced as \${env:${variable}})`,
    );
    this.variable = variable;
  }
}

/**
 * Replaces `${env:NAME}` references deeply, remembering each value in the redactor.
 *
 * @param value Any JSON value.
 * @param lookup Reads a variable (`undefined` when unset).
 * @param redactor Where resolved values are remembered.
 * @returns A resolved copy.
 * @throws {MissingSecretError} When a referenced variable is unset.
 */
export function resolveSecrets<T>(
  value: T,
  lookup: (name: string) => string | undefined,
  redactor: Redactor,
): T {
  const visit = (v: unknown): unknown => {
    if (typeof v === "string") {
      return v.replace(REFERENCE, (_, name: string) => {
        const found = lookup(name);
        if (found === undefined) throw new MissingSecretError(name);
        redactor.add(found);
        return found;
      });
    }
    if (Array.isArray(v)) return v.map(visit);
    if (typeof v === "object" && v !== null) {
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, visit(x)]));
    }
    return v;
  };
  return visit(value) as T;
}
