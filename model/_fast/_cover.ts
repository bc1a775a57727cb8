// Private: pieces of the generated code that proves a value JSON while it
// checks it (see _compile.ts). The root's code, written inline, knows each
// value's nesting; a part of the value that the code itself proves JSON (a
// typed primitive, an enum of primitives, a plain object or an array whose
// items and properties are all proven or walked) is not walked again, and
// every other part is walked once by `w`, the same test as
// model/_instance_check.ts's: finite numbers, plain objects (own names,
// enumerable or not), arrays (indexes), nothing else, and no container at a
// nesting of MAX_DEPTH or more.

/**
 * The walk, as generated source: `MAX_DEPTH` is replaced by the limit, and
 * `OP` is `Object.prototype`. Each document gets its own copy (its own type
 * feedback for the engine).
 */
export const WALKER = `function w(x, d) {
switch (typeof x) {
case "string": case "boolean": return true;
case "number": return Number.isFinite(x);
case "object": {
if (x === null) return true;
if (d >= MAX_DEPTH) return false;
if (Array.isArray(x)) { for (let i = 0; i < x.length; i++) if (!w(x[i], d + 1)) return false; return true; }
const p = Object.getPrototypeOf(x);
if (p !== OP && p !== null) return false;
const ks = Object.getOwnPropertyNames(x);
for (let i = 0; i < ks.length; i++) if (!w(x[ks[i]], d + 1)) return false;
return true;
}
default: return false;
}
}
`;

/** Most named members the walk of a refused value reads by name. */
const NAMED_LIMIT = 32;

/**
 * The walk of a whole value (`j(x)`, what `w(x, 0)` answers), as generated
 * source after WALKER, for a root whose values are expected to be objects
 * holding some of `names`: each such member is read by its name (one read,
 * where walking every own name reads each by a key), counted and marked
 * (bit i of `f`) when it is the object's own (as the proving code counts,
 * _compile_objects.ts) and tested in place when a primitive; when the object
 * holds no other own name, that is the whole walk. Else its own names are
 * walked in their order (as `w` walks them) except those a read proved: a
 * named own member not marked was read as `undefined`, which is not JSON. A
 * value it finds not JSON is then checked by the located check
 * (model/_instance_check.ts), so that only its true answer matters, which
 * is `w`'s.
 */
export function rootWalk(names: readonly string[]): string {
  const read = names.slice(0, NAMED_LIMIT);
  const reads = read.map((name, i) => {
    const quoted = JSON.stringify(name);
    return `{ const x = v[${quoted}]; if (x !== undefined && (!(${quoted} in OP) || ` +
      `hasOwn(v, ${quoted}))) { n++; f |= ${1 << i}; if (!(typeof x === "string" || ` +
      `typeof x === "boolean" || (typeof x === "number" ? Number.isFinite(x) : x === null || ` +
      `w(x, 1)))) return false; } }`;
  });
  const cases = read.map((name, i) =>
    `case ${JSON.stringify(name)}: if ((f & ${1 << i}) === 0) return false; break;`
  );
  return `function j(v) {
if (typeof v !== "object" || v === null || Array.isArray(v)) return w(v, 0);
let n = 0, f = 0;
${reads.join("\n")}
{ const o = Object.getPrototypeOf(v); if (o !== OP && o !== null) return false; }
const ks = Object.getOwnPropertyNames(v);
if (n === ks.length) return true;
for (let i = 0; i < ks.length; i++) {
const k = ks[i];
switch (k) {
${cases.join("\n")}
default: if (!w(v[k], 1)) return false;
}
}
return true;
}
`;
}

/** Enums this long or shorter are tested with `===` (longer ones with a Set). */
const CHAIN_LIMIT = 8;

/** Whether a value is a JSON primitive (a finite number, a string, a boolean, null). */
export function isJsonPrimitive(value: unknown): boolean {
  return value === null || typeof value === "string" || typeof value === "boolean" ||
    (typeof value === "number" && Number.isFinite(value));
}

/**
 * An expression true when `v` is one of `values` (JSON primitives, at most
 * CHAIN_LIMIT of them), compared as Hyperjump compares them (`-0` equals
 * `0`); undefined when the values do not suit a chain of `===`.
 */
export function primitiveTest(values: readonly unknown[]): string | undefined {
  if (values.length === 0 || values.length > CHAIN_LIMIT || !values.every(isJsonPrimitive)) {
    return undefined;
  }
  const literals = values.map((value) =>
    typeof value === "number" ? (Object.is(value, -0) ? "0" : String(value)) : JSON.stringify(value)
  );
  return `(${literals.map((literal) => `v === ${literal}`).join(" || ")})`;
}
