// Private: what the MCP client checks itself instead of the SDK's zod schemas
// (whose failures are raw dumps): the shape of tools/list and tools/call
// results, the timeout error that names the phase, and the reading of a
// failed server's stderr (a missing certificate or variable is named).

import { isNonArrayObject } from "../../model/plain_object.ts";
import { ExecutionError, type RunErrorOptions, RunTimeoutError } from "../errors.ts";
import type { McpListedTool } from "./tools.ts";
import type { McpCallResult } from "../result.ts";

/** The phases of an MCP run, each under the run's one deadline. */
export type McpPhase = "connect" | "list" | "call";

const PHASE_TEXT: Record<McpPhase, string> = {
  connect: "while starting and initializing MCP server",
  list: "while listing the tools of MCP server",
  call: "while calling the tool on MCP server",
};

/** A run's deadline passed during one phase of talking to an MCP server. */
export class McpTimeoutError extends RunTimeoutError {
  /** The phase the deadline passed in: `connect`, `list` or `call`. */
  readonly phase: McpPhase;
  /** The server name. */
  readonly server: string;

  constructor(
    timeoutMs: number,
    phase: McpPhase,
    server: string,
    options: RunErrorOptions & { hint?: string },
  ) {
    super(timeoutMs, options);
    this.name = "RunTimeoutError"; // the public class; this one only adds phase and server
    this.phase = phase;
    this.server = server;
    const who = options.toolId === undefined
      ? "listing tools"
      : `tool ${JSON.stringify(options.toolId)}`;
    this.message = `${who} timed out after ${timeoutMs} ms ${PHASE_TEXT[phase]} ${
      JSON.stringify(server)
    } (phase: ${phase})${options.hint ? `; ${options.hint}` : ""}`;
  }
}

function kind(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : `${typeof value} ${JSON.stringify(value)}`;
}

function objectSchemaProblem(field: string, value: unknown): string | undefined {
  if (!isNonArrayObject(value)) return `${field} must be a JSON Schema object (got ${kind(value)})`;
  if (value.type !== "object") {
    return `${field}.type must be "object" (got ${
      value.type === undefined ? "none" : JSON.stringify(value.type)
    })`;
  }
  return undefined;
}

function toolProblems(tool: unknown): string[] {
  if (!isNonArrayObject(tool)) return [`must be an object (got ${kind(tool)})`];
  const problems: string[] = [];
  if (typeof tool.name !== "string" || tool.name === "") {
    problems.push(`name must be a non-empty string (got ${kind(tool.name)})`);
  }
  const input = objectSchemaProblem("inputSchema", tool.inputSchema);
  if (input !== undefined) problems.push(input);
  if (tool.outputSchema !== undefined) {
    const output = objectSchemaProblem("outputSchema", tool.outputSchema);
    if (output !== undefined) problems.push(output);
  }
  for (const field of ["title", "description"]) {
    if (tool[field] !== undefined && typeof tool[field] !== "string") {
      problems.push(`${field} must be a string (got ${kind(tool[field])})`);
    }
  }
  if (tool.annotations !== undefined && !isNonArrayObject(tool.annotations)) {
    problems.push(`annotations must be an object (got ${kind(tool.annotations)})`);
  }
  return problems;
}

/** Checks one tools/list page; throws an `ExecutionError` naming the server and every problem. */
export function checkToolList(
  server: string,
  result: unknown,
): { tools: McpListedTool[]; nextCursor?: string } {
  const problems: string[] = [];
  if (!isNonArrayObject(result)) {
    problems.push(`the result must be an object (got ${kind(result)})`);
  } else if (!Array.isArray(result.tools)) {
    problems.push(`tools must be an array (got ${kind(result.tools)})`);
  } else {
    result.tools.forEach((tool: unknown, index: number) => {
      const name = isNonArrayObject(tool) && typeof tool.name === "string"
        ? ` (${JSON.stringify(tool.name)})`
        : "";
      for (const problem of toolProblems(tool)) problems.push(`tools[${index}]${name}: ${problem}`);
    });
    if (result.nextCursor !== undefined && typeof result.nextCursor !== "string") {
      problems.push(`nextCursor must be a string (got ${kind(result.nextCursor)})`);
    }
  }
  if (problems.length > 0) {
    const shown = problems.slice(0, 5).join("; ");
    const more = problems.length > 5 ? ` (and ${problems.length - 5} more)` : "";
    throw new ExecutionError(
      `MCP server ${
        JSON.stringify(server)
      } sent a tools/list result that breaks the MCP schema: ${shown}${more}`,
      { details: { server, problems } },
    );
  }
  return result as { tools: McpListedTool[]; nextCursor?: string };
}

/** Checks a tools/call result; throws an `ExecutionError` naming the server and the problem. */
export function checkCallResult(server: string, tool: string, result: unknown): McpCallResult {
  let problem: string | undefined;
  if (!isNonArrayObject(result)) {
    problem = `the result must be an object (got ${kind(result)})`;
  } else if (result.content !== undefined && !Array.isArray(result.content)) {
    problem = `content must be an array (got ${kind(result.content)})`;
  } else if (Array.isArray(result.content)) {
    const index = result.content.findIndex((b) =>
      !isNonArrayObject(b) || typeof b.type !== "string"
    );
    if (index >= 0) problem = `content[${index}] must be an object with a string type`;
  }
  if (problem === undefined && isNonArrayObject(result)) {
    if (result.structuredContent !== undefined && !isNonArrayObject(result.structuredContent)) {
      problem = `structuredContent must be an object (got ${kind(result.structuredContent)})`;
    } else if (result.isError !== undefined && typeof result.isError !== "boolean") {
      problem = `isError must be a boolean (got ${kind(result.isError)})`;
    }
  }
  if (problem !== undefined) {
    throw new ExecutionError(
      `MCP server ${JSON.stringify(server)} sent a tools/call result for ${
        JSON.stringify(tool)
      } that breaks the MCP schema: ${problem}`,
      { details: { server, problem } },
    );
  }
  const checked = result as McpCallResult;
  if (checked.content === undefined) checked.content = [];
  return checked;
}
