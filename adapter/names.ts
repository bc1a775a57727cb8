/**
 * Tool names: a reversible, collision-free mapping from canonical tool IDs
 * (`namespace:name`) to each provider's allowed characters and length, and
 * back from the name in a provider's tool call.
 *
 * The encoding joins namespace and name with the profile's separator (`__`
 * where `:` is illegal). When that is lossy (a `.` where dots are illegal, a
 * `__` that would split wrongly, an illegal first character) or too long, the
 * readable part is cut and a short hash of the full ID is appended
 * (`_` + 8 hex digits); such names are decoded through a {@linkcode ToolNameMap}.
 *
 * @module
 */

import { decodeWith, encodeWith } from "./_provider/mod.ts";
import { builtinRegistry } from "./default_registry.ts";
import { NameCollisionError, UnknownToolNameError } from "./errors.ts";
import type { NameRules, ProviderProfile } from "./profile.ts";
import type { NameTable } from "./adapter.ts";

function rulesOf(target: string | ProviderProfile): NameRules {
  return typeof target === "string" ? builtinRegistry().get(target).profile.names : target.names;
}

/**
 * The provider name of a canonical tool ID: deterministic, within the
 * target's characters and length, and distinct for distinct IDs.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { encodeToolName } from "@toolfoundation/core/adapter";
 *
 * assert.equal(encodeToolName("filesystem:read_file", "openai"), "filesystem__read_file");
 * assert.equal(encodeToolName("filesystem:read_file", "gemini"), "filesystem:read_file");
 * assert.equal(encodeToolName("files.v2:read", "openai"), "files_v2__read_35f1165c");
 * ```
 *
 * @param id The canonical tool ID (`namespace:name` or `name`).
 * @param target A format name or a profile.
 * @returns The provider name.
 */
export function encodeToolName(id: string, target: string | ProviderProfile): string {
  return encodeWith(id, rulesOf(target));
}

/**
 * The canonical tool ID of a provider name, when it can be decoded without a
 * {@linkcode ToolNameMap} (names that carry no hash suffix); else `undefined`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { decodeToolName } from "@toolfoundation/core/adapter";
 *
 * assert.equal(decodeToolName("filesystem__read_file", "openai"), "filesystem:read_file");
 * assert.equal(decodeToolName("files_v2__read_35f1165c", "openai"), undefined);
 * ```
 *
 * @param providerName The name as the provider knows it.
 * @param target A format name or a profile.
 * @returns The tool ID, or `undefined` when it needs a name map.
 */
export function decodeToolName(
  providerName: string,
  target: string | ProviderProfile,
): string | undefined {
  return decodeWith(providerName, rulesOf(target));
}

/**
 * A two-way name table for one set of tools and one target: every ID gets a
 * distinct provider name, and every provider name maps back to its ID.
 *
 * @example Mapping a model's tool call back
 * ```ts
 * import assert from "node:assert/strict";
 * import { ToolNameMap } from "@toolfoundation/core/adapter";
 *
 * const names = new ToolNameMap(["files.v2:read", "math:add"], "openai");
 * const providerName = names.toProvider("files.v2:read");
 * assert.equal(providerName, "files_v2__read_35f1165c");
 * assert.equal(names.toCanonical(providerName), "files.v2:read");
 * ```
 */
export class ToolNameMap implements NameTable {
  readonly #rules: NameRules;
  readonly #toProvider = new Map<string, string>();
  readonly #toCanonical = new Map<string, string>();

  /**
   * Builds the table.
   *
   * @param ids The canonical tool IDs (duplicates are a collision).
   * @param target A format name or a profile.
   * @throws {NameCollisionError} When two IDs would share a provider name.
   */
  constructor(ids: Iterable<string>, target: string | ProviderProfile) {
    this.#rules = rulesOf(target);
    for (const id of ids) {
      const name = encodeWith(id, this.#rules);
      const other = this.#toCanonical.get(name);
      if (other !== undefined) throw new NameCollisionError(name, [other, id]);
      this.#toProvider.set(id, name);
      this.#toCanonical.set(name, id);
    }
  }

  /** The number of tools in the table. */
  get size(): number {
    return this.#toProvider.size;
  }

  /**
   * The provider name of a tool ID (computed the same way for IDs not in the table).
   *
   * @param id The canonical tool ID.
   * @returns The provider name.
   */
  toProvider(id: string): string {
    return this.#toProvider.get(id) ?? encodeWith(id, this.#rules);
  }

  /**
   * The canonical ID of a provider name.
   *
   * @param providerName The name in the provider's tool call.
   * @returns The canonical tool ID.
   * @throws {UnknownToolNameError} When the name is neither in the table nor decodable.
   */
  toCanonical(providerName: string): string {
    const found = this.#toCanonical.get(providerName);
    if (found !== undefined) return found;
    throw new UnknownToolNameError(providerName, "no tool in this name map has that name");
  }

  /**
   * Whether a provider name is in the table.
   *
   * @param providerName The provider name.
   * @returns `true` when it maps to a tool.
   */
  has(providerName: string): boolean {
    return this.#toCanonical.has(providerName);
  }
}
