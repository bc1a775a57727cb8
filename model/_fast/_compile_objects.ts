// Private: the fast check's code (see _compile.ts) of the object keywords:
// `required`, `properties`, `patternProperties`, `additionalProperties`,
// `propertyNames`, `minProperties`, `maxProperties` and the dependency
// keywords; with a depth limit, the section also proves the object JSON
// (a plain object, each own key's value proven or walked).

import {
  type Body,
  type CodeWriter,
  type Has,
  isObject,
  literal,
  number,
  stringList,
  Unsupported,
} from "./_compile_values.ts";

/**
 * An object's section; with `cover` (its nesting), whether it proves the
 * object JSON: a plain object whose every own key's value is proven or walked.
 */
export function objects(
  g: CodeWriter,
  schema: Record<string, unknown>,
  has: Has,
  cover: number | undefined,
): Body {
  if (cover !== undefined && cover >= g.max!) {
    const { out } = objects(g, schema, has, undefined);
    return { out: ["return false;", ...out], covered: true };
  }
  const out: string[] = [];
  const required = has("required") ? [...new Set(stringList(schema.required, "required"))] : [];
  const properties: [string, unknown][] = [];
  if (has("properties")) {
    if (!isObject(schema.properties)) throw new Unsupported("properties that is not an object");
    properties.push(...Object.entries(schema.properties));
  }
  const patterns: [string, unknown][] = [];
  if (has("patternProperties")) {
    if (!isObject(schema.patternProperties)) {
      throw new Unsupported("patternProperties that is not an object");
    }
    for (const [source, sub] of Object.entries(schema.patternProperties)) {
      patterns.push([g.pattern(source), sub]);
    }
  }
  const additional = has("additionalProperties") ? schema.additionalProperties : undefined;
  let covered = false;
  if (cover !== undefined && patterns.length === 0) {
    coveredProperties(g, properties, required, additional, cover, out);
    covered = true;
  } else if (patterns.length === 0 && (additional === undefined || additional === true)) {
    // A JSON value is never undefined: an absent property is a cheap miss,
    // and only a value found is checked to be the object's own.
    const named = new Set(properties.map(([name]) => name));
    for (const name of required) {
      if (!named.has(name)) out.push(`if (!hasOwn(v, ${JSON.stringify(name)})) return false;`);
    }
    const needed = new Set(required);
    properties.forEach(([name, sub], i) => {
      const quoted = JSON.stringify(name);
      const check = g.require(sub, `p${i}`);
      if (needed.has(name)) {
        out.push(
          `{ const p${i} = v[${quoted}]; ` +
            `if (p${i} === undefined || !hasOwn(v, ${quoted})) return false; ${check} }`,
        );
      } else if (check !== "") {
        out.push(
          `{ const p${i} = v[${quoted}]; ` +
            `if (p${i} !== undefined && hasOwn(v, ${quoted})) { ${check} } }`,
        );
      }
    });
  } else {
    for (const name of required) {
      out.push(`if (!hasOwn(v, ${JSON.stringify(name)})) return false;`);
    }
    const cases = properties.map(([name, sub]) =>
      `case ${JSON.stringify(name)}: known = true; ${g.require(sub, "x")} break;`
    );
    const matches = patterns.map(([matcher, sub]) =>
      `if (tp(${matcher}, k)) { known = true; ${g.require(sub, "x")} }`
    );
    const rest = additional === undefined ? "" : g.require(additional, "x");
    out.push(
      "for (const k of Object.getOwnPropertyNames(v)) { const x = v[k]; let known = false;",
      cases.length > 0 ? `switch (k) { ${cases.join(" ")} }` : "",
      ...matches,
      rest === "" ? "" : `if (!known) { ${rest} }`,
      "}",
    );
  }
  if (has("propertyNames")) {
    const call = g.call(schema.propertyNames, "k");
    if (call !== "true") {
      out.push(`for (const k of Object.getOwnPropertyNames(v)) if (!${call}) return false;`);
    }
  }
  if (has("minProperties")) {
    out.push(
      `if (Object.getOwnPropertyNames(v).length < ${
        literal(number(schema.minProperties, "minProperties"))
      }) return false;`,
    );
  }
  if (has("maxProperties")) {
    out.push(
      `if (Object.getOwnPropertyNames(v).length > ${
        literal(number(schema.maxProperties, "maxProperties"))
      }) return false;`,
    );
  }
  if (has("dependentRequired")) dependencies(g, schema.dependentRequired, false, out);
  if (has("dependentSchemas")) dependencies(g, schema.dependentSchemas, true, out);
  if (has("dependencies")) dependencies(g, schema.dependencies, undefined, out);
  return { out, covered };
}

