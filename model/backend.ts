/**
 * Backend bindings: where a tool is executed. Kinds `mcp` (a tool on an MCP
 * server), `provider` (an external tool provider) and `local` (an in-process
 * handler), each in the JSON shape `{ kind, <kind>: {...} }`, so that a
 * binding serialised by one program is read the same way by another.
 *
 * @module
 */

import { InvalidBackendError } from "./errors.ts";
import { isNonArrayObject } from "./plain_object.ts";

/** The kinds of backend, in the runner's default preference order reversed. */
export type BackendKind = "mcp" | "provider" | "local";

/** Every backend kind. */
export const BACKEND_KINDS: readonly BackendKind[] = ["mcp", "provider", "local"];

/** Metadata of an MCP server backend. */
export interface McpBackend {
  /** The MCP server, by its name in a registry or configuration. */
  serverName: string;
  /**
   * The tool's name on the server, when the tool is exposed under another
   * name (a manifest's per-tool override); default: the tool's own name.
   */
  toolName?: string;
}

/** Metadata of an external tool provider backend. */
export interface ProviderBackend {
  /** The provider, by its ID. */
  providerId: string;
  /** The tool, by the provider's own ID for it. */
  toolId: string;
}

/** Metadata of a local (in-process) backend. */
export interface LocalBackend {
  /** The local handler, by name. */
  name: string;
}

/** A tool served by an MCP server. */
export interface McpToolBackend {
  /** Always `"mcp"`. */
  kind: "mcp";
  /** The server. */
  mcp: McpBackend;
}

/** A tool served by an external provider. */
export interface ProviderToolBackend {
  /** Always `"provider"`. */
  kind: "provider";
  /** The provider and its tool ID. */
  provider: ProviderBackend;
}

/** A tool implemented by a local handler. */
export interface LocalToolBackend {
  /** Always `"local"`. */
  kind: "local";
  /** The handler. */
  local: LocalBackend;
}

/** The binding of a tool to the backend that executes it. */
export type ToolBackend = McpToolBackend | ProviderToolBackend | LocalToolBackend;

/**
 * An MCP backend.
 *
 * @example The three kinds of backend binding
 * ```ts
 * import assert from "node:assert/strict";
 * import { localBackend, mcpBackend, providerBackend } from "@toolfoundation/core/model";
 *
 * const m = mcpBackend("filesystem-server");
 * assert.deepEqual(m, { kind: "mcp", mcp: { serverName: "filesystem-server" } });
 * const p = providerBackend("openai", "gpt-4-vision");
 * assert.deepEqual(p, {
 *   kind: "provider",
 *   provider: { providerId: "openai", toolId: "gpt-4-vision" },
 * });
 * const l = localBackend("custom-handler");
 * assert.deepEqual(l, { kind: "local", local: { name: "custom-handler" } });
 * ```
 *
 * @param serverName The MCP server's name.
 * @returns The backend binding.
 */
export function mcpBackend(serverName: string): McpToolBackend {
  return { kind: "mcp", mcp: { serverName } };
}

/**
 * A provider backend.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { providerBackend } from "@toolfoundation/core/model";
 *
 * assert.equal(providerBackend("openai", "gpt-4-vision").provider.toolId, "gpt-4-vision");
 * ```
 *
 * @param providerId The provider's ID.
 * @param toolId The provider's ID for the tool.
 * @returns The backend binding.
 */
export function providerBackend(providerId: string, toolId: string): ProviderToolBackend {
  return { kind: "provider", provider: { providerId, toolId } };
}

/**
 * A local backend.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { localBackend } from "@toolfoundation/core/model";
 *
 * assert.equal(localBackend("custom-handler").local.name, "custom-handler");
 * ```
 *
 * @param name The local handler's name.
 * @returns The backend binding.
 */
export function localBackend(name: string): LocalToolBackend {
  return { kind: "local", local: { name } };
}

function nonEmpty(value: unknown): boolean {
  return typeof value === "string" && value.length > 0;
}

/**
 * Checks a backend binding: a known kind, and the field matching the kind
 * present with its identifying strings non-empty.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { InvalidBackendError, validateBackend } from "@toolfoundation/core/model";
 *
 * assert.throws(() => validateBackend({ kind: "mcp" }), InvalidBackendError);
 * ```
 *
 * @param backend The binding (any value: it comes from JSON or YAML too).
 * @throws {InvalidBackendError} When it is malformed.
 */
export function validateBackend(backend: unknown): asserts backend is ToolBackend {
  if (!isNonArrayObject(backend)) {
    throw new InvalidBackendError("a backend must be an object with a `kind`");
  }
  const b = backend as Record<string, unknown>;
  const kind = typeof b.kind === "string" && Object.hasOwn(b, b.kind) ? b.kind : undefined;
  const field = (kind === undefined ? undefined : b[kind]) as Record<string, unknown> | undefined;
  const hasField = isNonArrayObject(field);
  switch (b.kind) {
    case "mcp":
      if (!hasField) throw new InvalidBackendError("kind `mcp` requires an `mcp` object");
      if (!nonEmpty(field.serverName)) {
        throw new InvalidBackendError("`mcp.serverName` must be a non-empty string");
      }
      return;
    case "provider":
      if (!hasField) throw new InvalidBackendError("kind `provider` requires a `provider` object");
      if (!nonEmpty(field.providerId)) {
        throw new InvalidBackendError("`provider.providerId` must be a non-empty string");
      }
      if (!nonEmpty(field.toolId)) {
        throw new InvalidBackendError("`provider.toolId` must be a non-empty string");
      }
      return;
    case "local":
      if (!hasField) throw new InvalidBackendError("kind `local` requires a `local` object");
      if (!nonEmpty(field.name)) {
        throw new InvalidBackendError("`local.name` must be a non-empty string");
      }
      return;
    default:
      throw new InvalidBackendError(
        `unknown kind ${JSON.stringify(b.kind)}; expected one of ${BACKEND_KINDS.join(", ")}`,
      );
  }
}
