// Private: the options of the gateway and the downstream side of one call,
// declared here (below the gateway's own files, which all read them) and
// exported from gateway.ts.

import type { SchemaValidator } from "../model/mod.ts";
import type { AccessLogEntry } from "./access_log.ts";
import type { ServeChain } from "./catalog.ts";
import type { Upstream, UpstreamNotification, UpstreamRequest } from "./upstream.ts";

/** Options of {@linkcode Gateway.create}. */
export interface GatewayOptions {
  /** Chains served as tools, by name. */
  chains?: Readonly<Record<string, ServeChain>>;
  /** A tool-name prefix per MCP server. */
  prefixes?: Readonly<Record<string, string>>;
  /** Upstream servers: their tool calls, resources, prompts and completions are forwarded. */
  upstreams?: readonly Upstream[];
  /** Validates forwarded calls (default: a `DefaultValidator`). */
  validator?: SchemaValidator;
  /** Default deadline of a call in ms (default 60 000). */
  timeoutMs?: number;
  /** Deadlines by tool ID (the manifest's `timeoutMs`). */
  toolTimeouts?: Readonly<Record<string, number>>;
  /** Largest result of a forwarded call, in bytes of JSON (default 10 MiB). */
  maxOutputBytes?: number;
  /** Largest result by tool ID (the manifest's `maxOutputBytes` of the tool or its server). */
  toolMaxOutputBytes?: Readonly<Record<string, number>>;
  /** Receives one entry per call (the access log). */
  onAccess?: (entry: AccessLogEntry) => void;
  /** Puts the arguments into access-log entries (default false). */
  logArgs?: boolean;
  /**
   * Scrubs secrets from a text (e.g. the CLI's redactor, which knows every
   * resolved variable and OAuth token). Applied where data leaves: to the
   * strings of every result, error and notification the transports send
   * ({@linkcode Gateway.scrub}), to access-log entries and to telemetry.
   * Default: nothing is scrubbed.
   */
  redact?: (text: string) => string;
  /**
   * The key that seals the `requestState` of input-required results
   * (2026-07-28) that serve passes from an upstream to the client: at least
   * 32 bytes (a string is UTF-8). Default: a random key of this process, so
   * a client's retry must reach the same process; instances behind one
   * address need the same key.
   */
  requestStateKey?: Uint8Array | string;
  /** How long a sealed `requestState` is accepted, in ms (default 600 000: ten minutes). */
  requestStateTtlMs?: number;
  /**
   * Input-required results one call may get from an upstream, counted in
   * the sealed state across the client's retries (default 10): an upstream
   * that asks for more gets the client an error result instead.
   */
  maxInputRounds?: number;
  /**
   * Tool calls of 2026-07-28 clients held open in this process while their
   * 2025-era upstream waits for the client's answer to a server-to-client
   * request (default 256); beyond it such a call ends with an error result.
   */
  maxParkedCalls?: number;
}

/** The downstream side of one call. */
export interface CallContext {
  /** Who calls (for the access log, and upstreams' fair share of connections between callers). */
  caller: string;
  /**
   * A retry of an input-required result (2026-07-28): the client's answers,
   * by input-request key, passed to the upstream.
   */
  inputResponses?: Readonly<Record<string, unknown>>;
  /** A retry's `requestState`, as serve sealed it (opened here, the upstream's own sent on). */
  requestState?: string;
  /** Cancels the call. */
  signal?: AbortSignal;
  /** Sends progress to the client (only when it asked for progress). */
  onProgress?: (progress: { progress: number; total?: number; message?: string }) => void;
  /** Passes an upstream notification (logging) to the client. */
  onNotification?: (notification: UpstreamNotification) => void | Promise<void>;
  /** Passes an upstream's server-to-client request (sampling, elicitation) to the client. */
  onRequest?: (request: UpstreamRequest) => Promise<Record<string, unknown>>;
  /**
   * The capabilities the client declared (`{}` when unknown): upstreams are
   * offered the same sampling, elicitation and roots. Absent: all three, for
   * `onRequest` to answer.
   */
  clientCapabilities?: Readonly<Record<string, unknown>>;
  /**
   * The protocol era the downstream client speaks (`"modern"`: 2026-07-28).
   * An upstream that speaks both eras is spoken to in the same one, so that
   * what one era has and the other lacks (server-to-client requests during
   * a call, subscriptions) works as the client expects. Absent: the era the
   * upstream was found to speak. A `"modern"` client takes input-required
   * results and no server-to-client requests: a 2025-era upstream's
   * requests during a tool call then reach it as an input-required result,
   * the call parked in this process until the client's retry answers them
   * (within the tool's deadline); otherwise they go to `onRequest`.
   */
  clientEra?: "legacy" | "modern";
}
