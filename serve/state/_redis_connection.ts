// Private to serve/state/redis.ts: one connection to Redis through node-redis
// (npm:@redis/client, the client package of `redis`), loaded when the first
// Redis store is made and not before, and every failure turned into a
// StateStoreError that says which Redis and what to do.
//
// The connection is made in the background and made again after it is lost
// (backoff up to 2 s, forever); while it is down a command fails at once
// (node-redis's offline queue is off) instead of waiting, so a request of a
// client fails fast with a clear error and the next one succeeds once Redis
// is back. A command Redis does not answer within the command timeout fails
// too (a stopped or overloaded server).

import { StateStoreError } from "./errors.ts";

/** The part of node-redis's client used here. */
interface RedisClientLike {
  readonly isReady: boolean;
  connect(): Promise<unknown>;
  sendCommand(args: readonly string[], options?: { timeout?: number }): Promise<unknown>;
  close(): Promise<void>;
  destroy(): void;
  on(event: "error" | "ready", listener: (error?: unknown) => void): unknown;
}

/** Where and how to connect. */
export interface RedisConnectionOptions {
  readonly hostname: string;
  readonly port: number;
  /** How long `ready()` waits for a connection (ms). */
  readonly connectTimeoutMs: number;
  /** How long a command waits for its answer (ms). */
  readonly commandTimeoutMs: number;
}

/** A Redis connection that reconnects by itself and fails fast while down. */
export class RedisConnection {
  readonly #make: () => RedisClientLike;
  readonly #options: RedisConnectionOptions;
  readonly #where: string;
  #client: RedisClientLike;
  #lastError: unknown;
  #closed = false;
  #waiters = new Set<() => void>();

  private constructor(
    make: () => RedisClientLike,
    options: RedisConnectionOptions,
    where: string,
  ) {
    this.#make = make;
    this.#options = options;
    this.#where = where;
    this.#client = this.#attach(make());
  }

