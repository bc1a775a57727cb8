// Private: the messages of the run error classes (`errors.ts`) that depend on
// more than one fact: with or without the tool ID, the text content of a tool's
// error result (redacted, then cut to an excerpt).

import { excerpt } from "./output/text.ts";

/** `tool "x" failed: <detail>`, or `execution failed: <detail>` without a tool ID. */
export function executionMessage(detail: string, toolId: string | undefined): string {
  return toolId === undefined
    ? `execution failed: ${detail}`
    : `tool ${JSON.stringify(toolId)} failed: ${detail}`;
}

/** The text blocks of a tool's error content, redacted and cut to 2000 characters. */
export function toolErrorMessage(
  content: readonly unknown[],
  toolId: string | undefined,
  redact: ((text: string) => string) | undefined,
): string {
  const joined = content
    .map((c) =>
      (c as { type?: string; text?: string })?.type === "text" ? (c as { text: string }).text : ""
    )
    .filter((t) => t !== "")
    .join("\n");
  const text = redact === undefined ? joined : redact(joined);
  return `tool ${JSON.stringify(toolId ?? "")} reported an error: ${
    text === "" ? "(no text content)" : excerpt(text, 2000)
  }`;
}

/** What was refused, with the tool ID when there is one. */
export function permissionDeniedMessage(detail: string, toolId: string | undefined): string {
  return toolId === undefined
    ? `permission denied: ${detail}`
    : `tool ${JSON.stringify(toolId)}: permission denied: ${detail}`;
}

/** The cap and how to raise it, with the tool ID when there is one. */
export function outputTooLargeMessage(limitBytes: number, toolId: string | undefined): string {
  const detail =
    `output is larger than ${limitBytes} bytes (the cap; raise maxOutputBytes to allow more)`;
  return toolId === undefined ? detail : `tool ${JSON.stringify(toolId)}: ${detail}`;
}
