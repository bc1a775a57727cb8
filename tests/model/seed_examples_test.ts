// Every documented example (Example_*) of the Go library this package ports,
// with output compared word for word with what Go prints (its %q quoting and %v
// of a nil error reproduced), so that its users see the same results here.
import assert from "node:assert/strict";
import {
  DefaultValidator,
  fromMCPJSON,
  localBackend,
  mcpBackend,
  parseToolId,
  providerBackend,
  toJSON,
  toMCPJSON,
  type Tool,
  toolId,
} from "../../model/mod.ts";

const q = (s: string) => JSON.stringify(s);
const passes = (p: Promise<void>) => p.then(() => true, () => false);

Deno.test("Example_backendBinding prints the Go example's output", () => {
  const m = mcpBackend("filesystem-server");
  const p = providerBackend("openai", "gpt-4-vision");
  const l = localBackend("custom-handler");
  const out = [
    `MCP Backend: kind=${m.kind}, server=${m.mcp.serverName}`,
    `Provider Backend: kind=${p.kind}, provider=${p.provider.providerId}, tool=${p.provider.toolId}`,
    `Local Backend: kind=${l.kind}, name=${l.local.name}`,
  ].join(" ");
  assert.equal(
    out,
    "MCP Backend: kind=mcp, server=filesystem-server Provider Backend: kind=provider, provider=openai, tool=gpt-4-vision Local Backend: kind=local, name=custom-handler",
  );
});

Deno.test("Example_createTool prints the Go example's output", () => {
  const tool: Tool = {
    name: "search",
    description: "Search for documents by query",
    inputSchema: {
      type: "object",
      properties: {
        query: { type: "string", description: "The search query" },
        limit: { type: "integer", description: "Maximum number of results", default: 10 },
      },
      required: ["query"],
    },
    namespace: "docs",
    version: "1.0.0",
  };
  const out = [
    `Tool ID: ${toolId(tool)}`,
    `Name: ${tool.name}`,
    `Description: ${tool.description}`,
  ].join(" ");
  assert.equal(out, "Tool ID: docs:search Name: search Description: Search for documents by query");
});

Deno.test("Example_fromMCPJSON prints the Go example's output", () => {
  const tool: Tool = fromMCPJSON(`{
"name": "calculate",
"description": "Perform calculations",
"inputSchema": {
"type": "object",
"properties": {
"expression": {"type": "string"}
},
"required": ["expression"]
}
}`);
  const out = [
    `Name: ${tool.name}`,
    `Namespace: ${q(tool.namespace ?? "")} (empty from MCP JSON)`,
  ].join(" ");
  assert.equal(out, 'Name: calculate Namespace: "" (empty from MCP JSON)');
});

Deno.test("Example_noParametersTool prints the Go example's output", async () => {
  const tool: Tool = {
    name: "get_time",
    description: "Get the current time",
    inputSchema: { type: "object", additionalProperties: false },
  };
  const validator = new DefaultValidator();
  const empty = await passes(validator.validateInput(tool, {}));
  const extra = !(await passes(validator.validateInput(tool, { unexpected: "value" })));
  assert.equal(
    `Empty object: valid=${empty} Extra properties: rejected=${extra}`,
    "Empty object: valid=true Extra properties: rejected=true",
  );
});

Deno.test("Example_parseToolID prints the Go example's output", () => {
  const a = parseToolId("filesystem:read");
  const b = parseToolId("echo");
  assert.equal(
    `Namespace: ${q(a.namespace)}, Name: ${q(a.name)} Namespace: ${q(b.namespace)}, Name: ${
      q(b.name)
    }`,
    'Namespace: "filesystem", Name: "read" Namespace: "", Name: "echo"',
  );
});

Deno.test("Example_toolJSON prints the Go example's output", () => {
  const tool: Tool = {
    name: "greet",
    description: "Greet a user",
    inputSchema: { type: "object", properties: { name: { type: "string" } } },
    namespace: "example",
    version: "2.0.0",
  };
  const mcp = JSON.parse(toMCPJSON(tool));
  const full = JSON.parse(toJSON(tool));
  const out = [
    "MCP JSON (no namespace/version):",
    ` Has namespace: ${"namespace" in mcp}`,
    "Full JSON (with namespace/version):",
    ` namespace: ${full.namespace}`,
    ` version: ${full.version}`,
  ].join("\n").replace(/\s+/g, " "); // Go's printed lines, whitespace collapsed
  assert.equal(
    out,
    "MCP JSON (no namespace/version): Has namespace: false Full JSON (with namespace/version): namespace: example version: 2.0.0",
  );
});

Deno.test("Example_validateInput prints the Go example's output", async () => {
  const tool: Tool = {
    name: "send_email",
    description: "Send an email",
    inputSchema: {
      type: "object",
      properties: { to: { type: "string" }, subject: { type: "string" }, body: { type: "string" } },
      required: ["to", "subject"],
    },
  };
  const validator = new DefaultValidator();
  const error = await validator.validateInput(tool, {
    to: "user@example.com",
    subject: "Hello",
    body: "Hi there!",
  }).then(() => null, (e) => e);
  const invalid = !(await passes(validator.validateInput(tool, { body: "Hi there!" })));
  assert.equal(
    `Valid input: error=${error ?? "<nil>"} Invalid input: error=${invalid}`,
    "Valid input: error=<nil> Invalid input: error=true",
  );
});

Deno.test("Example_validateSchema prints the Go example's output", async () => {
  const schema = {
    type: "object",
    properties: { name: { type: "string" }, age: { type: "integer", minimum: 0 } },
    required: ["name"],
  };
  const validator = new DefaultValidator();
  const valid = await passes(validator.validate(schema, { name: "Alice", age: 30 }));
  const badType = !(await passes(validator.validate(schema, { name: 123 })));
  const missing = !(await passes(validator.validate(schema, { age: 25 })));
  assert.equal(
    `Valid: ${valid} Invalid type: ${badType} Missing required: ${missing}`,
    "Valid: true Invalid type: true Missing required: true",
  );
});