  #attach(client: RedisClientLike): RedisClientLike {
    // node-redis emits every failed (re)connection here: kept as the cause of
    // the next error, never thrown (an unhandled "error" event would end serve).
    client.on("error", (error) => {
      if (client === this.#client) this.#lastError = error;
    });
    client.on("ready", () => {
      if (client !== this.#client) return;
      this.#lastError = undefined;
      for (const wake of this.#waiters) wake();
    });
    client.connect().catch((error) => {
      if (client === this.#client) this.#lastError = error;
    });
    return client;
  }

  /**
   * Drops a connection whose server stopped answering (its pending commands
   * fail) and connects again: node-redis's command timeout covers only the
   * wait before a command is written, not the wait for its answer.
   */
  #replace(cause: unknown): void {
    const old = this.#client;
    this.#lastError = cause;
    this.#client = this.#attach(this.#make());
    try {
      old.destroy();
    } catch {
      // already closed
    }
  }

  /** Loads the client package and starts connecting (in the background). */
  static async open(options: RedisConnectionOptions): Promise<RedisConnection> {
    const host = options.hostname.includes(":") ? `[${options.hostname}]` : options.hostname;
    const where = `Redis at ${host}:${options.port}`;
    let redis: typeof import("@redis/client");
    try {
      redis = await import("@redis/client");
    } catch (error) {
      throw new StateStoreError(
        "unavailable",
        `the Redis client (npm:@redis/client) could not be loaded for ${where}: ${
          (error as Error)?.message ?? error
        }; check the npm registry can be reached (or the Deno cache holds it)`,
        { cause: error },
      );
    }
    const make = () =>
      redis.createClient({
        socket: {
          host: options.hostname,
          port: options.port,
          connectTimeout: options.connectTimeoutMs,
          reconnectStrategy: (retries: number) => Math.min(100 * 2 ** Math.min(retries, 5), 2000),
        },
        disableOfflineQueue: true,
        commandOptions: { timeout: options.commandTimeoutMs },
      }) as unknown as RedisClientLike;
    return new RedisConnection(make, options, where);
  }

  /** Waits (up to the connect timeout) until the connection is up. */
  async ready(): Promise<void> {
    this.#open();
    if (this.#client.isReady) return;
    let wake!: () => void;
    const up = new Promise<void>((resolve) => (wake = resolve));
    this.#waiters.add(wake);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<"late">((resolve) => {
      timer = setTimeout(() => resolve("late"), this.#options.connectTimeoutMs);
    });
    try {
      if (await Promise.race([up, late]) === "late" && !this.#client.isReady) {
        throw this.#unreachable(this.#lastError, "no connection");
      }
    } finally {
      clearTimeout(timer);
      this.#waiters.delete(wake);
    }
  }

  /**
   * Sends one command and returns Redis's answer.
   *
   * @throws {StateStoreError} `unavailable` when Redis cannot be reached or
   *   did not answer in time, `bad_data` when it refused the command, `closed`
   *   after {@linkcode RedisConnection.close}.
   */
  async send(args: readonly string[]): Promise<unknown> {
    this.#open();
    // Connecting for the first time: wait for it. Once a connection failed,
    // fail at once until one succeeds again.
    if (!this.#client.isReady && this.#lastError === undefined) await this.ready();
    const client = this.#client;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new RedisNoAnswer()), this.#options.commandTimeoutMs);
    });
    try {
      return await Promise.race([client.sendCommand(args), late]);
    } catch (error) {
      if (error instanceof RedisNoAnswer && client === this.#client && !this.#closed) {
        this.#replace(error);
      }
      if (this.#closed) this.#open();
      const name = (error as Error)?.constructor?.name ?? "";
      const message = String((error as Error)?.message ?? error);
      if (/^(Simple|Blob|MultiError)?ErrorReply$/.test(name) || name === "SimpleError") {
        // Redis answered with an error: out of memory and read-only replicas are
        // conditions of the server; anything else is data it cannot use.
        if (/^(OOM|READONLY|LOADING|BUSY|MASTERDOWN|NOREPLICAS|CLUSTERDOWN)/.test(message)) {
          throw new StateStoreError(
            "unavailable",
            `${this.#where} refused a command: ${message}; fix the Redis server (memory, ` +
              `a writable primary) and retry`,
            { cause: error },
          );
        }
        if (message.startsWith("NOSCRIPT")) throw error; // the caller loads the script
        throw new StateStoreError(
          "bad_data",
          `${this.#where} refused a command: ${message}; its keys under this prefix hold data ` +
            `that is not serve's (choose another key prefix or database)`,
          { cause: error },
        );
      }
      // Offline: the reason is the last failed connection (refused, reset, no answer).
      const offline = name === "ClientOfflineError" && this.#lastError !== undefined;
      throw this.#unreachable(
        offline ? this.#lastError : error,
        error instanceof RedisNoAnswer || name === "TimeoutError" ||
          (offline && this.#lastError instanceof RedisNoAnswer)
          ? `no answer in ${this.#options.commandTimeoutMs} ms`
          : message,
      );
    } finally {
      clearTimeout(timer);
    }
  }

  /** Closes the connection (pending commands fail); later calls fail with `closed`. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const wake of this.#waiters) wake();
    const client = this.#client;
    if (client.isReady) {
      // Waits for pending answers, but not for a server that stopped answering.
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, this.#options.commandTimeoutMs);
      });
      await Promise.race([client.close().catch(() => {}), late]);
      clearTimeout(timer);
      try {
        client.destroy();
      } catch {
        // closed already
      }
    } else {
      try {
        client.destroy();
      } catch {
        // not connected: nothing to release
      }
    }
  }

  #open(): void {
    if (this.#closed) {
      throw new StateStoreError("closed", `the state store (${this.#where}) was closed`);
    }
  }

  #unreachable(cause: unknown, what: string): StateStoreError {
    const reason = cause === undefined || cause instanceof RedisNoAnswer
      ? what
      : String((cause as Error)?.message ?? cause);
    return new StateStoreError(
      "unavailable",
      `${this.#where} is unreachable (${reason}); check that redis-server runs there and ` +
        `accepts connections from this host`,
      { cause },
    );
  }
}

/** A command Redis did not answer within the command timeout. */
class RedisNoAnswer extends Error {
  constructor() {
    super("no answer in time");
    this.name = "RedisNoAnswer";
  }
}
