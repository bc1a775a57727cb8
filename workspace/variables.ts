/**
 * Variables in server and provider settings, beyond `${env:NAME}` (see
 * `secrets.ts`): `${env:NAME:-default}` (the default when `NAME` is unset or
 * empty) and `${input:ID}` (a value the user gives when the tool runs: asked
 * for on a terminal without echo, or taken from the environment variable
 * `TOOLFOUNDATION_INPUT_<ID>`; never printed). Resolved values are remembered
 * by the redactor, like secrets.
 *
 * @module
 */

import { MissingSecretError, UsageError } from "./errors.ts";
import type { Redactor } from "./secrets.ts";

/** `${env:NAME}`, `${env:NAME:-default}` or `${input:ID}`. */
const VARIABLE = /\$\{(env|input):([A-Za-z_][A-Za-z0-9_.-]*)(?::-([^}]*))?\}/g;
const ANY_PLACEHOLDER = /\$\{([^}]*)\}/g;

/** A `${input:ID}` declared by the manifest's `inputs` section. */
export interface ManifestInput {
  /** What the value is, shown when it is asked for. */
  description?: string;
  /** Whether the value is secret (it is never echoed either way). */
  password?: boolean;
}

/** One variable a string uses. */
export interface VariableReference {
  /** `env` or `input`. */
  kind: "env" | "input";
  /** The variable name or input ID. */
  name: string;
  /** The default (`${env:NAME:-default}`), if any. */
  fallback?: string;
}

/**
 * Every variable a value uses, deeply.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { variableReferences } from "./variables.ts";
 *
 * assert.deepEqual(variableReferences({ url: "${env:HOST:-localhost}/${input:path}" }), [
 *   { kind: "env", name: "HOST", fallback: "localhost" },
 *   { kind: "input", name: "path" },
 * ]);
 * ```
 *
 * @param value Any JSON value.
 * @returns The references, in order of appearance, without duplicates.
 */
export function variableReferences(value: unknown): VariableReference[] {
  const out = new Map<string, VariableReference>();
  const visit = (v: unknown): void => {
    if (typeof v === "string") {
      for (const m of v.matchAll(VARIABLE)) {
        const ref: VariableReference = { kind: m[1] as "env" | "input", name: m[2] };
        if (m[3] !== undefined) ref.fallback = m[3];
        out.set(`${m[1]}:${m[2]}:${m[3] ?? ""}`, ref);
      }
    } else if (Array.isArray(v)) v.forEach(visit);
    else if (typeof v === "object" && v !== null) Object.values(v).forEach(visit);
  };
  visit(value);
  return [...out.values()];
}

/** Placeholders in a string that are none of the variable forms. */
export function unknownPlaceholders(text: string): string[] {
  return [...text.matchAll(ANY_PLACEHOLDER)].map((m) => m[0]).filter((p) =>
    !new RegExp(`^${VARIABLE.source}$`).test(p)
  );
}

/** The environment variable that gives `${input:ID}` without a terminal. */
export function inputVariable(id: string): string {
  return `TOOLFOUNDATION_INPUT_${id.toUpperCase().replace(/[^A-Z0-9_]/g, "_")}`;
}

/** Options of {@linkcode resolveVariables}. */
export interface ResolveVariablesOptions {
  /** Reads an environment variable. */
  env: (name: string) => string | undefined;
  /** Remembers resolved values for scrubbing. */
  redactor: Redactor;
  /** The manifest's `inputs`. */
  inputs?: Readonly<Record<string, ManifestInput>>;
  /** Asks the user for an input on a terminal (no echo); absent when there is none. */
  ask?: (id: string, input: ManifestInput | undefined) => string | undefined;
  /** Inputs already given (each is asked once per run). */
  given?: Map<string, string>;
}

/**
 * Replaces `${env:NAME:-default}` and `${input:ID}` deeply (plain
 * `${env:NAME}` too), remembering each value in the redactor.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Redactor } from "./secrets.ts";
 * import { resolveVariables } from "./variables.ts";
 *
 * const env = (name: string) => name === "TOOLFOUNDATION_INPUT_TOKEN" ? "s3cr3t-value" : undefined;
 * const out = resolveVariables(
 *   { url: "http://${env:HOST:-127.0.0.1}/", auth: "Bearer ${input:token}" },
 *   { env, redactor: new Redactor() },
 * );
 * assert.deepEqual(out, { url: "http://127.0.0.1/", auth: "Bearer s3cr3t-value" });
 * ```
 *
 * @param value Any JSON value.
 * @param options Where values come from.
 * @returns A resolved copy.
 * @throws {MissingSecretError} When an environment variable without default is unset.
 * @throws {UsageError} When an input is not given (saying how to give it).
 */
export function resolveVariables<T>(value: T, options: ResolveVariablesOptions): T {
  const given = options.given ?? new Map<string, string>();
  const one = (kind: string, name: string, fallback: string | undefined): string => {
    if (kind === "env") {
      const found = options.env(name);
      if (found !== undefined && (found !== "" || fallback === undefined)) {
        options.redactor.add(found, name);
        return found;
      }
      if (fallback !== undefined) return fallback;
      throw new MissingSecretError(name);
    }
    const known = given.get(name);
    if (known !== undefined) return known;
    const declared = options.inputs && Object.hasOwn(options.inputs, name)
      ? options.inputs[name]
      : undefined;
    const variable = inputVariable(name);
    const value = options.env(variable) ?? options.ask?.(name, declared);
    if (value === undefined) {
      throw new UsageError(
        `the input ${JSON.stringify(name)}${
          declared?.description ? ` (${declared.description})` : ""
        } is not given: set the environment variable ${variable} (and allow it: --allow-env=${variable}), or run on a terminal to be asked for it`,
      );
    }
    given.set(name, value);
    options.redactor.add(value, variable);
    return value;
  };
  const visit = (v: unknown): unknown => {
    if (typeof v === "string") {
      return v.replace(
        VARIABLE,
        (_, kind: string, name: string, fallback?: string) => one(kind, name, fallback),
      );
    }
    if (Array.isArray(v)) return v.map(visit);
    if (typeof v === "object" && v !== null) {
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, visit(x)]));
    }
    return v;
  };
  return visit(value) as T;
}

/**
 * Asks for an input on the terminal without echoing it (stdin in raw mode);
 * `undefined` when stdin is not a terminal.
 */
export function askOnTerminal(id: string, input: ManifestInput | undefined): string | undefined {
  if (!Deno.stdin.isTerminal()) return undefined;
  const prompt = `${input?.description ?? `value of input ${JSON.stringify(id)}`}: `;
  const bytes: number[] = [];
  // Echo off before the prompt shows: a user who types as soon as it appears
  // must not see the value echoed by the terminal.
  Deno.stdin.setRaw(true);
  try {
    Deno.stderr.writeSync(new TextEncoder().encode(prompt));
    const buf = new Uint8Array(1);
    for (;;) {
      const n = Deno.stdin.readSync(buf);
      if (n === null || n === 0) break;
      const b = buf[0];
      if (b === 3) throw new UsageError(`input ${JSON.stringify(id)}: interrupted`);
      if (b === 13 || b === 10) break;
      if (b === 127 || b === 8) bytes.pop();
      else bytes.push(b);
    }
  } finally {
    Deno.stdin.setRaw(false);
    Deno.stderr.writeSync(new TextEncoder().encode("\n"));
  }
  return new TextDecoder().decode(new Uint8Array(bytes));
}
