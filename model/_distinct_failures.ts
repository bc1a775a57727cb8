// Private: the failures without repeats (same instance location, keyword
// location and message), keeping the first of each in order.

import type { ValidationFailure } from "./errors.ts";

/** The failures without repeats (same instance location, keyword location and message). */
export function distinctFailures(out: ValidationFailure[]): ValidationFailure[] {
  if (out.length <= 8) {
    // Few failures: compared pairwise (the same rule as the key below).
    for (let i = 1; i < out.length; i++) {
      for (let j = 0; j < i; j++) {
        if (sameKey(out[j], out[i])) {
          return out.filter((f, i) => {
            for (let j = 0; j < i; j++) if (sameKey(out[j], f)) return false;
            return true;
          });
        }
      }
    }
    return out;
  }
  const seen = new Set<string>();
  return out.filter((f) => {
    const key = failureKey(f);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** What makes two failures the same one. */
function failureKey(f: ValidationFailure): string {
  return `${f.instanceLocation}\n${f.keywordLocation}\n${f.message}`;
}

function sameKey(a: ValidationFailure, b: ValidationFailure): boolean {
  if (
    a.instanceLocation === b.instanceLocation && a.keywordLocation === b.keywordLocation &&
    a.message === b.message
  ) return true;
  // Different fields make one key only through a line break inside a field
  // (of both: the key of a failure without one splits into its fields alone),
  // so with fields of different lengths (the same lengths put the breaks
  // between fields at the same places) and the same length in all.
  const length = (f: ValidationFailure) =>
    f.instanceLocation.length + f.keywordLocation.length + f.message.length;
  return length(a) === length(b) &&
    (a.instanceLocation.length !== b.instanceLocation.length ||
      a.keywordLocation.length !== b.keywordLocation.length) &&
    breaks(a) && breaks(b) && failureKey(a) === failureKey(b);
}

/** Whether a field of the failure holds a line break. */
function breaks(f: ValidationFailure): boolean {
  return f.instanceLocation.includes("\n") || f.keywordLocation.includes("\n") ||
    f.message.includes("\n");
}
