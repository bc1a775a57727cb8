// Private: Gemini requires every `required` name to be in the same schema's
// `properties`, also inside an `anyOf` branch. A branch that only adds
// `required` names (`anyOf: [{required: ["a"]}, {required: ["b"]}]`) gets the
// enclosing object's property schemas for those names, which changes nothing;
// a name no enclosing object declares is removed, with a warning.

import { type Obj, put, show, type WarningSink } from "../_schema/mod.ts";
import { isNonArrayObject } from "../../model/plain_object.ts";

/** Makes, in place, the `required` names of every `anyOf` branch of `schema` declared. */
export function declareBranchRequired(
  schema: Obj,
  origin: WeakMap<object, string>,
  sink: WarningSink,
  base: string,
): void {
  const seen = new Set<Obj>();
  const visit = (node: unknown, inherited: Obj): void => {
    if (!isNonArrayObject(node) || seen.has(node)) return;
    seen.add(node);
    const own = isNonArrayObject(node.properties) ? node.properties : {};
    if (isNonArrayObject(node.properties)) { for (const v of Object.values(own)) visit(v, {}); }
    visit(node.items, {});
    if (!Array.isArray(node.anyOf)) return;
    const outer = { ...inherited, ...own };
    for (const branch of node.anyOf) {
      if (isNonArrayObject(branch)) declare(branch, outer, origin.get(branch) ?? base, sink);
      visit(branch, outer);
    }
  };
  visit(schema, {});
}

function declare(branch: Obj, outer: Obj, from: string, sink: WarningSink): void {
  if (!Array.isArray(branch.required)) return;
  const props = isNonArrayObject(branch.properties) ? branch.properties : {};
  const copied: string[] = [];
  const missing: unknown[] = [];
  for (const name of branch.required) {
    if (typeof name === "string" && Object.hasOwn(props, name)) continue;
    if (typeof name === "string" && Object.hasOwn(outer, name)) {
      put(props, name, outer[name]);
      copied.push(name);
    } else missing.push(name);
  }
  if (copied.length > 0) {
    branch.properties = props;
    sink.add(
      `${from}/required`,
      "required",
      "rewritten",
      "none",
      `Gemini needs a property schema beside each required name; the enclosing object's schemas of ${
        copied.map((n) => JSON.stringify(n)).join(", ")
      } are repeated in this anyOf branch`,
    );
  }
  if (missing.length === 0) return;
  branch.required = branch.required.filter((n) => !missing.includes(n));
  if ((branch.required as unknown[]).length === 0) delete branch.required;
  sink.add(
    `${from}/required`,
    "required",
    "dropped",
    "widens",
    `required names without a property schema (${
      missing.map((n) => show(n)).join(", ")
    }) cannot be stated in Gemini's Schema and are removed`,
  );
}
