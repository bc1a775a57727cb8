// Private: `serve --http --state memory | redis://HOST:PORT` (and
// --state-prefix), the state store that sessions, their events and the
// per-principal quotas and rates live in. The Redis client is loaded only for
// a redis:// store, and serve does not start when that Redis does not answer.

import { UsageError } from "../../workspace/errors.ts";
import type { StateLimits, StateStore } from "../../serve/mod.ts";
import { parseRedisUrl } from "../../serve/state/redis.ts";

/** The option entries for `parseArgs`. */
export const STATE_OPTIONS = {
  state: { type: "string" },
  "state-prefix": { type: "string" },
} as const;

/** The store the flags ask for, parsed (nothing opened yet). */
export type StateChoice =
  | { kind: "memory" }
  | { kind: "redis"; url: string; net: string; keyPrefix: string | undefined };

/**
 * Parses `--state` and `--state-prefix`.
 *
 * @throws {UsageError} for a malformed value or a flag that does not apply.
 */
export function stateChoice(
  flags: { state?: string; "state-prefix"?: string },
  http: boolean,
): StateChoice {
  const value = flags.state?.trim();
  const prefix = flags["state-prefix"];
  if (!http && (value !== undefined || prefix !== undefined)) {
    throw new UsageError(
      `--${value === undefined ? "state-prefix" : "state"} applies to --http only`,
    );
  }
  if (value === undefined || value === "memory") {
    if (prefix !== undefined) {
      throw new UsageError("--state-prefix applies to --state redis:// only");
    }
    return { kind: "memory" };
  }
  if (!value.startsWith("redis://")) {
    throw new UsageError(
      `--state must be memory (the default) or redis://HOST:PORT, got ${JSON.stringify(value)}`,
    );
  }
  if (prefix !== undefined && !/^[\x21-\x7e]{1,64}$/.test(prefix)) {
    throw new UsageError(
      `--state-prefix must be 1 to 64 printable characters without spaces (e.g. tools-prod:), ` +
        `got ${JSON.stringify(prefix)}`,
    );
  }
  let net: string;
  try {
    net = parseRedisUrl(value).net;
  } catch (error) {
    throw new UsageError(`--state: ${(error as Error).message}`);
  }
  return { kind: "redis", url: value, net, keyPrefix: prefix };
}

/**
 * Opens the store and, for Redis, waits until it answers.
 *
 * @throws {StateStoreError} `unavailable` when Redis does not answer (the
 *   message names its address and what to check).
 */
export async function openState(choice: StateChoice, limits: StateLimits): Promise<StateStore> {
  const serve = await import("../../serve/mod.ts");
  if (choice.kind === "memory") return new serve.MemoryStateStore(limits);
  const store = await serve.RedisStateStore.open(choice.url, {
    limits,
    ...(choice.keyPrefix === undefined ? {} : { keyPrefix: choice.keyPrefix }),
  });
  try {
    await store.ping();
  } catch (error) {
    await store.close();
    if (!(error instanceof serve.StateStoreError)) throw error;
    throw new serve.StateStoreError(
      error.code,
      `--state ${choice.url}: ${error.message}; serve did not start`,
      { cause: error },
    );
  }
  return store;
}
