/**
 * The model and validator at work: define five sample tools, check them, and
 * validate the arguments a model might produce, printing what a model would be
 * told to repair its call. Runs with no permissions at all:
 *
 *     deno run examples/demo.ts
 *
 * @module
 */

import {
  DefaultValidator,
  ExternalRefError,
  InvalidToolError,
  SchemaValidationError,
  toMCPJSON,
  type Tool,
  toolId,
  validateTool,
} from "../mod.ts";

const calculator: Tool = {
  name: "calculate",
  namespace: "math",
  version: "1.0.0",
  tags: ["math", "arithmetic"],
  description: "Perform a basic arithmetic operation",
  inputSchema: {
    type: "object",
    properties: {
      operation: { type: "string", enum: ["add", "subtract", "multiply", "divide"] },
      a: { type: "number", description: "First operand" },
      b: { type: "number", description: "Second operand" },
    },
    required: ["operation", "a", "b"],
    additionalProperties: false,
  },
  outputSchema: {
    type: "object",
    properties: { result: { type: "number" } },
    required: ["result"],
  },
  annotations: { readOnlyHint: true, idempotentHint: true },
};

const sendEmail: Tool = {
  name: "send_email",
  namespace: "mail",
  description: "Send an email",
  inputSchema: {
    $schema: "http://json-schema.org/draft-07/schema#",
    type: "object",
    properties: {
      to: { type: "array", items: { type: "string", format: "email" }, minItems: 1 },
      subject: { type: "string", minLength: 1, maxLength: 200 },
      body: { type: "string" },
    },
    required: ["to", "subject", "body"],
  },
};

const validator = new DefaultValidator();

function show(label: string, value: unknown): void {
  console.log(`${label.padEnd(28)} ${typeof value === "string" ? value : JSON.stringify(value)}`);
}

console.log("== tools");
for (const tool of [calculator, sendEmail]) {
  validateTool(tool);
  show(`${toolId(tool)}`, `valid tool; MCP form: ${toMCPJSON(tool).length} bytes`);
}

console.log("\n== a broken tool definition: every problem at once");
try {
  validateTool({
    name: "calc ulate!",
    namespace: "a:b",
    version: "one",
    inputSchema: { type: "array" },
  });
} catch (error) {
  if (!(error instanceof InvalidToolError)) throw error;
  for (const issue of error.issues) show(issue.path, issue.message);
}

console.log("\n== arguments a model produced");
const calls: [Tool, unknown][] = [
  [calculator, { operation: "add", a: 2, b: 3 }],
  [calculator, { operation: "power", a: "2", c: 1 }],
  [sendEmail, { to: [], subject: "", body: "Hi" }],
  [sendEmail, { to: ["a@example.com"], subject: "Hello", body: "Hi there!" }],
];
for (const [tool, args] of calls) {
  try {
    await validator.validateInput(tool, args);
    show(toolId(tool), `ok ${JSON.stringify(args)}`);
  } catch (error) {
    if (!(error instanceof SchemaValidationError)) throw error;
    show(toolId(tool), `rejected: ${error.message}`);
  }
}

console.log("\n== a result checked against the output schema");
await validator.validateOutput(calculator, { result: 5 });
show(toolId(calculator), "output { result: 5 } ok");
await validator.validateOutput(calculator, { result: "five" }).catch((error) =>
  show(toolId(calculator), error.message)
);

console.log("\n== nothing is ever fetched");
await validator.validate({ $ref: "https://example.com/schemas/user.json" }, {}).catch((error) => {
  if (!(error instanceof ExternalRefError)) throw error;
  show(error.code, error.message);
});
