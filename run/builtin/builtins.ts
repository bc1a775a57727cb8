/**
 * Built-in local tools shipped with the CLI: a calculator, text
 * and JSON helpers, and a cancellable wait that reports progress. A manifest
 * names one with `builtin: <name>` and inherits its schemas.
 *
 * @module
 */

import { type BuiltinTool, PURE } from "./builtin_tool.ts";
import { JSON_FORMAT, JSON_GET } from "./_json.ts";
import { TEXT_TEMPLATE, TEXT_TRANSFORM } from "./_text.ts";

export type { BuiltinTool } from "./builtin_tool.ts";

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
  "text.template": TEXT_TEMPLATE,
  "text.transform": TEXT_TRANSFORM,
  "json.get": JSON_GET,
  "json.format": JSON_FORMAT,
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
 * import { getBuiltin } from "@toolfoundation/core/workspace";
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
