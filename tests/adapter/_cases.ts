// Test data: five sample tools (a calculator, file search, an API request, a
// database query and an email sender) and one case per schema feature whose
// support differs between providers ($ref/$defs, anyOf/oneOf, pattern, enum/const).

import type { Tool } from "../../model/mod.ts";

/** Five sample tools, as MCP tools. */
export const SEED_TOOLS: Record<string, Tool> = {
  calculator: {
    name: "calculator",
    description: "Perform arithmetic",
    inputSchema: {
      type: "object",
      properties: {
        operation: {
          type: "string",
          description: "Mathematical operation",
          enum: ["add", "subtract", "multiply", "divide"],
        },
        a: { type: "number", description: "First operand" },
        b: { type: "number", description: "Second operand" },
      },
      required: ["operation", "a", "b"],
    },
  },
  file_search: {
    name: "file_search",
    namespace: "files",
    description: "Search for files",
    inputSchema: {
      type: "object",
      properties: {
        directory: { type: "string", description: "Directory to search in" },
        pattern: { type: "string", description: "Search pattern (glob or regex)" },
        recursive: {
          type: "boolean",
          description: "Whether to search recursively",
          default: false,
        },
        file_type: {
          type: "string",
          description: "Filter by file type",
          enum: ["any", "file", "directory"],
          default: "any",
        },
      },
      required: ["directory", "pattern"],
    },
  },
  api_request: {
    name: "api_request",
    namespace: "http",
    description: "Make an HTTP request",
    inputSchema: {
      type: "object",
      properties: {
        method: {
          type: "string",
          description: "HTTP method",
          enum: ["GET", "POST", "PUT", "DELETE", "PATCH"],
        },
        url: { type: "string", description: "Request URL", format: "uri" },
        headers: {
          type: "object",
          description: "HTTP headers",
          additionalProperties: { type: "string" },
        },
        body: { type: "string", description: "Request body (JSON string)" },
        timeout: {
          type: "integer",
          description: "Timeout in seconds",
          minimum: 1,
          maximum: 300,
          default: 30,
        },
      },
      required: ["method", "url"],
    },
  },
  database_query: {
    name: "database_query",
    namespace: "db",
    description: "Run a SQL query",
    inputSchema: {
      type: "object",
      properties: {
        query: { type: "string", description: "SQL query to execute" },
        parameters: {
          type: "array",
          description: "Query parameters (prevents SQL injection)",
          items: { oneOf: [{ type: "string" }, { type: "number" }, { type: "boolean" }] },
        },
        max_rows: {
          type: "integer",
          description: "Maximum rows to return",
          minimum: 1,
          maximum: 1000,
          default: 100,
        },
      },
      required: ["query"],
    },
  },
  email_sender: {
    name: "email_sender",
    namespace: "email",
    description: "Send an email",
    inputSchema: {
      type: "object",
      properties: {
        to: {
          type: "array",
          description: "Recipient email addresses",
          items: { type: "string", format: "email" },
          minItems: 1,
        },
        subject: { type: "string", description: "Email subject", minLength: 1, maxLength: 200 },
        body: { type: "string", description: "Email body (plain text or HTML)" },
        cc: {
          type: "array",
          description: "CC recipients",
          items: { type: "string", format: "email" },
        },
        attachments: {
          type: "array",
          description: "File paths to attach",
          items: { type: "string" },
        },
      },
      required: ["to", "subject", "body"],
    },
  },
};

/** One tool per schema feature whose support differs between providers. */
export const FEATURE_TOOLS: Record<string, Tool> = {
  ref_defs: {
    name: "org_chart",
    namespace: "hr",
    description: "Row `$ref/$defs`: shared and recursive definitions",
    inputSchema: {
      type: "object",
      properties: {
        home: { $ref: "#/$defs/address" },
        work: { $ref: "#/$defs/address", description: "Work address" },
        manager: { $ref: "#/$defs/person" },
      },
      required: ["home", "manager"],
      additionalProperties: false,
      $defs: {
        address: {
          type: "object",
          properties: { street: { type: "string" }, city: { type: "string" } },
          required: ["street", "city"],
          additionalProperties: false,
        },
        person: {
          type: "object",
          properties: {
            name: { type: "string" },
            reports: { type: "array", items: { $ref: "#/$defs/person" } },
          },
          required: ["name", "reports"],
          additionalProperties: false,
        },
      },
    },
  },
  anyof_oneof: {
    name: "draw",
    description: "Row `anyOf/oneOf`: disjoint and overlapping unions",
    inputSchema: {
      type: "object",
      properties: {
        value: { anyOf: [{ type: "string" }, { type: "number" }] },
        shape: {
          oneOf: [
            {
              type: "object",
              properties: { kind: { const: "circle" }, r: { type: "number" } },
              required: ["kind", "r"],
              additionalProperties: false,
            },
            {
              type: "object",
              properties: { kind: { const: "square" }, side: { type: "number" } },
              required: ["kind", "side"],
              additionalProperties: false,
            },
          ],
        },
        size: { oneOf: [{ type: "integer" }, { type: "number", minimum: 0 }] },
      },
      required: ["value", "shape", "size"],
      additionalProperties: false,
    },
  },
  pattern: {
    name: "validate_contact",
    description: "Row `pattern`: a simple pattern and one with a word boundary",
    inputSchema: {
      type: "object",
      properties: {
        phone: { type: "string", pattern: "^\\d{3}-\\d{3}-\\d{4}$" },
        keyword: { type: "string", pattern: "\\bfoo\\b" },
      },
      required: ["phone", "keyword"],
      additionalProperties: false,
    },
  },
  enum_const: {
    name: "configure",
    description: "Row `enum/const`: string, numeric, null and mixed values",
    inputSchema: {
      type: "object",
      properties: {
        color: { enum: ["red", "green"] },
        level: { type: "integer", enum: [1, 2, 3] },
        version: { const: "v1" },
        reset: { const: null },
        mixed: { enum: ["a", 1, null] },
      },
      required: ["color", "level", "version", "reset", "mixed"],
      additionalProperties: false,
    },
  },
};

/** A tool with every MCP field, an output schema and draft-07 keywords. */
export const FULL_TOOL: Tool = {
  name: "read_report",
  namespace: "reports",
  version: "1.2.0",
  tags: ["reports", "read"],
  title: "Read a report",
  description: "Reads one report",
  icons: [{ src: "https://example.com/icon.png", mimeType: "image/png", theme: "light" }],
  inputSchema: {
    $schema: "http://json-schema.org/draft-07/schema#",
    type: "object",
    properties: {
      id: { type: "string", "x-origin": "db" },
      range: { type: "array", items: [{ type: "integer" }, { type: "integer" }] },
      filter: { $ref: "#/definitions/filter" },
    },
    required: ["id"],
    additionalProperties: false,
    definitions: {
      filter: {
        type: "object",
        properties: { status: { type: ["string", "null"], default: null } },
        additionalProperties: false,
      },
    },
  },
  outputSchema: {
    type: "object",
    properties: { title: { type: "string" }, pages: { type: "integer", exclusiveMinimum: 0 } },
    required: ["title"],
  },
  annotations: { readOnlyHint: true, openWorldHint: false },
  execution: { taskSupport: "forbidden" },
  _meta: { "example.com/owner": "reports-team" },
};

/** Every case by name. */
export const ALL_CASES: Record<string, Tool> = {
  ...SEED_TOOLS,
  ...FEATURE_TOOLS,
  full_tool: FULL_TOOL,
};
