/**
 * A per-tool retry budget: how many failed calls in a row a tool may have
 * before the model is told to stop calling it.
 *
 * @module
 */

/** Options of a {@linkcode RetryBudget}. */
export interface RetryBudgetOptions {
  /** Failed calls in a row allowed per tool (default 3). */
  maxFailures?: number;
  /** Limits for some tools, by canonical tool ID (or provider name for unknown tools). */
  perTool?: Readonly<Record<string, number>>;
}

/**
 * Counts failed calls in a row, per tool, across the steps of one
 * conversation (keep one budget per conversation). A success resets the
 * tool's count. The tool step records failures in call order after all calls
 * of a response ran, so the outcome is the same whatever order they finish in.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { RetryBudget } from "@toolfoundation/core/loop";
 *
 * const budget = new RetryBudget({ maxFailures: 2 });
 * assert.equal(budget.fail("math:add"), 1);
 * assert.equal(budget.exhausted("math:add"), false);
 * assert.equal(budget.fail("math:add"), 2);
 * assert.equal(budget.exhausted("math:add"), true);
 * budget.succeed("math:add");
 * assert.equal(budget.failures("math:add"), 0);
 * ```
 */
export class RetryBudget {
  readonly #max: number;
  readonly #perTool: Readonly<Record<string, number>>;
  readonly #failures = new Map<string, number>();

  /**
   * Creates the instance.
   *
   * @param options The limits.
   */
  constructor(options: RetryBudgetOptions = {}) {
    this.#max = options.maxFailures ?? 3;
    this.#perTool = options.perTool ?? {};
    for (const n of [this.#max, ...Object.values(this.#perTool)]) {
      if (!Number.isSafeInteger(n) || n < 1) {
        throw new RangeError(`a retry budget must be a whole number >= 1, got ${n}`);
      }
    }
  }

  /**
   * The limit of a tool.
   *
   * @param key The canonical tool ID (or provider name).
   * @returns Failed calls in a row allowed.
   */
  limit(key: string): number {
    return Object.hasOwn(this.#perTool, key) ? this.#perTool[key] : this.#max;
  }

  /**
   * Failed calls in a row of a tool so far.
   *
   * @param key The canonical tool ID (or provider name).
   * @returns The count.
   */
  failures(key: string): number {
    return this.#failures.get(key) ?? 0;
  }

  /**
   * Whether a tool has used up its budget.
   *
   * @param key The canonical tool ID (or provider name).
   * @returns `true` when used up.
   */
  exhausted(key: string): boolean {
    return this.failures(key) >= this.limit(key);
  }

  /**
   * Counts a failed call.
   *
   * @param key The canonical tool ID (or provider name).
   * @returns Failed calls in a row, this one included.
   */
  fail(key: string): number {
    const n = this.failures(key) + 1;
    this.#failures.set(key, n);
    return n;
  }

  /**
   * Counts a successful call: the tool's count starts again.
   *
   * @param key The canonical tool ID (or provider name).
   */
  succeed(key: string): void {
    this.#failures.delete(key);
  }
}