/**
 * The proving code of `properties`, `required` and `additionalProperties`
 * (no `patternProperties`): each named value is read once and counted when
 * it is the object's own (a name `Object.prototype` does not hold, on a
 * plain object, needs no other test); when the object holds no other own
 * key, nothing else is read, else its other keys are checked and walked.
 */
function coveredProperties(
  g: CodeWriter,
  properties: [string, unknown][],
  required: string[],
  additional: unknown,
  cover: number,
  out: string[],
): void {
  const count = `n${g.temp()}`;
  const named = new Set(properties.map(([name]) => name));
  const needed = new Set(required);
  if (properties.length > 0 || required.length > 0) out.push(`let ${count} = 0;`);
  const own = (quoted: string, value: string) =>
    `${value} !== undefined && (!(${quoted} in OP) || hasOwn(v, ${quoted}))`;
  properties.forEach(([name, sub]) => {
    const quoted = JSON.stringify(name);
    const value = `p${g.temp()}`;
    const check = g.complete(sub, value, cover + 1);
    out.push(
      `{ const ${value} = v[${quoted}]; if (${own(quoted, value)}) { ${count}++; ${check} }${
        needed.has(name) ? " else return false;" : ""
      } }`,
    );
  });
  for (const name of required) {
    if (named.has(name)) continue;
    const quoted = JSON.stringify(name);
    const value = `p${g.temp()}`;
    out.push(
      `{ const ${value} = v[${quoted}]; if (!(${own(quoted, value)})) return false; ${count}++; ` +
        `if (!w(${value}, ${cover + 1})) return false; }`,
    );
    named.add(name);
  }
  // After the reads (the engine then knows the object's shape): a plain object.
  out.push(
    `{ const o = Object.getPrototypeOf(v); if (o !== OP && o !== null) return false; }`,
  );
  const other = additional === false
    ? "return false;"
    : g.complete(additional ?? true, "x", cover + 1);
  const cases = [...named].map((name) => `case ${JSON.stringify(name)}:`).join(" ");
  // Named values were read above; one of them undefined is not JSON.
  const loop = `for (const k of Object.getOwnPropertyNames(v)) { const x = v[k]; ${
    named.size === 0
      ? `{ ${other} }`
      : `switch (k) { ${cases} if (x === undefined) return false; break; default: { ${other} } }`
  } }`;
  if (named.size === 0) {
    out.push(loop);
  } else if (additional === false) {
    // Another own name is a stray member or a named one holding undefined.
    out.push(`if (Object.getOwnPropertyNames(v).length !== ${count}) return false;`);
  } else {
    out.push(`if (Object.getOwnPropertyNames(v).length !== ${count}) { ${loop} }`);
  }
}

/**
 * `dependentRequired` (`schemas` false), `dependentSchemas` (true) or draft-07
 * `dependencies` (undefined: each entry an array of names or a schema).
 */
function dependencies(
  g: CodeWriter,
  value: unknown,
  schemas: boolean | undefined,
  out: string[],
): void {
  if (!isObject(value)) throw new Unsupported("a dependency keyword that is not an object");
  for (const [trigger, dependency] of Object.entries(value)) {
    const quoted = JSON.stringify(trigger);
    if (schemas === false || (schemas === undefined && Array.isArray(dependency))) {
      const names = stringList(dependency, "a dependency");
      if (names.length === 0) continue;
      const all = names.map((name) => `hasOwn(v, ${JSON.stringify(name)})`).join(" && ");
      out.push(`if (hasOwn(v, ${quoted}) && !(${all})) return false;`);
    } else {
      out.push(`if (hasOwn(v, ${quoted}) && !${g.call(dependency, "v")}) return false;`);
    }
  }
}
