// Private: the only place that talks to Hyperjump. It blocks every retrieval,
// serializes compiles (Hyperjump's registry is process-global), and keeps the
// registry empty between compiles so compile cost never grows with the number
// of schemas compiled.

import { addUriSchemePlugin, removeUriSchemePlugin } from "@hyperjump/browser";
import {
  getShouldValidateFormat,
  registerSchema,
  setShouldValidateFormat,
  unregisterSchema,
  validate,
} from "@hyperjump/json-schema/draft-2020-12";
import "@hyperjump/json-schema/draft-07";
import "@hyperjump/json-schema/formats";
import { getSchema, loadDialect, toSchema } from "@hyperjump/json-schema/experimental";
import type { Output, OutputUnit } from "@hyperjump/json-schema";
import {
  SCHEMA_DIALECT_2020_12,
  SCHEMA_DIALECT_DRAFT_07,
  SCHEMA_DIALECT_DRAFT_07_ALT,
} from "./tool.ts";

/** The retrieval URI of the schema being compiled (never fetched). */
export const ROOT_URI = "https://toolfoundation.invalid/schema.json";

const DRAFT_07_VOCABULARY = { [SCHEMA_DIALECT_DRAFT_07_ALT]: true };
const VOCAB_2020_12 = "https://json-schema.org/draft/2020-12/vocab/";
const VOCABULARY_2020_12 = Object.fromEntries(
  ["core", "applicator", "unevaluated", "validation", "meta-data", "format-annotation", "content"]
    .map((v) => [VOCAB_2020_12 + v, true]),
);

/** Thrown by the blocking URI scheme plugins; Hyperjump wraps it in a RetrievalError. */
export class BlockedRetrieval extends Error {
  readonly uri: string;
  constructor(uri: string) {
    super(`retrieval of ${uri} is blocked`);
    this.uri = uri;
  }
}

const blocking = {
  retrieve(uri: string): Promise<Response> {
    throw new BlockedRetrieval(uri);
  },
};
for (const scheme of ["http", "https", "file"]) {
  removeUriSchemePlugin(scheme);
  addUriSchemePlugin(scheme, blocking);
}

/** A compiled Hyperjump validator. */
export type Interpreter = (value: unknown, format?: "FLAG" | "DETAILED") => Output;

/** Normalizes a dialect URI: draft-07 with or without `#` become one. */
export function normalizeDialect(uri: string): string {
  return uri.endsWith("#") ? uri.slice(0, -1) : uri;
}

/** The built-in dialects, normalized. */
export const BUILTIN_DIALECTS: ReadonlySet<string> = new Set([
  SCHEMA_DIALECT_2020_12,
  normalizeDialect(SCHEMA_DIALECT_DRAFT_07),
]);

/** A trusted document to register for the duration of one compile. */
export interface TrustedDocument {
  uri: string;
  schema: unknown;
  /** Set when the document is a meta-schema that declares no `$vocabulary`. */
  dialectBase?: string;
}

let queue: Promise<unknown> = Promise.resolve();

/** Runs `task` after every task queued before it (Hyperjump's registry is shared). */
function serialized<T>(task: () => Promise<T>): Promise<T> {
  const result = queue.then(task, task);
  queue = result.catch(() => undefined);
  return result;
}

/**
 * Compiles `schema` with the trusted documents registered alongside it, then
 * unregisters everything. Compiles run one at a time.
 */
export function compileSchema(
  schema: unknown,
  trusted: readonly TrustedDocument[],
): Promise<Interpreter> {
  const run = async (): Promise<Interpreter> => {
    const registered: string[] = [];
    try {
      for (const doc of trusted) {
        registerSchema(doc.schema as never, doc.uri, SCHEMA_DIALECT_2020_12);
        registered.push(doc.uri);
        if (doc.dialectBase !== undefined) {
          loadDialect(
            doc.uri,
            doc.dialectBase === SCHEMA_DIALECT_2020_12 ? VOCABULARY_2020_12 : DRAFT_07_VOCABULARY,
            true,
          );
        }
      }
      registerSchema(schema as never, ROOT_URI, SCHEMA_DIALECT_2020_12);
      registered.push(ROOT_URI);
      return (await validate(ROOT_URI)) as unknown as Interpreter;
    } finally {
      for (const uri of registered.reverse()) unregisterSchema(uri);
    }
  };
  return serialized(run);
}

/**
 * Runs a compiled validator synchronously with format assertion on or off for
 * this call only (Hyperjump's switch is global, but evaluation is synchronous,
 * so no other evaluation can observe it).
 */
export function interpret(
  interpreter: Interpreter,
  value: unknown,
  format: "FLAG" | "DETAILED",
  assertFormat: boolean,
): Output {
  const previous = getShouldValidateFormat();
  setShouldValidateFormat(assertFormat);
  try {
    return interpreter(value, format);
  } finally {
    setShouldValidateFormat(previous);
  }
}

/** Compiles the meta-schema of a built-in dialect (cached). */
const metaValidators = new Map<string, Promise<Interpreter>>();
export function metaValidator(dialect: string): Promise<Interpreter> {
  let found = metaValidators.get(dialect);
  if (found === undefined) {
    found = serialized(() => validate(dialect) as unknown as Promise<Interpreter>);
    metaValidators.set(dialect, found);
  }
  return found;
}

/** The JSON of registered documents (meta-schemas), for messages that quote keyword values. */
export function registeredDocuments(uris: readonly string[]): Promise<Map<string, unknown>> {
  return serialized(async () => {
    const out = new Map<string, unknown>();
    for (const uri of uris) {
      try {
        out.set(uri, toSchema(await getSchema(uri), { includeDialect: "never" }));
      } catch { /* not registered: messages fall back to generic text */ }
    }
    return out;
  });
}

export type { OutputUnit };
