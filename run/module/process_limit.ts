/**
 * A cap on the live module-tool processes that share it. Every process holds
 * one slot from its start until it has exited (stopped, crashed, or exited by
 * itself). A call that needs a new process when every slot is held first
 * retires an idle process of any module tool (the least recently used
 * first); when none is idle it waits in a queue, first come first served,
 * until a slot frees, its signal aborts, or its deadline passes. A process
 * that goes idle while calls wait is handed on at once: to the first waiting
 * call when that call is of the same tool (no restart), otherwise it is
 * retired so that the first waiting call can start its own.
 *
 * A `Runner` owns one (`maxModuleProcesses`, default
 * {@linkcode DEFAULT_MAX_MODULE_PROCESSES}) and hands it to the module tools a
 * workspace builds for it; a module handler made alone gets its own.
 *
 * @module
 */

import { RunTimeoutError } from "../errors.ts";

/** Default cap of live module-tool processes per runner: 16. */
export const DEFAULT_MAX_MODULE_PROCESSES = 16;

/** The largest cap accepted. */
const MOST = 65_536;

/** One held place for one live process; see {@linkcode ModuleProcessLimit.acquire}. */
export interface ModuleProcessSlot {
  /**
   * Offers the slot's idle process to the first waiting call, when that call
   * is of the same owner: it then gets this slot (and so the process) and
   * `true` is returned; the caller must not keep the process idle.
   */
  handOver(): boolean;
  /**
   * Marks the slot's process idle: when a waiting call needs room, `retire`
   * is called (least recently idle first) and must stop the process; the
   * slot frees when it has exited ({@linkcode ModuleProcessSlot.release}).
   */
  idle(retire: () => void): void;
  /** Marks the slot's process busy again: it is no longer retired to make room. */
  busy(): void;
  /** Frees the slot, once its process has exited (a second call does nothing). */
  release(): void;
}

interface Waiter {
  owner: object;
  grant: (slot: Slot) => void;
}

class Slot implements ModuleProcessSlot {
  released = false;
  retiring = false;
  retire: (() => void) | undefined;

  constructor(readonly owner: object, readonly hooks: Hooks) {}

  handOver(): boolean {
    return this.hooks.handOver(this);
  }

  idle(retire: () => void): void {
    if (this.released) return;
    this.retire = retire;
    this.hooks.idle(this);
  }

  busy(): void {
    this.retire = undefined;
    this.hooks.busy(this);
  }

  release(): void {
    if (this.released) return;
    this.released = true;
    this.hooks.release(this);
  }
}

interface Hooks {
  handOver(slot: Slot): boolean;
  idle(slot: Slot): void;
  busy(slot: Slot): void;
  release(slot: Slot): void;
}

/**
 * A cap on live module-tool processes, shared by the module handlers given it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ModuleProcessLimit } from "@toolfoundation/core/run";
 *
 * const limit = new ModuleProcessLimit(1);
 * const owner = {};
 * const first = await limit.acquire(owner);
 * const second = limit.acquire(owner); // waits: the one slot is held
 * assert.equal(limit.waiting, 1);
 * first.release(); // the first process exited
 * (await second).release();
 * assert.equal(limit.live, 0);
 * ```
 */
export class ModuleProcessLimit {
  /** The most processes live at once. */
  readonly max: number;
  #used = 0;
  /** Slots whose idle process was retired to make room, not yet freed. */
  #retiring = 0;
  readonly #waiters: Waiter[] = [];
  /** Idle slots, least recently idle first (a Set keeps insertion order). */
  readonly #idle = new Set<Slot>();
  readonly #hooks: Hooks = {
    handOver: (slot) => this.#handOver(slot),
    idle: (slot) => {
      this.#idle.delete(slot);
      this.#idle.add(slot);
      this.#makeRoom();
    },
    busy: (slot) => void this.#idle.delete(slot),
    release: (slot) => {
      this.#idle.delete(slot);
      if (slot.retiring) this.#retiring--;
      this.#used--;
      this.#makeRoom();
    },
  };

  /**
   * Creates the instance.
   *
   * @param max The most live processes (default {@linkcode DEFAULT_MAX_MODULE_PROCESSES}).
   * @throws {RangeError} When `max` is not a whole number from 1 to 65536.
   */
  constructor(max: number = DEFAULT_MAX_MODULE_PROCESSES) {
    if (!Number.isInteger(max) || max < 1 || max > MOST) {
      throw new RangeError(
        `the cap of live module-tool processes must be a whole number from 1 to ${MOST}, got ${max}`,
      );
    }
    this.max = max;
  }

  /** Processes holding a slot: running, idle, or stopping. */
  get live(): number {
    return this.#used;
  }

  /** Calls waiting for a slot. */
  get waiting(): number {
    return this.#waiters.length;
  }

  /** Idle processes that can be retired to make room. */
  get idle(): number {
    return this.#idle.size;
  }

  /**
   * A slot for a new process of `owner` (a module handler), or a slot whose
   * idle process of the same owner is handed over. Waits, first come first
   * served, while every slot is held. When `signal` aborts first, rejects with
   * its reason; a `RunTimeoutError` reason then also says that the call waited
   * for a slot and how to raise the cap.
   *
   * @param owner Who starts the process: a handed-over slot is always its own.
   * @param signal Gives up waiting.
   * @returns The slot; release it when its process has exited.
   */
  acquire(owner: object, signal?: AbortSignal): Promise<ModuleProcessSlot> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (this.#waiters.length === 0 && this.#used < this.max) {
      this.#used++;
      return Promise.resolve(new Slot(owner, this.#hooks));
    }
    const since = performance.now();
    return new Promise((resolve, reject) => {
      const onAbort = (): void => {
        const at = this.#waiters.indexOf(waiter);
        if (at < 0) return;
        this.#waiters.splice(at, 1);
        const reason = signal!.reason;
        if (reason instanceof RunTimeoutError) {
          const waited = Math.round(performance.now() - since);
          reason.message += `: it waited ${waited} ms for a module process slot (all ` +
            `${this.max} held by module tools); raise the cap with --max-module-processes N ` +
            "(the Runner's maxModuleProcesses) or give the call a longer deadline";
        }
        reject(reason);
      };
      const waiter: Waiter = {
        owner,
        grant: (slot) => {
          signal?.removeEventListener("abort", onAbort);
          resolve(slot);
        },
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.#waiters.push(waiter);
      this.#makeRoom();
    });
  }

  /** Gives free slots to waiting calls, then retires idle processes for those still waiting. */
  #makeRoom(): void {
    while (this.#waiters.length > 0 && this.#used < this.max) {
      const waiter = this.#waiters.shift()!;
      this.#used++;
      waiter.grant(new Slot(waiter.owner, this.#hooks));
    }
    while (this.#waiters.length > this.#retiring && this.#idle.size > 0) {
      const oldest: Slot = this.#idle.values().next().value!;
      this.#idle.delete(oldest);
      oldest.retiring = true;
      this.#retiring++;
      const retire = oldest.retire;
      oldest.retire = undefined;
      retire?.();
    }
  }

  /** The first waiting call no retiring process will serve gets `slot` when it is its owner's. */
  #handOver(slot: Slot): boolean {
    if (slot.released || this.#waiters.length <= this.#retiring) return false;
    const waiter = this.#waiters[this.#retiring];
    if (waiter.owner !== slot.owner) return false;
    this.#waiters.splice(this.#retiring, 1);
    this.#idle.delete(slot);
    slot.retire = undefined;
    waiter.grant(slot);
    return true;
  }
}
