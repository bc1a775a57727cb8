// Private: the cheap up-front check of an instance (JSON values only, nesting
// within the limit) that builds no locations; only when it finds a problem
// does the exact, located check of _json.ts run.

import { checkInstance, type InstanceProblem } from "./_json.ts";

/** Beyond this limit the walk is iterative (the located check) rather than recursive. */
const RECURSION_LIMIT = 2000;

function fine(value: unknown, depth: number, maxDepth: number): boolean {
  switch (typeof value) {
    case "string":
    case "boolean":
      return true;
    case "number":
      return Number.isFinite(value);
    case "object": {
      if (value === null) return true;
      if (depth >= maxDepth) return false;
      if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) {
          if (!fine(value[i], depth + 1, maxDepth)) return false;
        }
        return true;
      }
      const proto = Object.getPrototypeOf(value);
      if (proto !== Object.prototype && proto !== null) return false;
      const object = value as Record<string, unknown>;
      for (const key of Object.getOwnPropertyNames(object)) {
        if (!fine(object[key], depth + 1, maxDepth)) return false;
      }
      return true;
    }
    default:
      return false;
  }
}

/** What is wrong with an instance (as `checkInstance` says), or `undefined`; locations only on a problem. */
export function instanceProblem(value: unknown, maxDepth: number): InstanceProblem | undefined {
  if (maxDepth <= RECURSION_LIMIT && fine(value, 0, maxDepth)) return undefined;
  return checkInstance(value, maxDepth);
}
