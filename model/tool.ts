/**
 * The canonical tool record: every field of an MCP 2025-11-25 `Tool` plus the
 * toolfoundation extensions `namespace`, `version` and `tags`.
 *
 * The interfaces are declared here (not derived from the MCP SDK's zod schemas)
 * so that public types are not tied to zod; a type-level test proves that the MCP
 * part is assignable both ways with the pinned SDK's `Tool` type.
 *
 * @module
 */

/** The MCP protocol version this package targets. */
export const MCP_VERSION = "2025-11-25";

/** JSON Schema 2020-12 dialect URI (the default when `$schema` is absent). */
export const SCHEMA_DIALECT_2020_12 = "https://json-schema.org/draft/2020-12/schema";
/** JSON Schema draft-07 dialect URI, with the trailing `#` that draft-07 documents use. */
export const SCHEMA_DIALECT_DRAFT_07 = "http://json-schema.org/draft-07/schema#";
/** JSON Schema draft-07 dialect URI without the trailing `#`. */
export const SCHEMA_DIALECT_DRAFT_07_ALT = "http://json-schema.org/draft-07/schema";

/** A JSON value. */
export type JsonValue =
  | string
  | number
  | boolean
  | null
  | JsonValue[]
  | { [key: string]: JsonValue };

/** A JSON Schema: an object of keywords, or a boolean schema. */
export type JsonSchema = boolean | JsonSchemaObject;

/** A JSON Schema object: any keywords, values kept exactly as written. */
export interface JsonSchemaObject {
  /** Any JSON Schema keyword (or `x-` extension) and its value. */
  [keyword: string]: unknown;
}

/**
 * An object schema, as MCP requires for `inputSchema` and `outputSchema`:
 * the root declares `type: "object"`; every other keyword is kept as written.
 */
export interface ToolObjectSchema {
  /** Always `"object"` at the root of a tool schema. */
  type: "object";
  /** Property name to subschema. */
  properties?: Record<string, object>;
  /** Names of the properties that must be present. */
  required?: string[];
  /** Any other JSON Schema keyword (or `x-` extension) and its value. */
  [keyword: string]: unknown;
}

/** Hints about a tool's behaviour for clients; none of them is a guarantee. */
export interface ToolAnnotations {
  /** A human-readable title for the tool. */
  title?: string;
  /** The tool does not modify its environment. */
  readOnlyHint?: boolean;
  /** The tool may perform destructive updates (meaningful when not read-only). */
  destructiveHint?: boolean;
  /** Calling the tool repeatedly with the same arguments has no additional effect. */
  idempotentHint?: boolean;
  /** The tool interacts with an open world of external entities. */
  openWorldHint?: boolean;
}

/** An icon a client may show for the tool. */
export interface ToolIcon {
  /** URI of the icon (an `https:` URL or a `data:` URI). */
  src: string;
  /** MIME type of the icon, when the URI does not make it plain. */
  mimeType?: string;
  /** Sizes the icon is available in, e.g. `"48x48"` or `"any"`. */
  sizes?: string[];
  /** The theme the icon is designed for. */
  theme?: "light" | "dark";
}

/** Execution properties of a tool (MCP tasks). */
export interface ToolExecution {
  /** Whether the tool supports task-augmented calls. */
  taskSupport?: "forbidden" | "optional" | "required";
}

/** The fields of an MCP 2025-11-25 `Tool`, exactly. */
export interface McpTool {
  /** Programmatic name: 1-128 characters of `[A-Za-z0-9_.-]`. */
  name: string;
  /** Display name, preferred over `name` by user interfaces. */
  title?: string;
  /** Human-readable description, read by the model. */
  description?: string;
  /** JSON Schema of the arguments; root `type: "object"`. */
  inputSchema: ToolObjectSchema;
  /** JSON Schema of the structured result; root `type: "object"`. */
  outputSchema?: ToolObjectSchema;
  /** Behaviour hints for clients. */
  annotations?: ToolAnnotations;
  /** Icons for user interfaces. */
  icons?: ToolIcon[];
  /** Execution properties (task support). */
  execution?: ToolExecution;
  /** Arbitrary metadata. */
  _meta?: Record<string, unknown>;
}

/**
 * The canonical tool: an MCP tool plus `namespace`, `version` and `tags`.
 *
 * @example Creating a tool
 * ```ts
 * import assert from "node:assert/strict";
 * import { type Tool, toolId } from "@toolfoundation/core/model";
 *
 * const tool: Tool = {
 *   name: "search",
 *   description: "Search for documents by query",
 *   inputSchema: { type: "object", properties: { query: { type: "string" } }, required: ["query"] },
 *   namespace: "docs",
 *   version: "1.0.0",
 * };
 * assert.equal(toolId(tool), "docs:search");
 * ```
 */
export interface Tool extends McpTool {
  /** Namespace for stable IDs: the tool ID is `namespace:name` when set. */
  namespace?: string;
  /** Semantic version, `1.2.3` or `v1.2.3`, with optional pre-release and build. */
  version?: string;
  /** Normalized discovery tags (see `normalizeTags`). */
  tags?: string[];
}
