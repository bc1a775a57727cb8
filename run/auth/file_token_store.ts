/**
 * A {@linkcode TokenStore} in a JSON file, readable and writable by its
 * owner only (mode 0600, in a directory of mode 0700). Every write is a
 * read-modify-write under an exclusive lock shared by all processes (an
 * advisory lock on `<file>.lock`, released by the operating system when its
 * holder exits), ending in an atomic replace (a temporary file in the same
 * directory, then a rename): concurrent logins merge instead of overwriting
 * each other, and a reader never sees a half-written file.
 *
 * @module
 */

import { AuthError } from "./auth_error.ts";
import { DEFAULT_LOCK_TIMEOUT_MS, withFileLock } from "./_file_lock.ts";
import { type AuthEntry, pickEntry, type TokenStore } from "./token_store.ts";

/** The environment variable that overrides {@linkcode defaultTokenStorePath}. */
export const TOKEN_STORE_ENV = "TOOLFOUNDATION_TOKEN_STORE";

/** Options of {@linkcode defaultTokenStorePath}. */
export interface DefaultTokenStorePathOptions {
  /** Reads an environment variable (default: `Deno.env.get`). */
  env?: (name: string) => string | undefined;
  /** The operating system (default: `Deno.build.os`). */
  os?: string;
}

/**
 * Where the CLI keeps its tokens: `$TOOLFOUNDATION_TOKEN_STORE` when set,
 * else `$XDG_CONFIG_HOME/toolfoundation/tokens.json`, else
 * `~/.config/toolfoundation/tokens.json` (`%APPDATA%\toolfoundation\tokens.json`
 * on Windows).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { defaultTokenStorePath } from "@toolfoundation/core/run/auth";
 *
 * const env = (name: string) => ({ HOME: "/home/ada" } as Record<string, string>)[name];
 * assert.equal(defaultTokenStorePath({ env, os: "linux" }), "/home/ada/.config/toolfoundation/tokens.json");
 * ```
 *
 * @param options Environment and OS (for tests).
 * @returns The absolute path of the token file.
 */
export function defaultTokenStorePath(options: DefaultTokenStorePathOptions = {}): string {
  const env = options.env ?? ((name: string) => Deno.env.get(name));
  const os = options.os ?? Deno.build.os;
  const override = env(TOKEN_STORE_ENV);
  if (override) return override;
  if (os === "windows") {
    const base = env("APPDATA") ?? `${env("USERPROFILE") ?? "."}\\AppData\\Roaming`;
    return `${base}\\toolfoundation\\tokens.json`;
  }
  const xdg = env("XDG_CONFIG_HOME");
  if (xdg) return `${xdg}/toolfoundation/tokens.json`;
  const home = env("HOME");
  if (!home) {
    throw new AuthError(
      "auth_failed",
      `cannot place the token store: neither ${TOKEN_STORE_ENV}, XDG_CONFIG_HOME nor HOME is set`,
    );
  }
  return `${home}/.config/toolfoundation/tokens.json`;
}

interface StoreFile {
  version: 1;
  entries: AuthEntry[];
}

/** Options of {@linkcode FileTokenStore}. */
export interface FileTokenStoreOptions {
  /**
   * How long a write waits for another process holding the store's lock, in
   * ms (default 10 000); then it fails with an {@linkcode AuthError}.
   */
  lockTimeoutMs?: number;
}

/**
 * A {@linkcode TokenStore} in a JSON file (mode 0600). Every write (`set`,
 * `delete`) re-reads the file and replaces it while holding an exclusive
 * lock on `<file>.lock` that every process using the file shares, so
 * processes writing at once merge their changes (none is lost). The lock
 * dies with its holder: a killed process never leaves the store locked.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { FileTokenStore } from "@toolfoundation/core/run/auth";
 *
 * const dir = await Deno.makeTempDir();
 * const store = new FileTokenStore(`${dir}/auth/tokens.json`);
 * await store.set({ server: "https://s.example/mcp", issuer: "https://as.example", updatedAt: 1 });
 * if (Deno.build.os !== "windows") {
 *   assert.equal((await Deno.stat(`${dir}/auth/tokens.json`)).mode! & 0o777, 0o600);
 * }
 * assert.equal((await store.list()).length, 1);
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export class FileTokenStore implements TokenStore {
  /** The file's path. */
  readonly path: string;
  #queue: Promise<unknown> = Promise.resolve();
  readonly #lockTimeoutMs: number;

  /**
   * Creates the store; nothing is read or written yet.
   *
   * @param path The file (its directory is created, mode 0700, on the first write).
   * @param options How long a write waits for another process's lock.
   */
  constructor(path: string, options: FileTokenStoreOptions = {}) {
    this.path = path;
    this.#lockTimeoutMs = options.lockTimeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS;
  }

  /** {@inheritDoc TokenStore.get} */
  async get(server: string, issuer?: string): Promise<AuthEntry | undefined> {
    const file = await this.#read();
    return pickEntry(file.entries.filter((e) => e.server === server), issuer);
  }

  /** {@inheritDoc TokenStore.set} */
  set(entry: AuthEntry): Promise<void> {
    return this.#update((entries) => [
      ...entries.filter((e) => !(e.server === entry.server && e.issuer === entry.issuer)),
      entry,
    ]).then(() => {});
  }

  /** {@inheritDoc TokenStore.delete} */
  async delete(server: string, issuer?: string): Promise<number> {
    let deleted = 0;
    await this.#update((entries) => {
      const kept = entries.filter((e) =>
        !(e.server === server && (issuer === undefined || e.issuer === issuer))
      );
      deleted = entries.length - kept.length;
      return kept;
    });
    return deleted;
  }

  /** {@inheritDoc TokenStore.list} */
  async list(): Promise<AuthEntry[]> {
    return (await this.#read()).entries;
  }

  async #read(): Promise<StoreFile> {
    let text: string;
    try {
      text = await Deno.readTextFile(this.path);
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return { version: 1, entries: [] };
      throw error;
    }
    try {
      const parsed = JSON.parse(text) as StoreFile;
      if (parsed?.version !== 1 || !Array.isArray(parsed.entries)) throw new Error("shape");
      return parsed;
    } catch {
      // Never quote the content: it holds tokens.
      throw new AuthError(
        "auth_failed",
        `the token store ${this.path} is not a version 1 token file; delete it and log in again`,
      );
    }
  }

  #update(change: (entries: AuthEntry[]) => AuthEntry[]): Promise<void> {
    const next = this.#queue.then(async () => {
      await Deno.mkdir(this.#dir(), { recursive: true, mode: 0o700 });
      await withFileLock(`${this.path}.lock`, this.#lockTimeoutMs, async () => {
        const file = await this.#read();
        await this.#write({ version: 1, entries: change(file.entries) });
      });
    });
    this.#queue = next.catch(() => {});
    return next;
  }

  #dir(): string {
    const cut = Math.max(this.path.lastIndexOf("/"), this.path.lastIndexOf("\\"));
    return cut > 0 ? this.path.slice(0, cut) : ".";
  }

  async #write(file: StoreFile): Promise<void> {
    const temp = `${this.path}.${crypto.randomUUID()}.tmp`;
    try {
      await Deno.writeTextFile(temp, JSON.stringify(file, null, 2) + "\n", {
        mode: 0o600,
        createNew: true,
      });
      if (Deno.build.os !== "windows") await Deno.chmod(temp, 0o600);
      await Deno.rename(temp, this.path);
    } catch (error) {
      await Deno.remove(temp).catch(() => {});
      throw error;
    }
  }
}
