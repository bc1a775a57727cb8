// Private: what `validate` (and `chain`, before it runs anything) can tell for
// certain about a chain: step arguments that break the step's input schema,
// and `usePrevious` steps whose schema can never accept `previous`.

import type { DefaultValidator, ValidationFailure } from "../model/mod.ts";
import { isNonArrayObject } from "../model/_json_pointer.ts";
import type { ManifestIssue } from "./errors.ts";
import type { Manifest, ResolvedTool } from "./manifest.ts";

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
      const args = step.args ?? {};
      const failures = step.usePrevious === true ? certainFailures(check, args) : [...check(args)];
      for (const f of failures) {
        push(
          `${at}/args${f.instanceLocation}`,
          `tool ${JSON.stringify(tool.id)} would reject these arguments: ${
            f.instanceLocation || "/"
          }: ${f.message}`,
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
  return issues.sort((a, b) => a.line - b.line || a.column - b.column);
}
