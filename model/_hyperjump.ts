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
import {
  addKeyword,
  getKeywordName,
  getSchema,
  loadDialect,
  toSchema,
  Validation,
} from "@hyperjump/json-schema/experimental";
import * as Instance from "@hyperjump/json-schema/instance/experimental";
import * as Browser from "@hyperjump/browser";
import type { Output, OutputUnit } from "@hyperjump/json-schema";
import { InvalidSchemaError, SchemaShapeError, UnsupportedPatternError } from "./errors.ts";
import { compilePattern, type Matcher, UnboundedPatternError } from "./_regex.ts";
import { testPattern } from "./_pattern_record.ts";
import { SCHEMA_DIALECT_2020_12, SCHEMA_DIALECT_DRAFT_07_ALT } from "./tool.ts";
import { BUDGET_START, ROOT_URI, type TrustedDocument } from "./_dialect.ts";

export { BUDGET_START };

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

// ---- Every keyword that runs a schema's regular expression, on the bounded engine ----

// deno-lint-ignore no-explicit-any
type SchemaBrowser = any;
const compileSubschema = Validation.compile as unknown as (
  schema: SchemaBrowser,
  ast: unknown,
) => Promise<string>;
const interpretSubschema = Validation.interpret as unknown as (
  schemaUri: string,
  instance: SchemaBrowser,
  context: SchemaBrowser,
) => boolean;

/** Where a keyword value is: a pointer in the root document, else an absolute URI. */
function locationOf(browser: SchemaBrowser): string {
  const base = browser.document.baseUri as string;
  return base === ROOT_URI ? browser.cursor : `${base}#${browser.cursor}`;
}

function matcherAt(source: unknown, browser: SchemaBrowser): Matcher {
  const location = locationOf(browser);
  try {
    return compilePattern(String(source));
  } catch (error) {
    if (error instanceof UnboundedPatternError) {
      throw new UnsupportedPatternError(error.pattern, location, error.reason, { cause: error });
    }
    throw new InvalidSchemaError(
      `${JSON.stringify(source)} at ${location || "/"} is not an ECMA-262 regular expression (${
        (error as Error).message
      })`,
      { cause: error, keywordLocation: location },
    );
  }
}

addKeyword({
  id: "https://json-schema.org/keyword/pattern",
  compile: (schema: SchemaBrowser) => matcherAt(Browser.value(schema), schema),
  interpret: (pattern: Matcher, instance: SchemaBrowser) =>
    Instance.typeOf(instance) !== "string" ||
    testPattern(pattern, Instance.value(instance) as string),
} as never);

addKeyword({
  id: "https://json-schema.org/keyword/patternProperties",
  compile: async (schema: SchemaBrowser, ast: unknown) => {
    const out: [Matcher, unknown][] = [];
    for await (const [pattern, propertySchema] of Browser.entries(schema)) {
      const at = await Browser.step(pattern, schema);
      out.push([matcherAt(pattern, at), await compileSubschema(propertySchema, ast)]);
    }
    return out;
  },
  interpret: (patterns: [Matcher, string][], instance: SchemaBrowser, context: SchemaBrowser) => {
    if (Instance.typeOf(instance) !== "object") return true;
    let isValid = true;
    for (const [pattern, schemaUri] of patterns) {
      for (const [nameNode, propertyValue] of Instance.entries(instance)) {
        const name = Instance.value(nameNode) as string;
        if (testPattern(pattern, name)) {
          if (!interpretSubschema(schemaUri, propertyValue, context)) isValid = false;
          context.evaluatedProperties?.add(name);
        }
      }
    }
    return isValid;
  },
  simpleApplicator: true,
} as never);

addKeyword({
  id: "https://json-schema.org/keyword/additionalProperties",
  compile: async (schema: SchemaBrowser, ast: unknown, parentSchema: SchemaBrowser) => {
    const dialect = schema.document.dialectId;
    const names = new Set<string>();
    const properties = await Browser.step(
      getKeywordName(dialect, "https://json-schema.org/keyword/properties"),
      parentSchema,
    );
    if (Browser.typeOf(properties) === "object") {
      for (const name of Browser.keys(properties)) names.add(name);
    }
    const matchers: Matcher[] = [];
    const patternProperties = await Browser.step(
      getKeywordName(dialect, "https://json-schema.org/keyword/patternProperties"),
      parentSchema,
    );
    if (Browser.typeOf(patternProperties) === "object") {
      for (const pattern of Browser.keys(patternProperties)) {
        matchers.push(matcherAt(pattern, await Browser.step(pattern, patternProperties)));
      }
    }
    return [names, matchers, await compileSubschema(schema, ast)];
  },
  interpret: (
    [names, matchers, additional]: [Set<string>, Matcher[], string],
    instance: SchemaBrowser,
    context: SchemaBrowser,
  ) => {
    if (Instance.typeOf(instance) !== "object") return true;
    let isValid = true;
    for (const [nameNode, property] of Instance.entries(instance)) {
      const name = Instance.value(nameNode) as string;
      if (names.has(name) || matchers.some((m) => testPattern(m, name))) continue;
      if (!interpretSubschema(additional, property, context)) isValid = false;
      context.evaluatedProperties?.add(name);
    }
    return isValid;
  },
  simpleApplicator: true,
} as never);

/** A compiled Hyperjump validator. */
export type Interpreter = (
  value: unknown,
  format?: "FLAG" | "DETAILED" | { outputFormat: "FLAG" | "DETAILED"; plugins: unknown[] },
) => Output;

/** Most evaluations of schemas against one location of the value in one pass. */
export const BUDGET_PER_LOCATION = 100_000;

/**
 * An evaluation plugin that bounds how often schemas are applied to one
 * location of the value, for schemas whose evaluation count the schema alone
 * does not bound (recursion through `properties`/`items` with `$ref`s that
 * fan out at every level would otherwise double the work per level).
 */
class EvaluationBudget {
  #count = 0;
  #perLocation: Map<string, number> | undefined;

  beforeSchema(url: string, instance: { pointer: string }): void {
    if (++this.#count <= BUDGET_START) return;
    const counts = this.#perLocation ??= new Map();
    const n = (counts.get(instance.pointer) ?? 0) + 1;
    counts.set(instance.pointer, n);
    if (n <= BUDGET_PER_LOCATION) return;
    const location = url.startsWith(`${ROOT_URI}#`)
      ? decodeURI(url.slice(ROOT_URI.length + 1))
      : url;
    throw new SchemaShapeError(
      "size",
      location,
      `evaluating the value at ${
        instance.pointer || "/"
      } applies schemas more than ${BUDGET_PER_LOCATION} times (at ${
        location || "/"
      }): the schema's references fan out at every level of the value`,
      BUDGET_PER_LOCATION,
    );
  }
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
 * Runs a compiled validator synchronously (with an evaluation budget when
 * asked) with format assertion on or off for this call only (Hyperjump's switch is global, but evaluation is synchronous,
 * so no other evaluation can observe it).
 */
export function interpret(
  interpreter: Interpreter,
  value: unknown,
  format: "FLAG" | "DETAILED",
  assertFormat: boolean,
  budget = false,
): Output {
  const previous = getShouldValidateFormat();
  setShouldValidateFormat(assertFormat);
  try {
    if (budget) {
      return interpreter(value, { outputFormat: format, plugins: [new EvaluationBudget()] });
    }
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

export type { Output, OutputUnit };
