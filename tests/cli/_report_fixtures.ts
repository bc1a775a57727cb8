// Test helper of the report tests: a schema deeper than OpenAI's strict limit (10).
import type { Tool } from "../../model/tool.ts";

/** An object schema nested `depth` objects deep. */
export function nested(depth: number): Tool["inputSchema"] {
  let schema: Record<string, unknown> = { type: "string" };
  for (let i = 0; i < depth; i++) {
    schema = {
      type: "object",
      properties: { x: schema },
      required: ["x"],
      additionalProperties: false,
    };
  }
  return schema as Tool["inputSchema"];
}
