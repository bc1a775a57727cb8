// Test helpers: the fixtures' tools on a Runner, and the fixtures themselves.
import type { Tool } from "../../model/mod.ts";
import { Runner, ToolResultError } from "../../run/mod.ts";
import { type LoopFormat, type PreparedTools, prepareTools } from "../../loop/mod.ts";

export const FIXTURES = new URL("../fixtures/loop/", import.meta.url);

/** The fixture folder of each format. */
export const FOLDER: Record<LoopFormat, string> = {
  openai: "openai_chat",
  "openai-responses": "openai_responses",
  anthropic: "anthropic",
  gemini: "gemini",
};

export const ADD: Tool = {
  name: "add",
  namespace: "math",
  description: "Adds two numbers.",
  inputSchema: {
    type: "object",
    properties: { a: { type: "number" }, b: { type: "number" } },
    required: ["a", "b"],
    additionalProperties: false,
  },
  annotations: { readOnlyHint: true },
};

export const READ: Tool = {
  name: "read",
  namespace: "files",
  description: "Reads a file.",
  inputSchema: {
    type: "object",
    properties: { path: { type: "string" } },
    required: ["path"],
  },
  annotations: { readOnlyHint: true },
};

export const DELETE: Tool = {
  name: "delete",
  namespace: "files",
  description: "Deletes a file.",
  inputSchema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
  annotations: { destructiveHint: true },
};

/** A runner with math:add, files:read (a missing file is a tool error) and files:delete. */
export function scenarioRunner(): Runner {
  const runner = new Runner();
  runner.addLocalTool(ADD, (args) => ({ sum: (args.a as number) + (args.b as number) }));
  runner.addLocalTool(READ, (args) => {
    throw new ToolResultError([{ type: "text", text: `no such file: ${args.path}` }]);
  });
  runner.addLocalTool(DELETE, () => ({ deleted: true }));
  return runner;
}

export function scenarioTools(format: LoopFormat): PreparedTools {
  return prepareTools([ADD, READ, DELETE], format);
}

export async function fixtureJson(
  format: LoopFormat,
  file: string,
): Promise<Record<string, unknown>> {
  return JSON.parse(await Deno.readTextFile(new URL(`${FOLDER[format]}/${file}`, FIXTURES)));
}

export async function fixtureText(format: LoopFormat, file: string): Promise<string> {
  return await Deno.readTextFile(new URL(`${FOLDER[format]}/${file}`, FIXTURES));
}
