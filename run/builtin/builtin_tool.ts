/**
 * The shape of a built-in tool (its default definition and its handler), and
 * the annotations the pure ones share. Declared apart from the list of
 * built-ins, which each built-in's own module would otherwise import back.
 *
 * @module
 */

import type { Tool, ToolAnnotations } from "../../model/mod.ts";
import type { LocalHandler } from "../local.ts";

/** A built-in tool: its default definition and its handler. */
export interface BuiltinTool {
  /** The default definition (a manifest may override name, namespace and docs). */
  tool: Tool;
  /** The in-process handler. */
  handler: LocalHandler;
}

/** The annotations of a built-in that is a pure function of its arguments. */
export const PURE: ToolAnnotations = {
  readOnlyHint: true,
  idempotentHint: true,
  openWorldHint: false,
};
