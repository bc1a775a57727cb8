// Private: the function-tool adapter shared by OpenAI Chat Completions and Responses.

import type { ToolIssue } from "../../model/errors.ts";
import type { CanonicalTool } from "../canonical_tool.ts";
import { clone, type Obj, put, WarningSink } from "../_schema/mod.ts";
import { escapePointerToken } from "../../model/json_pointer.ts";
import { isNonArrayObject } from "../../model/plain_object.ts";
import type { ProviderProfile } from "../profile.ts";
import type {
  Adapter,
  CanonicalResult,
  ConversionResult,
  ConvertOptions,
  PreflightProblem,
  PreflightTool,
  ToolCallReading,
} from "../adapter.ts";
import { describeFunctionTool } from "./_preflight.ts";
import { walkSchema } from "../_walk/mod.ts";
import {
  canonicalName,
  check,
  checkNameAndDescription,
  dropToolFields,
  fieldsOf,
  otherFields,
  providerName,
  readInputSchema,
  requireObject,
  strictNormalizer,
  strictOrNot,
} from "../_provider/mod.ts";

const FIELDS = ["name", "description", "parameters", "strict"];

/**
 * An OpenAI function-tool adapter: Chat Completions (`flat: false`, the tool
 * under `function`) or Responses (`flat: true`), with its profile and its
 * tool-call reader.
 */
export function functionToolAdapter<T>(
  format: string,
  flat: boolean,
  builtin: ProviderProfile,
  readToolCall: (call: Record<string, unknown>) => ToolCallReading | undefined,
): Adapter<T> {
  const root = flat ? "" : "/function";
  const sourcePointer = (pointer: string): string => {
    if (pointer.startsWith("/inputSchema")) return `${root}/parameters${pointer.slice(12)}`;
    if (pointer === "/name" || pointer === "/description") return `${root}${pointer}`;
    return pointer;
  };
  return {
    format,
    profile: builtin,

    toCanonical(value: unknown, options?: ConvertOptions): CanonicalResult {
      const tool = requireObject(format, value);
      const profile = options?.profile ?? builtin;
      const sink = new WarningSink(format, "canonical");
      const issues: ToolIssue[] = [];
      if (tool.type !== "function") issues.push({ path: "/type", message: 'must be "function"' });
      const fn = flat ? tool : tool.function;
      if (!isNonArrayObject(fn)) {
        issues.push({ path: "/function", message: "must be an object with name and parameters" });
        check(format, issues);
        return undefined as never;
      }
      checkNameAndDescription(fn, root, issues);
      const inputSchema = readInputSchema(
        format,
        fn.parameters,
        `${root}/parameters`,
        sink,
        issues,
      );
      check(format, issues);
      const canonical: CanonicalTool = {
        ...canonicalName(fn.name as string, profile, options, sink),
        ...(typeof fn.description === "string" ? { description: fn.description } : {}),
        inputSchema: inputSchema as CanonicalTool["inputSchema"],
      };
      const extra: Obj = otherFields(fn, flat ? [...FIELDS, "type"] : FIELDS, root);
      if (fn.strict !== undefined) extra.strict = fn.strict;
      if (Object.keys(extra).length > 0) canonical.providerFields = { openai: extra };
      return {
        tool: canonical,
        warnings: sink.list.map((w) => ({ ...w, path: sourcePointer(w.path) })),
      };
    },

    fromCanonical(tool: CanonicalTool, options?: ConvertOptions): ConversionResult<T> {
      const profile = options?.profile ?? builtin;
      const sink = new WarningSink("canonical", format);
      const name = providerName(tool, profile, options, sink);
      dropToolFields(tool, sink);
      const fields = fieldsOf(tool, "openai");
      const requested = options?.strict ??
        (typeof fields.strict === "boolean" ? fields.strict : "auto");
      const decision = strictOrNot(
        requested,
        profile.strictSchema,
        sink,
        (strictProfile) =>
          strictProfile === undefined
            ? {
              schema: clone(tool.inputSchema, "/inputSchema") as Obj,
              warnings: [],
              nullable: new Map(),
            }
            : walkSchema(tool.inputSchema, {
              profile: strictProfile,
              from: "canonical",
              to: format,
              base: "/inputSchema",
              describe: options?.describeDropped ?? true,
            }),
      );
      const fn: Obj = { name };
      if (tool.description !== undefined) fn.description = tool.description;
      fn.parameters = decision.schema;
      fn.strict = decision.applied;
      for (const [key, value] of Object.entries(fields)) {
        if (key !== "strict" && !Object.hasOwn(fn, key)) {
          put(fn, key, clone(value, `/providerFields/openai/${escapePointerToken(key)}`));
        }
      }
      const out = flat ? { type: "function", ...fn } : { type: "function", function: fn };
      const normalizer = strictNormalizer(decision);
      return {
        tool: out as T,
        warnings: sink.list,
        normalizer,
        strict: { requested, applied: decision.applied, reasons: decision.reasons },
      };
    },

    sourcePointer(pointer: string, _tool: unknown): string {
      return sourcePointer(pointer);
    },

    preflightTool(
      tool: Record<string, unknown>,
      path: string,
      problems: PreflightProblem[],
    ): PreflightTool | undefined {
      return describeFunctionTool(tool, path, flat, problems);
    },

    readToolCall,
  };
}
