// Private: what every input normalizer shares, whatever the dialect of the
// converted schema: the two directions (`normalize` to the original form,
// `denormalize` to the converted one), nodes that hold an object as JSON text
// (decoded and encoded here), and the order `anyOf` branches are tried in
// (those holding JSON text first, so text holding an object is read as the
// object). The dialect supplies how a value is walked and matched.

import type { Obj } from "../_schema/mod.ts";
import { isNonArrayObject } from "../../model/plain_object.ts";
import { decodeText, encodeText } from "../_json_text/mod.ts";
import type { InputNormalizer } from "../normalizer.ts";

/** How deep a walk follows a value and its schema. */
export const MAX_NORMALIZER_DEPTH = 256;

/** The shared part of an input normalizer over one converted schema. */
export abstract class SchemaNormalizer implements InputNormalizer {
  readonly identity = false;

  constructor(readonly root: Obj, readonly text: Set<Obj>) {}

  normalize(args: unknown): unknown {
    this.start();
    return this.walk(args, this.root, false, 0);
  }

  denormalize(args: unknown): unknown {
    this.start();
    return this.walk(args, this.root, true, 0);
  }

  /** Called before each call of `normalize` or `denormalize`. */
  protected start(): void {}

  /** The schema a node stands for (references followed, where the dialect has them). */
  abstract deref(schema: unknown): unknown;

  /**
   * Maps a value by its schema: `filling` is `true` towards the converted
   * form (denormalize), `false` towards the original (normalize).
   */
  abstract walk(value: unknown, schema: unknown, filling: boolean, depth: number): unknown;

  /** A value of a node that holds an object as JSON text, in the direction asked. */
  textValue(value: unknown, filling: boolean): unknown {
    return filling ? encodeText(value) : decodeText(value);
  }

  /** Whether a node holds JSON text itself or in one of its `anyOf` branches. */
  holdsText(schema: unknown, depth: number): boolean {
    if (this.text.size === 0 || depth > MAX_NORMALIZER_DEPTH) return false;
    const node = this.deref(schema);
    if (!isNonArrayObject(node)) return false;
    return this.text.has(node) ||
      (Array.isArray(node.anyOf) &&
        node.anyOf.some((branch) => this.holdsText(branch, depth + 1)));
  }

  /** `anyOf` branches in the order they are tried: those holding JSON text first. */
  textFirst<T>(branches: T[], depth: number): T[] {
    const text = branches.filter((branch) => this.holdsText(branch, depth));
    return text.length === 0
      ? branches
      : [...text, ...branches.filter((branch) => !text.includes(branch))];
  }
}
