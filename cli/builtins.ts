/**
 * Built-in local tools shipped with the CLI: a calculator (seed 002's), text
 * and JSON helpers, and a cancellable wait that reports progress. A manifest
 * names one with `builtin: <name>` and inherits its schemas.
 *
 * @module
 */

import type { Tool } from "../model/mod.ts";
import { unescapePointerToken } from "../model/_json_pointer.ts";
import type { LocalHandler } from "../run/mod.ts";

/** A built-in tool: its default definition and its handler. */
export interface BuiltinTool {
  /** The default definition (a manifest may override name, namespace and docs). */
  tool: Tool;
  /** The in-process handler. */
  handler: LocalHandler;
}

function at(value: unknown, path: string): unknown {
  let current = value;
  for (const part of path.split(".")) {
    if (typeof current !== "object" || current === null || !Object.hasOwn(current, part)) {
      return undefined;
    }
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}

function pointerGet(value: unknown, pointer: string): unknown {
  if (pointer === "") return value;
  if (!pointer.startsWith("/")) {
    throw new Error(`"${pointer}" is not a JSON Pointer (it must start with "/")`);
  }
  let current = value;
  for (const raw of pointer.slice(1).split("/")) {
    const token = unescapePointerToken(raw);
    const found = Array.isArray(current)
      // RFC 6901: an array index is "0" or digits without a leading zero.
      ? /^(0|[1-9][0-9]*)$/.test(token) && Number(token) < current.length
      : typeof current === "object" && current !== null && Object.hasOwn(current, token);
    if (!found) throw new Error(`nothing at ${pointer} (no "${token}")`);
    current = (current as Record<string, unknown>)[token];
  }
  return current;
}

/** `args.value`, or else `args.previous`: the document a JSON helper works on. */
function documentOf(args: Record<string, unknown>): unknown {
  return Object.hasOwn(args, "value") ? args.value : args.previous;
}

/** Input schemas of the JSON helpers: a value, or a previous step's result. */
const VALUE_OR_PREVIOUS = [{ required: ["value"] }, { required: ["previous"] }];

const OPERATIONS: Readonly<Record<string, (a: number, b: number) => number>> = {
  add: (a, b) => a + b,
  subtract: (a, b) => a - b,
  multiply: (a, b) => a * b,
  divide: (a, b) => {
    if (b === 0) throw new Error("division by zero");
    return a / b;
  },
  power: (a, b) => a ** b,
  modulo: (a, b) => {
    if (b === 0) throw new Error("modulo by zero");
    return a % b;
  },
};

const number = { type: "number" };
function withoutPrototype(
  entries: Record<string, BuiltinTool>,
): Readonly<Record<string, BuiltinTool>> {
  return Object.freeze(Object.assign(Object.create(null), entries));
}

/** Pure functions of their arguments. */
const PURE = { readOnlyHint: true, idempotentHint: true, openWorldHint: false };

/**
 * Every built-in tool, by the name a manifest's `builtin` gives (an object
 * without a prototype: `toString` or `constructor` are not built-ins; look
 * names up with {@linkcode getBuiltin}).
 */
export const BUILTINS: Readonly<Record<string, BuiltinTool>> = withoutPrototype({
  calculate: {
    tool: {
      name: "calculate",
      description: "Perform an arithmetic operation on two numbers",
      inputSchema: {
        type: "object",
        properties: {
          operation: {
            type: "string",
            description: "Mathematical operation",
            enum: Object.keys(OPERATIONS),
          },
          a: { type: "number", description: "First operand" },
          b: { type: "number", description: "Second operand" },
          previous: { description: "Set by a chain step with usePrevious; ignored" },
        },
        required: ["operation", "a", "b"],
        additionalProperties: false,
      },
      outputSchema: { type: "object", properties: { result: number }, required: ["result"] },
      annotations: PURE,
    },
    handler: (args) => {
      const operation = String(args.operation);
      if (!Object.hasOwn(OPERATIONS, operation)) {
        throw new Error(`unknown operation ${operation}`);
      }
      const result = OPERATIONS[operation](args.a as number, args.b as number);
      if (!Number.isFinite(result)) throw new Error(`the result is not finite (${result})`);
      return { result };
    },
  },
  "text.template": {
    tool: {
      name: "template",
      description:
        "Fill {{name}} placeholders from `values` and, in a chain, from `previous` ({{previous.result}})",
      inputSchema: {
        type: "object",
        properties: {
          template: { type: "string", description: "Text with {{dotted.path}} placeholders" },
          values: { type: "object", description: "Values for the placeholders" },
          previous: { description: "The previous chain step's result" },
        },
        required: ["template"],
        additionalProperties: false,
      },
      outputSchema: {
        type: "object",
        properties: { text: { type: "string" } },
        required: ["text"],
      },
      annotations: PURE,
    },
    handler: (args) => {
      const scope: Record<string, unknown> = Object.create(null);
      for (const [k, v] of Object.entries(args.values ?? {})) {
        Object.defineProperty(scope, k, { value: v, enumerable: true });
      }
      if (Object.hasOwn(args, "previous")) {
        Object.defineProperty(scope, "previous", { value: args.previous, enumerable: true });
      }
      const missing: string[] = [];
      const text = (args.template as string).replace(/\{\{\s*([\w.-]+)\s*\}\}/g, (_, path) => {
        const value = at(scope, path);
        if (value === undefined) {
          missing.push(path);
          return "";
        }
        return typeof value === "string" ? value : JSON.stringify(value) ?? "";
      });
      if (missing.length > 0) {
        throw new Error(`no value for ${missing.map((m) => `{{${m}}}`).join(", ")}`);
      }
      return { text };
    },
  },
  "text.transform": {
    tool: {
      name: "transform",
      description:
        "Transform text: upper, lower, trim, reverse, length or words (in a chain, `text` defaults to the previous step's text)",
      inputSchema: {
        type: "object",
        properties: {
          text: { type: "string" },
          operation: { enum: ["upper", "lower", "trim", "reverse", "length", "words"] },
          previous: { description: "The previous chain step's result: a string or { text }" },
        },
        required: ["operation"],
        // The text: `text`, or a previous result that is a string or { text: string }.
        anyOf: [
          { required: ["text"] },
          {
            required: ["previous"],
            properties: {
              previous: {
                anyOf: [{ type: "string" }, {
                  type: "object",
                  required: ["text"],
                  properties: { text: { type: "string" } },
                }],
              },
            },
          },
        ],
        additionalProperties: false,
      },
      outputSchema: {
        type: "object",
        properties: {
          result: {
            anyOf: [{ type: "string" }, { type: "integer" }, {
              type: "array",
              items: { type: "string" },
            }],
          },
        },
        required: ["result"],
      },
      annotations: PURE,
    },
    handler: (args) => {
      const previous = args.previous as { text?: unknown } | string | undefined;
      const text = args.text ??
        (typeof previous === "string"
          ? previous
          : typeof previous === "object" && previous !== null && Object.hasOwn(previous, "text")
          ? previous.text
          : undefined);
      if (typeof text !== "string") {
        throw new Error(
          "no text: give `text`, or run after a step whose result is a string or { text }",
        );
      }
      const ops: Readonly<Record<string, () => unknown>> = {
        upper: () => text.toUpperCase(),
        lower: () => text.toLowerCase(),
        trim: () => text.trim(),
        reverse: () => [...text].reverse().join(""),
        length: () => [...text].length,
        words: () => text.split(/\s+/).filter((w) => w !== ""),
      };
      const operation = String(args.operation);
      if (!Object.hasOwn(ops, operation)) throw new Error(`unknown operation ${operation}`);
      return { result: ops[operation]() };
    },
  },
  "json.get": {
    tool: {
      name: "get",
      description:
        "Read the value at a JSON Pointer in `value` (or, in a chain, in the previous step's result)",
      inputSchema: {
        type: "object",
        properties: {
          pointer: { type: "string", description: 'A JSON Pointer such as "/result"' },
          value: { description: "The document (defaults to previous)" },
          previous: { description: "The previous chain step's result" },
        },
        required: ["pointer"],
        anyOf: VALUE_OR_PREVIOUS,
        additionalProperties: false,
      },
      outputSchema: {
        type: "object",
        properties: { value: { description: "The value found (any JSON value)" } },
        required: ["value"],
      },
      annotations: PURE,
    },
    handler: (args) => ({ value: pointerGet(documentOf(args), args.pointer as string) }),
  },
  "json.format": {
    tool: {
      name: "format",
      description: "Format a JSON value as text",
      inputSchema: {
        type: "object",
        properties: {
          value: { description: "The value (defaults to previous)" },
          indent: { type: "integer", minimum: 0, maximum: 8, default: 2 },
          previous: { description: "The previous chain step's result" },
        },
        anyOf: VALUE_OR_PREVIOUS,
        additionalProperties: false,
      },
      outputSchema: {
        type: "object",
        properties: { text: { type: "string" } },
        required: ["text"],
      },
      annotations: PURE,
    },
    handler: (args) => ({
      text: JSON.stringify(documentOf(args), null, (args.indent as number | undefined) ?? 2) ??
        "null",
    }),
  },
  wait: {
    tool: {
      name: "wait",
      description: "Wait for `ms` milliseconds in `steps` steps, reporting progress; cancellable",
      inputSchema: {
        type: "object",
        properties: {
          ms: { type: "integer", minimum: 0, maximum: 3_600_000 },
          steps: { type: "integer", minimum: 1, maximum: 1000, default: 10 },
        },
        required: ["ms"],
        additionalProperties: false,
      },
      outputSchema: { type: "object", properties: { waitedMs: number }, required: ["waitedMs"] },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    handler: async (args, ctx) => {
      const steps = (args.steps as number | undefined) ?? 10;
      const ms = args.ms as number;
      const started = Date.now();
      for (let i = 1; i <= steps; i++) {
        await new Promise<void>((resolve, reject) => {
          const timer = setTimeout(resolve, ms / steps);
          ctx.signal.addEventListener("abort", () => {
            clearTimeout(timer);
            reject(ctx.signal.reason);
          }, { once: true });
        });
        ctx.progress({ progress: i, total: steps, message: `step ${i} of ${steps}` });
      }
      return { waitedMs: Date.now() - started };
    },
  },
});

/**
 * The built-in tool a manifest's `builtin` names, looking at own entries only.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { getBuiltin } from "@toolfoundation/core/cli";
 *
 * assert.equal(getBuiltin("calculate")?.tool.name, "calculate");
 * assert.equal(getBuiltin("toString"), undefined);
 * ```
 *
 * @param name The name.
 * @returns The built-in, or `undefined`.
 */
export function getBuiltin(name: string): BuiltinTool | undefined {
  return Object.hasOwn(BUILTINS, name) ? BUILTINS[name] : undefined;
}
