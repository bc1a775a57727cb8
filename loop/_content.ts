// Private: a call's outcome as neutral pieces (text, image, document, JSON), from the MCP
// content a tool returned or the value a local handler returned, and the warning for a
// piece a provider has no form for.

import type { McpContentBlock } from "../run/mod.ts";
import type { ContentWarning } from "./tool_answer.ts";
import type { CallOutcome } from "./run_calls.ts";
import type { LoopFormat } from "./tool_call.ts";

export type Piece =
  | { kind: "text"; text: string }
  | { kind: "image"; mimeType: string; data: string; block: number }
  | { kind: "document"; mimeType: string; data: string; name?: string; block: number }
  | { kind: "other"; type: string; text: string; block: number; warn: boolean };

export interface Pieces {
  pieces: Piece[];
  /** The JSON value, where the result has one (structuredContent, or a non-string value). */
  json?: unknown;
  hasJson: boolean;
}

function str(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

function blockPiece(block: McpContentBlock, index: number): Piece {
  const type = String(block?.type);
  if (type === "text" && typeof block.text === "string") return { kind: "text", text: block.text };
  if ((type === "image") && str(block.data) && str(block.mimeType)) {
    return {
      kind: "image",
      mimeType: block.mimeType as string,
      data: block.data as string,
      block: index,
    };
  }
  if (type === "resource" && typeof block.resource === "object" && block.resource !== null) {
    const r = block.resource as Record<string, unknown>;
    const uri = str(r.uri) ?? "";
    const mime = str(r.mimeType) ?? "";
    if (typeof r.text === "string") return { kind: "text", text: r.text };
    if (typeof r.blob === "string") {
      if (mime.startsWith("image/")) {
        return { kind: "image", mimeType: mime, data: r.blob, block: index };
      }
      if (mime === "application/pdf") {
        const name = uri.split("/").pop() || undefined;
        return {
          kind: "document",
          mimeType: mime,
          data: r.blob,
          block: index,
          ...(name ? { name } : {}),
        };
      }
      return {
        kind: "other",
        type,
        block: index,
        warn: true,
        text: `[resource ${uri} (${
          mime || "unknown type"
        }, ${r.blob.length} base64 characters) not included]`,
      };
    }
  }
  if (type === "resource_link") {
    const name = str(block.name) ?? "";
    return {
      kind: "other",
      type,
      block: index,
      warn: true,
      text: `[resource link${name ? ` ${name}` : ""}: ${str(block.uri) ?? ""}]`,
    };
  }
  if (type === "audio") {
    return {
      kind: "other",
      type,
      block: index,
      warn: true,
      text: `[audio (${str(block.mimeType) ?? "unknown type"}) not included]`,
    };
  }
  return { kind: "other", type, block: index, warn: true, text: JSON.stringify(block) };
}

/** The pieces of a successful outcome. */
export function outcomePieces(outcome: CallOutcome): Pieces {
  const result = outcome.result!;
  const mcp = result.mcpResult;
  if (mcp !== undefined) {
    const content = Array.isArray(mcp.content) ? mcp.content : [];
    const pieces = content.map(blockPiece);
    const structured = mcp.structuredContent;
    const hasJson = structured !== undefined && structured !== null;
    if (pieces.length === 0 && hasJson) {
      pieces.push({ kind: "text", text: JSON.stringify(structured) });
    }
    return { pieces, hasJson, ...(hasJson ? { json: structured } : {}) };
  }
  const value = result.structured;
  if (typeof value === "string") return { pieces: [{ kind: "text", text: value }], hasJson: false };
  if (value === undefined) return { pieces: [], hasJson: false };
  return { pieces: [{ kind: "text", text: JSON.stringify(value) }], hasJson: true, json: value };
}

/** The text of a piece a provider has no form for, and its warning. */
export function asText(
  piece: Exclude<Piece, { kind: "text" }>,
  outcome: CallOutcome,
  format: LoopFormat,
  warnings: ContentWarning[],
): string {
  const type = piece.kind === "other" ? piece.type : piece.kind === "image" ? "image" : "resource";
  const text = piece.kind === "other"
    ? piece.text
    : `[${piece.kind} (${piece.mimeType}, ${piece.data.length} base64 characters) not included]`;
  const warning: ContentWarning = {
    code: "content_as_text",
    callIndex: outcome.call.index,
    block: piece.block,
    type,
    message: `${format} tool results have no form for ${
      piece.kind === "other" ? `a ${type} block` : `${piece.kind} ${piece.mimeType}`
    }; it was sent as the text ${
      JSON.stringify(text.length > 80 ? `${text.slice(0, 79)}…` : text)
    }`,
  };
  if (outcome.call.id !== undefined) warning.callId = outcome.call.id;
  warnings.push(warning);
  return text;
}

/** Every piece as text (for providers that take only text). */
export function allText(
  pieces: Pieces,
  outcome: CallOutcome,
  format: LoopFormat,
  warnings: ContentWarning[],
): string {
  return pieces.pieces.map((p) => p.kind === "text" ? p.text : asText(p, outcome, format, warnings))
    .join("\n");
}
