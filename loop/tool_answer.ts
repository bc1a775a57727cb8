/**
 * What answering the model's calls gives back, whatever the provider: the
 * messages to append ({@linkcode ToolAnswer}), the content that had to be sent
 * as text ({@linkcode ContentWarning}), and the options of the answer
 * functions. Declared apart from the functions so that the per-provider
 * answer modules and the dispatcher share them without importing each other.
 *
 * @module
 */

/** A content block the provider has no form for, sent as text instead. */
export interface ContentWarning {
  /** Always `content_as_text`. */
  code: "content_as_text";
  /** The call's index. */
  callIndex: number;
  /** The call's ID, when it has one. */
  callId?: string;
  /** The block's position in the tool's content. */
  block: number;
  /** The block's type (`image`, `audio`, `resource`, `resource_link`, ...). */
  type: string;
  /** What was sent instead, and why. */
  message: string;
}

/** Options of the answer functions. */
export interface AnswerOptions {
  /**
   * `native` (default): images and PDF documents in the provider's own form
   * where it has one; `text`: every non-text block as text, with a warning.
   */
  media?: "native" | "text";
}

/** What to send back: the messages or items to append, and what did not fit. */
export interface ToolAnswer<M = unknown> {
  /**
   * Chat Completions: one `tool` message per call; Responses: one
   * `function_call_output` item per call; Anthropic: one `user` message;
   * Gemini: one `user` content. In call order.
   */
  messages: M[];
  /** Content blocks sent as text because the provider has no form for them. */
  warnings: ContentWarning[];
}
