/**
 * What `validate` (and `chain`, before it runs anything) can tell for certain
 * about a chain: step arguments that break the step's input schema, and
 * `usePrevious` steps whose schema can never accept `previous`. The CLI's
 * `validate` and `chain` commands run them.
 *
 * @module
 */

import {
  type DefaultValidator,
  formatFailure,
  formatFailures,
  type ValidationFailure,
} from "../model/mod.ts";
import { unescapePointerToken } from "../model/json_pointer.ts";
import { isNonArrayObject } from "../model/plain_object.ts";
import { type ManifestIssue, UsageError } from "./errors.ts";
import type { Manifest, ManifestChain, ResolvedTool } from "./manifest.ts";
import { parseReference, referencedStep, referencesIn } from "../run/chain_pointer.ts";

/** Keywords whose outcome may depend on other properties (e.g. on `previous`). */
const CONDITIONAL = new Set([
  "anyOf",
  "oneOf",
  "not",
  "if",
  "then",
  "else",
  "dependentSchemas",
  "dependentRequired",
  "dependencies",
  "unevaluatedProperties",
  "minProperties",
  "maxProperties",
]);

/** Values `previous` is probed with: one of each JSON type. */
const PROBES: unknown[] = [null, true, 0, "", [], {}];

type Schema = Record<string, unknown>;

function asSchema(value: unknown): Schema | undefined {
  return isNonArrayObject(value) ? value : undefined;
}

function types(schema: Schema | undefined): Set<string> | undefined {
  const t = schema?.type;
  if (typeof t === "string") return new Set([t]);
  if (Array.isArray(t) && t.every((x) => typeof x === "string")) return new Set(t as string[]);
  return undefined;
}

function overlaps(a: Set<string>, b: Set<string>): boolean {
  for (const t of a) {
    if (b.has(t)) return true;
    if (t === "integer" && b.has("number")) return true;
    if (t === "number" && b.has("integer")) return true;
  }
  return false;
}

/** Why the step's schema can never accept `previous`, if it cannot. */
function neverAcceptsPrevious(
  input: Schema,
  previousTool: ResolvedTool | undefined,
): string | undefined {
  const properties = asSchema(input.properties);
  const has = properties !== undefined && Object.hasOwn(properties, "previous");
  const own = has ? properties!.previous : undefined;
  if (own === false) return "its input schema sets `previous: false`";
  if (!has && input.additionalProperties === false) {
    const patterns = Object.keys(asSchema(input.patternProperties) ?? {});
    const matched = patterns.some((p) => {
      try {
        return new RegExp(p, "u").test("previous");
      } catch {
        return true; // unknown pattern: not certain
      }
    });
    if (!matched) {
      return "its input schema has `additionalProperties: false` and no `previous` property";
    }
  }
  const wanted = types(asSchema(own));
  const output = previousTool?.schemaFromServer ? undefined : previousTool?.tool.outputSchema;
  const given = types(asSchema(output));
  if (wanted !== undefined && given !== undefined && !overlaps(given, wanted)) {
    return `\`previous\` must be ${[...wanted].join(" or ")}, but the previous step (${
      previousTool!.id
    }) returns ${[...given].join(" or ")} by its output schema`;
  }
  return undefined;
}

function signature(f: ValidationFailure): string {
  return `${f.instanceLocation}\n${f.keywordLocation}\n${f.message}`;
}

/** Failures of `args` that hold whatever `previous` is. */
function certainFailures(
  check: (value: unknown) => readonly ValidationFailure[],
  args: Record<string, unknown>,
): ValidationFailure[] {
  let common: Map<string, ValidationFailure> | undefined;
  for (const probe of [undefined, ...PROBES]) {
    const value = { ...args };
    if (probe === undefined) delete value.previous;
    else value.previous = probe;
    const found = new Map(check(value).map((f) => [signature(f), f]));
    common = common === undefined ? found : new Map([...common].filter(([k]) => found.has(k)));
    if (common.size === 0) return [];
  }
  return [...common!.values()].filter((f) =>
    !f.instanceLocation.startsWith("/previous") && !CONDITIONAL.has(f.keyword) &&
    !/'previous'/.test(f.message)
  );
}

/**
 * Problems of the chains (or only `only`) that are certain to fail at run
 * time, located in the manifest. Steps of tools whose schemas come from an
 * MCP server at run time, or whose schema does not compile, are skipped.
 */
