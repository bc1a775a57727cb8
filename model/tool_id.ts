/**
 * Tool IDs: `namespace:name`, or `name` when there is no namespace.
 *
 * @module
 */

import { InvalidToolIdError } from "./errors.ts";
import type { Tool } from "./tool.ts";
import { nameProblems } from "./_name.ts";

/** The parts of a tool ID. */
export interface ParsedToolId {
  /** The namespace, `""` when the ID has none. */
  namespace: string;
  /** The tool name. */
  name: string;
}

/**
 * The canonical ID of a tool: `namespace:name` when it has a namespace, else `name`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { toolId } from "@toolfoundation/core/model";
 *
 * assert.equal(toolId({ name: "read", namespace: "filesystem" }), "filesystem:read");
 * assert.equal(toolId({ name: "echo" }), "echo");
 * ```
 *
 * @param tool The tool (only `name` and `namespace` are read).
 * @returns The tool ID.
 */
export function toolId(tool: Pick<Tool, "name" | "namespace">): string {
  return tool.namespace ? `${tool.namespace}:${tool.name}` : tool.name;
}

/**
 * Splits a tool ID into namespace and name. At most one `:` is allowed; both
 * parts must then be non-empty, and each part must be a valid MCP name.
 *
 * @example Parsing a tool ID
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseToolId } from "@toolfoundation/core/model";
 *
 * const a = parseToolId("filesystem:read");
 * assert.deepEqual(a, { namespace: "filesystem", name: "read" });
 * const b = parseToolId("echo");
 * assert.deepEqual(b, { namespace: "", name: "echo" });
 * ```
 *
 * @param id The tool ID.
 * @returns Its namespace (`""` if none) and name.
 * @throws {InvalidToolIdError} When the ID is malformed.
 */
export function parseToolId(id: string): ParsedToolId {
  if (typeof id !== "string" || id.length === 0) {
    throw new InvalidToolIdError(String(id), "the ID is empty");
  }
  const parts = id.split(":");
  if (parts.length > 2) {
    throw new InvalidToolIdError(id, `only one ':' is allowed, found ${parts.length - 1}`);
  }
  const [namespace, name] = parts.length === 2 ? parts : ["", parts[0]];
  if (parts.length === 2 && (namespace === "" || name === "")) {
    throw new InvalidToolIdError(id, "namespace and name must both be non-empty around ':'");
  }
  const problems = [
    ...(namespace === "" ? [] : nameProblems(namespace, "namespace")),
    ...nameProblems(name, "name"),
  ];
  if (problems.length > 0) throw new InvalidToolIdError(id, problems.join("; "));
  return { namespace, name };
}
