// Private: the text built-ins, `text.template` and `text.transform`.

import { type BuiltinTool, PURE } from "./builtin_tool.ts";

/** The value at a dotted path (own properties only), or `undefined`. */
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

/** `text.template`: fills `{{dotted.path}}` placeholders. */
export const TEXT_TEMPLATE: BuiltinTool = {
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
};

/** `text.transform`. */
export const TEXT_TRANSFORM: BuiltinTool = {
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
};
