// Private: invalid results and SchemaValidationErrors whose failures (and the
// error's message) are computed when first read, not when the value is
// checked. Once read, they are plain data properties like any other.

import { SchemaValidationError, type ValidationFailure } from "./errors.ts";
import type { CheckResult } from "./schema_validator.ts";

function settle<T>(target: object, key: string, value: T, enumerable: boolean): T {
  Object.defineProperty(target, key, { value, writable: true, enumerable, configurable: true });
  return value;
}

/** Returns the object it is given, so that a subclass can define fields on it. */
class Given {
  constructor(target: object) {
    return target;
  }
}

/**
 * Makes `failures` an own data property of an InvalidResult (writable,
 * enumerable, configurable: what `settle` makes), through a class field:
 * V8 defines a field with its inline caches, where Object.defineProperty
 * costs about ten times more.
 */
class Settled extends Given {
  failures: ValidationFailure[] = undefined as unknown as ValidationFailure[];

  constructor(target: object, failures: ValidationFailure[]) {
    super(target);
    this.failures = failures;
  }
}

/**
 * `{ valid: false, failures }` with `failures` computed (once) on first read,
 * then an own data property. A class rather than accessors defined on a plain
 * object: creating one costs what creating `{ valid: false }` costs.
 */
class InvalidResult<A, B> {
  /** Always `false`. */
  readonly valid = false as const;
  #compute: (a: A, b: B) => ValidationFailure[];
  #a: A;
  #b: B;

  constructor(compute: (a: A, b: B) => ValidationFailure[], a: A, b: B) {
    this.#compute = compute;
    this.#a = a;
    this.#b = b;
  }

  /** The failures, computed on first read. */
  get failures(): ValidationFailure[] {
    const failures = this.#compute(this.#a, this.#b);
    new Settled(this, failures);
    return failures;
  }

  set failures(value: ValidationFailure[]) {
    new Settled(this, value);
  }

  /** The same JSON as `{ valid: false, failures }`. */
  toJSON(): { valid: false; failures: ValidationFailure[] } {
    return { valid: false, failures: this.failures };
  }
}

/**
 * An invalid result whose failures, `compute(a, b)`, are computed (once) on
 * first read. The arguments are held rather than captured in a closure: the
 * result is then the only allocation.
 */
export function lazyInvalid<A, B>(
  compute: (a: A, b: B) => ValidationFailure[],
  a: A,
  b: B,
): CheckResult {
  return new InvalidResult(compute, a, b);
}

/**
 * A {@linkcode SchemaValidationError} whose `failures` and `message` (and so
 * its `stack`, which V8 formats on first read) are computed on first read of
 * either, exactly as the constructor would have built them.
 */
export function lazyValidationError(
  failures: () => readonly ValidationFailure[],
  subject: string | undefined,
  instance: unknown,
): SchemaValidationError {
  const error = new SchemaValidationError([], { subject, instance });
  let built: SchemaValidationError | undefined;
  const build = (): SchemaValidationError => {
    if (built === undefined) {
      built = new SchemaValidationError(failures(), { subject, instance });
      settle(error, "failures", built.failures, true);
      settle(error, "message", built.message, false);
    }
    return built;
  };
  Object.defineProperty(error, "failures", {
    get: () => build().failures,
    set: (value: readonly ValidationFailure[]) => settle(error, "failures", value, true),
    enumerable: true,
    configurable: true,
  });
  Object.defineProperty(error, "message", {
    get: () => build().message,
    set: (value: string) => settle(error, "message", value, false),
    enumerable: false,
    configurable: true,
  });
  return error;
}