export async function checkChains(
  manifest: Manifest,
  validator: DefaultValidator,
  only?: string,
): Promise<ManifestIssue[]> {
  const tools = new Map(manifest.tools.map((t) => [t.id, t]));
  const issues: ManifestIssue[] = [];
  const push = (pointer: string, message: string, key = false) => {
    const at = manifest.locate?.(pointer, key) ?? { line: 1, column: 1 };
    issues.push({ file: manifest.path, ...at, path: pointer, message });
  };
  for (const [name, chain] of Object.entries(manifest.chains)) {
    if (only !== undefined && name !== only) continue;
    for (let i = 0; i < chain.steps.length; i++) {
      const step = chain.steps[i];
      const tool = tools.get(step.tool);
      if (tool === undefined || tool.schemaFromServer) continue;
      let compiled;
      try {
        compiled = await validator.compile(tool.tool.inputSchema);
      } catch {
        continue; // `validate` reports the schema itself
      }
      const check = (value: unknown): readonly ValidationFailure[] => {
        try {
          const r = compiled.check(value);
          return r.valid ? [] : r.failures;
        } catch {
          return [];
        }
      };
      const at = `/chains/${name}/steps/${i}`;
      // Arguments that come from references are checked by checkReferences.
      const args = { ...(step.args ?? {}) };
      const referenced = new Set<string>();
      for (const r of referencesIn(step.args ?? {})) {
        const key = unescapePointerToken(r.at.split("/")[1] ?? "");
        referenced.add(key);
        delete args[key];
      }
      const failures = (step.usePrevious === true ? certainFailures(check, args) : [...check(args)])
        .filter((f) =>
          ![...referenced].some((k) =>
            f.instanceLocation.startsWith(`/${k}`) ||
            (f.keyword === "required" && f.message.includes(`'${k}'`))
          )
        );
      for (const f of failures) {
        push(
          `${at}/args${f.instanceLocation}`,
          `tool ${JSON.stringify(tool.id)} would reject these arguments: ${formatFailure(f)}`,
        );
      }
      if (step.usePrevious === true && i > 0) {
        const why = neverAcceptsPrevious(
          tool.tool.inputSchema as Schema,
          tools.get(chain.steps[i - 1].tool),
        );
        if (why !== undefined) {
          push(
            `${at}/usePrevious`,
            `tool ${JSON.stringify(tool.id)} can never accept \`previous\`: ${why}`,
          );
        }
      }
    }
  }
  for (const [name, chain] of Object.entries(manifest.chains)) {
    if (only !== undefined && name !== only) continue;
    checkReferences(name, chain, tools, push);
  }
  return issues.sort((a, b) => a.line - b.line || a.column - b.column);
}

/** The schema at a JSON Pointer into an instance (following properties and items), if known. */
function schemaAt(schema: Schema | undefined, pointer: string): Schema | undefined {
  let current = schema;
  for (const raw of pointer === "" ? [] : pointer.slice(1).split("/")) {
    if (current === undefined) return undefined;
    const token = unescapePointerToken(raw);
    const properties = asSchema(current.properties);
    if (properties !== undefined && Object.hasOwn(properties, token)) {
      current = asSchema(properties[token]);
    } else if (/^(0|[1-9][0-9]*)$/.test(token) && asSchema(current.items) !== undefined) {
      current = asSchema(current.items);
    } else return undefined;
  }
  return current;
}

/**
 * References in step arguments: well-formed, to a step that exists and runs
 * earlier, and, where the earlier step's output schema (or the chain's input
 * schema) says the type, of a type the argument accepts.
 */
function checkReferences(
  name: string,
  chain: ManifestChain,
  tools: Map<string, ResolvedTool>,
  push: (pointer: string, message: string) => void,
): void {
  const ids = chain.steps.map((s) => s.id);
  chain.steps.forEach((step, i) => {
    const seen = ids.indexOf(step.id);
    if (step.id !== undefined && seen !== i) {
      push(
        `/chains/${name}/steps/${i}/id`,
        `step id ${JSON.stringify(step.id)} is also step ${seen}'s`,
      );
    }
    for (const r of referencesIn(step.args ?? {})) {
      const where = `/chains/${name}/steps/${i}/args${r.at}`;
      const ref = parseReference(r.from);
      if (ref === undefined) {
        push(
          `${where}/$from`,
          `${JSON.stringify(r.from)}: write input/<pointer> or steps/<index or id>/<pointer>`,
        );
        continue;
      }
      let source: Schema | undefined;
      let label: string;
      if (ref.source === "input") {
        source = chain.inputSchema as Schema | undefined;
        label = "the chain's input schema";
        if (source === undefined) {
          push(`${where}/$from`, `${JSON.stringify(r.from)}: the chain declares no inputSchema`);
          continue;
        }
      } else {
        const target = referencedStep(ref, ids, i);
        if ("problem" in target) {
          push(`${where}/$from`, `${JSON.stringify(r.from)}: ${target.problem}`);
          continue;
        }
        const from = tools.get(chain.steps[target.index].tool);
        source = from?.schemaFromServer ? undefined : from?.tool.outputSchema as Schema | undefined;
        label = `the output schema of step ${target.index} (${from?.id})`;
      }
      const given = types(schemaAt(source, ref.pointer));
      const tool = tools.get(step.tool);
      const input = tool?.schemaFromServer ? undefined : tool?.tool.inputSchema as Schema;
      const wanted = types(schemaAt(input, r.at));
      if (given !== undefined && wanted !== undefined && !overlaps(given, wanted)) {
        push(
          `${where}/$from`,
          `${JSON.stringify(r.from)} is ${[...given].join(" or ")} by ${label}, but tool ${
            JSON.stringify(step.tool)
          } wants ${[...wanted].join(" or ")} at ${r.at}`,
        );
      }
    }
  });
}

/**
 * Checks a chain's input (`chain ... --args`) against its `inputSchema`.
 *
 * @throws {UsageError} Listing every failure (a chain without inputSchema takes any input).
 */
export async function checkChainInput(
  name: string,
  chain: ManifestChain,
  input: unknown,
  validator: DefaultValidator,
): Promise<void> {
  if (chain.inputSchema === undefined) return;
  const compiled = await validator.compile(chain.inputSchema);
  const result = compiled.check(input ?? {});
  if (result.valid) return;
  throw new UsageError(
    `the input of chain ${JSON.stringify(name)} does not match its inputSchema: ${
      formatFailures(result.failures)
    }`,
  );
}
