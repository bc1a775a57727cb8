// Private: the ordered, de-duplicated list of warnings a conversion collects.

import type { FeatureLossAction, FeatureLossEffect, FeatureLossWarning } from "../warning.ts";

/**
 * Adds a warning to a list unless one with the same path, feature and action
 * is there; returns the warning added.
 */
export class WarningSink {
  readonly list: FeatureLossWarning[] = [];
  readonly #seen = new Set<string>();
  constructor(readonly from: string, readonly to: string) {}

  add(
    path: string,
    feature: string,
    action: FeatureLossAction,
    effect: FeatureLossEffect,
    message: string,
  ): FeatureLossWarning | undefined {
    const key = `${path}\u0000${feature}\u0000${action}`;
    if (this.#seen.has(key)) return undefined;
    this.#seen.add(key);
    const warning = { feature, path, from: this.from, to: this.to, action, effect, message };
    this.list.push(warning);
    return warning;
  }
}
