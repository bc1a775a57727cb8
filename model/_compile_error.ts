// Private: maps what Hyperjump throws while compiling to our typed errors.

import {
  EvaluationDepthError,
  ExternalRefError,
  InvalidSchemaError,
  ToolFoundationError,
} from "./errors.ts";
import { formatFailures } from "./format_failures.ts";
import type { JsonSchema } from "./tool.ts";
import {
  BlockedRetrieval,
  interpret,
  metaValidator,
  type OutputUnit,
  registeredDocuments,
} from "./_hyperjump.ts";
import { BUILTIN_DIALECTS, ROOT_URI } from "./_dialect.ts";
import { toFailures } from "./_messages.ts";
import { isPlainObject } from "./plain_object.ts";

function collectRefs(schema: unknown, out: string[]): string[] {
  if (Array.isArray(schema)) { for (const item of schema) collectRefs(item, out); }
  else if (isPlainObject(schema)) {
    for (const [key, value] of Object.entries(schema)) {
      if ((key === "$ref" || key === "$dynamicRef") && typeof value === "string") out.push(value);
      else collectRefs(value, out);
    }
  }
  return out;
}

function sameResource(a: string, b: string): boolean {
  return a.split("#")[0] === b.split("#")[0];
}

/** Turns a compile failure into ExternalRefError or InvalidSchemaError, keeping the cause. */
export async function compileError(
  error: unknown,
  schema: JsonSchema,
  dialect: string,
): Promise<ToolFoundationError> {
  if (error instanceof ToolFoundationError) return error;
  if (error instanceof RangeError) {
    return new EvaluationDepthError("compiling the schema", { cause: error });
  }
  const err = error as { name?: string; message?: string; cause?: unknown; output?: unknown };
  if (err?.name === "RetrievalError") {
    const uri = err.cause instanceof BlockedRetrieval
      ? err.cause.uri
      : /resource '([^']*)'/.exec(err.message ?? "")?.[1] ?? "";
    const base = isPlainObject(schema) && typeof schema.$id === "string" ? schema.$id : "";
    const ref = collectRefs(schema, []).find((r) => {
      try {
        return sameResource(new URL(r, new URL(base, ROOT_URI)).href, uri);
      } catch {
        return sameResource(r, uri);
      }
    }) ?? uri;
    return new ExternalRefError(ref, uri, { cause: error });
  }
  if (err?.name === "InvalidSchemaError" && err.output !== undefined) {
    let detail = "it does not match its meta-schema";
    if (BUILTIN_DIALECTS.has(dialect)) {
      const meta = await metaValidator(dialect);
      const output = interpret(meta, schema, "DETAILED", false);
      if (!output.valid) {
        const units = output.errors ?? [];
        const docs = await registeredDocuments(bases(units));
        const failures = toFailures(units, schema, (base) => docs.get(base), "");
        detail = formatFailures(failures);
      }
    }
    return new InvalidSchemaError(detail, { cause: error });
  }
  return new InvalidSchemaError(err?.message ?? String(error), { cause: error });
}

function bases(units: readonly OutputUnit[], out = new Set<string>()): string[] {
  for (const unit of units) {
    out.add(unit.absoluteKeywordLocation.split("#")[0]);
    bases(unit.errors ?? [], out);
  }
  return [...out].sort();
}
