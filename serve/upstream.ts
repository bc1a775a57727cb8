/**
 * The seam through which `serve` forwards requests to an upstream MCP server:
 * tool calls with their progress, logging and server-to-client requests,
 * resources, resource templates, prompts and completions.
 *
 * {@linkcode mcpUpstream} implements it with the runner's MCP connections;
 * anything else (a test double, a pooled client of another layer) can too.
 *
 * @module
 */

/** The methods `serve` forwards to an upstream. */
export type UpstreamMethod =
  | "tools/list"
  | "tools/call"
  | "resources/list"
  | "resources/templates/list"
  | "resources/read"
  | "resources/subscribe"
  | "resources/unsubscribe"
  | "prompts/list"
  | "prompts/get"
  | "completion/complete";

/** What the upstream offers (the `capabilities` of its initialize result). */
export interface UpstreamCapabilities {
  /** Tools (and `listChanged`). */
  tools?: { listChanged?: boolean; [key: string]: unknown };
  /** Resources (and `subscribe`). */
  resources?: { subscribe?: boolean; listChanged?: boolean; [key: string]: unknown };
  /** Prompts (and `listChanged`). */
  prompts?: { listChanged?: boolean; [key: string]: unknown };
  /** Completions. */
  completions?: Record<string, unknown>;
  /** Logging. */
  logging?: Record<string, unknown>;
}

/** A notification from the upstream that belongs to a forwarded request. */
export interface UpstreamNotification {
  /** E.g. `notifications/message`. */
  method: string;
  /** Its parameters, as sent. */
  params?: Record<string, unknown>;
}

/** A server-to-client request of the upstream (sampling, elicitation, roots). */
export interface UpstreamRequest {
  /** E.g. `sampling/createMessage` or `elicitation/create`. */
  method: string;
  /** Its parameters, as sent. */
  params?: Record<string, unknown>;
  /** Aborts when the upstream cancels its request. */
  signal?: AbortSignal;
}

/** The downstream side of one forwarded request. */
export interface UpstreamCallContext {
  /**
   * Who calls downstream (the principal: token subject, static token name
   * or address): an upstream shares its connections fairly between callers.
   * Absent: one anonymous caller.
   */
  caller?: string;
  /** Cancels the request upstream (`notifications/cancelled`). */
  signal?: AbortSignal;
  /** Deadline in ms. */
  timeoutMs?: number;
  /** Receives `notifications/progress` params of this request. */
  onProgress?: (progress: { progress: number; total?: number; message?: string }) => void;
  /** Receives the upstream's notifications (logging) while the request runs. */
  onNotification?: (notification: UpstreamNotification) => void | Promise<void>;
  /**
   * Answers the upstream's requests to the client while this request runs;
   * without it, such requests fail with "method not found".
   */
  onRequest?: (request: UpstreamRequest) => Promise<Record<string, unknown>>;
  /**
   * The capabilities the downstream client declared (its `initialize`, or the
   * request's own envelope in the stateless era); the upstream is offered
   * the same sampling, elicitation and roots and nothing else (`{}`: none).
   * Absent: all three are offered, for `onRequest` to answer.
   */
  clientCapabilities?: Readonly<Record<string, unknown>>;
  /**
   * The protocol era the downstream client speaks (`"modern"`: 2026-07-28).
   * An upstream that speaks both eras is spoken to in the same one, so that
   * what one era has and the other lacks (server-to-client requests during
   * a call, subscriptions) works as the client expects. Absent: the era the
   * upstream was found to speak.
   */
  clientEra?: "legacy" | "modern";
  /**
   * Returns a result of type input_required (2026-07-28: `tools/call`,
   * `prompts/get` and `resources/read` of an upstream asking the client for
   * input) as received, for the caller to pass to its client and to answer
   * by sending the request again with `inputResponses` and the
   * `requestState` in its params. Default false: the upstream's input
   * requests are answered through `onRequest`, and the request is sent again
   * until its result is complete.
   */
  returnInputRequired?: boolean;
  /**
   * The input schema of the `tools/call`'s tool as the caller holds it. Over
   * Streamable HTTP in the 2026-07-28 era, its `x-mcp-header` declarations
   * build the call's `Mcp-Param-*` headers until the upstream's own listing
   * is known; a refusal for headers that do not match (-32020) makes the
   * upstream list its tools and retry once with their declarations.
   */
  toolInputSchema?: unknown;
}

/**
 * One upstream MCP server as `serve` sees it.
 *
 * @example A test double
 * ```ts
 * import assert from "node:assert/strict";
 * import type { Upstream } from "@toolfoundation/core/serve";
 *
 * const upstream: Upstream = {
 *   name: "docs",
 *   capabilities: () => Promise.resolve({ prompts: {} }),
 *   request: (method) =>
 *     Promise.resolve(method === "prompts/list" ? { prompts: [{ name: "hello" }] } : {}),
 *   close: () => Promise.resolve(),
 * };
 * const listed = await upstream.request("prompts/list", {}, {});
 * assert.deepEqual(listed, { prompts: [{ name: "hello" }] });
 * ```
 */
export interface Upstream {
  /** The server's name in the manifest. */
  readonly name: string;
  /** What the server offers (connecting when needed). */
  capabilities(signal?: AbortSignal): Promise<UpstreamCapabilities>;
  /**
   * Sends one request and returns its result as received (the wire JSON).
   * A JSON-RPC error of the upstream is thrown as an Error with `code` (number)
   * and `data` when present.
   */
  request(
    method: UpstreamMethod,
    params: Record<string, unknown>,
    context: UpstreamCallContext,
  ): Promise<Record<string, unknown>>;
  /**
   * Watches the server's lists until `signal` aborts: `onChange` gets the
   * kind of each list the server says changed (its `list_changed`
   * notifications, over a `subscriptions/listen` stream in the 2026-07-28
   * era). Optional: an upstream without it is not watched. Settles when
   * `signal` aborts; a lost connection is reopened meanwhile.
   */
  watchLists?(
    onChange: (kind: "tools" | "prompts" | "resources") => void,
    signal: AbortSignal,
  ): Promise<void>;
  /**
   * Closes every connection (a stdio server's whole process group is gone
   * when it settles) and fails the requests waiting for one; the next request
   * reopens.
   */
  close(): Promise<void>;
}
