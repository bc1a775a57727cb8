/**
 * The tool registry: tools with the backends that can execute them, looked up
 * by tool ID.
 *
 * @module
 */

import {
  type Tool,
  type ToolBackend,
  toolId,
  validateBackend,
  validateTool,
} from "../model/mod.ts";

/** A registered tool: its definition, its ID and its backends in registration order. */
export interface RegisteredTool {
  /** The canonical tool ID (`namespace:name` or `name`). */
  readonly id: string;
  /** The tool definition (a private copy, frozen). */
  readonly tool: Tool;
  /** The backends that can execute it, in registration order. */
  readonly backends: readonly ToolBackend[];
}

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  }
  return value;
}

function backendKey(backend: ToolBackend): string {
  switch (backend.kind) {
    case "local":
      return `local\0${backend.local.name}`;
    case "provider":
      return `provider\0${backend.provider.providerId}\0${backend.provider.toolId}`;
    case "mcp":
      return `mcp\0${backend.mcp.serverName}`;
  }
}

/**
 * Tools and their backends, by tool ID.
 *
 * `add` validates the tool and every backend; adding a tool whose ID is
 * already registered replaces the definition and adds the new backends to the
 * ones already known (an equal backend is not added twice). The registry keeps
 * a frozen copy of every tool, so later changes to the caller's object have no
 * effect.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { localBackend } from "@toolfoundation/core/model";
 * import { ToolRegistry } from "@toolfoundation/core/run";
 *
 * const registry = new ToolRegistry();
 * registry.add(
 *   { name: "add", namespace: "math", inputSchema: { type: "object" } },
 *   localBackend("add"),
 * );
 * assert.equal(registry.get("math:add")?.backends.length, 1);
 * assert.equal(registry.list().length, 1);
 * ```
 */
export class ToolRegistry {
  readonly #tools = new Map<string, RegisteredTool>();

  /**
   * Registers a tool with one or more backends.
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import { localBackend, mcpBackend } from "@toolfoundation/core/model";
   * import { ToolRegistry } from "@toolfoundation/core/run";
   *
   * const registry = new ToolRegistry();
   * const tool = { name: "echo", inputSchema: { type: "object" as const } };
   * registry.add(tool, [mcpBackend("everything"), localBackend("echo")]);
   * assert.deepEqual(registry.get("echo")?.backends.map((b) => b.kind), ["mcp", "local"]);
   * ```
   *
   * @param tool The tool definition.
   * @param backends One backend or several.
   * @returns The registered entry.
   * @throws {InvalidToolError} When the tool breaks the model's rules.
   * @throws {InvalidBackendError} When a backend is malformed.
   */
  add(tool: Tool, backends: ToolBackend | readonly ToolBackend[]): RegisteredTool {
    validateTool(tool);
    const list = Array.isArray(backends) ? backends : [backends as ToolBackend];
    for (const backend of list) validateBackend(backend);
    const id = toolId(tool);
    const merged: ToolBackend[] = [...(this.#tools.get(id)?.backends ?? [])];
    const seen = new Set(merged.map(backendKey));
    for (const backend of list) {
      const key = backendKey(backend);
      if (seen.has(key)) continue;
      seen.add(key);
      merged.push(deepFreeze(structuredClone(backend)));
    }
    const entry: RegisteredTool = Object.freeze({
      id,
      tool: deepFreeze(structuredClone(tool)),
      backends: Object.freeze(merged),
    });
    this.#tools.set(id, entry);
    return entry;
  }

  /**
   * Looks a tool up by ID.
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import { ToolRegistry } from "@toolfoundation/core/run";
   *
   * assert.equal(new ToolRegistry().get("missing"), undefined);
   * ```
   *
   * @param id The tool ID.
   * @returns The entry, or `undefined`.
   */
  get(id: string): RegisteredTool | undefined {
    return this.#tools.get(id);
  }

  /**
   * Whether a tool ID is registered.
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import { ToolRegistry } from "@toolfoundation/core/run";
   *
   * assert.equal(new ToolRegistry().has("x"), false);
   * ```
   *
   * @param id The tool ID.
   * @returns `true` when registered.
   */
  has(id: string): boolean {
    return this.#tools.has(id);
  }

  /**
   * Removes a tool and all its backends.
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import { localBackend } from "@toolfoundation/core/model";
   * import { ToolRegistry } from "@toolfoundation/core/run";
   *
   * const registry = new ToolRegistry();
   * registry.add({ name: "t", inputSchema: { type: "object" } }, localBackend("t"));
   * assert.equal(registry.remove("t"), true);
   * assert.equal(registry.has("t"), false);
   * ```
   *
   * @param id The tool ID.
   * @returns `true` when it was registered.
   */
  remove(id: string): boolean {
    return this.#tools.delete(id);
  }

  /**
   * Every registered tool, in registration order.
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import { localBackend } from "@toolfoundation/core/model";
   * import { ToolRegistry } from "@toolfoundation/core/run";
   *
   * const registry = new ToolRegistry();
   * registry.add({ name: "a", inputSchema: { type: "object" } }, localBackend("a"));
   * registry.add({ name: "b", inputSchema: { type: "object" } }, localBackend("b"));
   * assert.deepEqual(registry.list().map((entry) => entry.id), ["a", "b"]);
   * ```
   *
   * @returns The entries.
   */
  list(): RegisteredTool[] {
    return [...this.#tools.values()];
  }

  /** The number of registered tools. */
  get size(): number {
    return this.#tools.size;
  }
}
