// Private: opening one pooled connection of `mcpUpstream` with run/'s
// `openConnection`, within the connect deadline, as a client that offers
// what the downstream client offers of sampling, elicitation and roots (a
// connection is opened per set of them) and hands them, with logging, to the
// downstream request the connection serves at that moment. A log line names
// no request: on a connection shared by several, it goes to the oldest one
// when they are all one principal's, and to none (counted) when not.

import type { McpServerConfig } from "../run/mod.ts";
import {
  type ClientSide,
  type Connection,
  type EraVerdict,
  openConnection,
  type Opening,
  stderrHint,
} from "../run/mcp/connection.ts";
import { ServeError } from "./errors.ts";
import type { UpstreamCallContext } from "./upstream.ts";

/** One pooled connection and the downstream requests it serves. */
export interface Slot {
  connection: Connection | undefined;
  busy: boolean;
  /** Lost, or a request on it was given up on: takes no more requests, closed once free. */
  dead: boolean;
  /**
   * The downstream request that server-to-client requests go to: the one
   * request in flight on the connection; none while several share it (see
   * {@linkcode logRecipient} for log lines).
   */
  context: UpstreamCallContext | undefined;
  /** The client capabilities it declared upstream, as canonical JSON (see {@linkcode capabilityKey}). */
  key: string;
  /** The requests in flight on it (more than one on a shared stdio connection). */
  contexts?: Set<UpstreamCallContext>;
  /** Requests holding it (in flight or waiting for it to open); the pool's count. */
  users?: number;
  /** Settles once the connection is open and checked (requests that join an opening wait for it). */
  ready?: Promise<void>;
  /** What the direct path did on the pool's connections (shared by its slots). */
  direct?: DirectTally;
}

/** What the direct path of an HTTP upstream did, counted per pool (diagnostics; tests read it). */
export interface DirectTally {
  /** Tool calls it posted. */
  posted: number;
  /**
   * Tool calls it began and handed to the SDK's client instead, refused
   * before the server ran them (a refused or missing token, a redirect, a
   * session the server forgot): each was sent a second time.
   */
  handedBack: number;
}

/** Puts a downstream request on the slot (see {@linkcode Slot.context}). */
export function enterSlot(slot: Slot, context: UpstreamCallContext): void {
  const contexts = slot.contexts ??= new Set();
  contexts.add(context);
  slot.context = contexts.size === 1 ? context : undefined;
}

/** Takes a downstream request off the slot. */
export function leaveSlot(slot: Slot, context: UpstreamCallContext): void {
  const contexts = slot.contexts;
  contexts?.delete(context);
  slot.context = contexts?.size === 1 ? contexts.values().next().value : undefined;
}

/** What the pool gives an opening. */
export interface OpenSlotOptions {
  /** The connect deadline, in ms. */
  timeoutMs: number;
  /** Gives up on connecting. */
  signal: AbortSignal | undefined;
  /** The era found before (no probe then). */
  prior: EraVerdict | undefined;
  onVerdict(verdict: EraVerdict): void;
  /** Connections not yet gone (a connection is in it from creation until its process is gone). */
  live: Set<Connection>;
  /** Openings in progress (close() aborts them). */
  openings: Set<Opening>;
  /** The client capabilities to declare (from {@linkcode mirroredCapabilities}). */
  capabilities: Record<string, unknown>;
  /** Receives the server's `list_changed` notifications (unsolicited, or on a listen stream). */
  onListChanged?: (kind: "tools" | "prompts" | "resources") => void;
  /** Told when the connection is lost. */
  onLost?: () => void;
  /**
   * Told when a log line of the server was dropped: requests of more than
   * one principal were in flight on the connection.
   */
  onLogDropped?: () => void;
}

const CLIENT_INFO = { name: "toolfoundation-serve", version: "0.1.0" };
/** The server-to-client requests passed downstream, by the client capability each needs. */
const SERVER_REQUESTS = {
  sampling: "sampling/createMessage",
  elicitation: "elicitation/create",
  roots: "roots/list",
} as const;

/** The lists whose changes a server may announce. */
const LISTS = ["tools", "prompts", "resources"] as const;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** What is declared for a caller that did not say what its client offers. */
const EVERY_CAPABILITY = { sampling: {}, elicitation: { form: {}, url: {} }, roots: {} };

/**
 * The client capabilities declared upstream for a downstream client's: its
 * sampling and elicitation as it declared them, and roots (without
 * `listChanged`: that notification is not passed on), nothing it did not
 * declare, so that an upstream never asks a client for what it cannot
 * answer. `undefined` (a library caller that does not say) declares all
 * three; the caller's `onRequest` answers them.
 */
export function mirroredCapabilities(
  downstream: Readonly<Record<string, unknown>> | undefined,
): Record<string, unknown> {
  if (downstream === undefined) return structuredClone(EVERY_CAPABILITY);
  const out: Record<string, unknown> = {};
  if (isObject(downstream.sampling)) out.sampling = structuredClone(downstream.sampling);
  if (isObject(downstream.elicitation)) out.elicitation = structuredClone(downstream.elicitation);
  if (isObject(downstream.roots)) out.roots = {};
  return out;
}

/** Canonical JSON of declared capabilities (keys sorted): connections are pooled by it. */
export function capabilityKey(capabilities: Readonly<Record<string, unknown>>): string {
  const sorted = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(sorted)
      : isObject(value)
      ? Object.fromEntries(Object.keys(value).sort().map((k) => [k, sorted(value[k])]))
      : value;
  return JSON.stringify(sorted(capabilities));
}

/** Opens a connection for `slot`; a lost connection marks the slot dead. */
export async function openSlot(
  name: string,
  config: McpServerConfig,
  slot: Slot,
  options: OpenSlotOptions,
): Promise<Connection> {
  const { signal, timeoutMs, live, openings } = options;
  const opening: Opening = {
    promise: Promise.resolve(undefined as never),
    waiters: 1,
    settled: false,
    abort: new AbortController(),
    stdio: undefined,
  };
  const timer = setTimeout(() => {
    const hint = stderrHint(opening.stdio);
    opening.abort.abort(
      new ServeError(
        "upstream_unavailable",
        `upstream server ${JSON.stringify(name)} did not connect within ${timeoutMs} ms${
          hint === undefined ? "" : `; ${hint}`
        }`,
      ),
    );
  }, timeoutMs);
  const onAbort = (): void => opening.abort.abort(signal!.reason);
  if (signal?.aborted) onAbort();
  else signal?.addEventListener("abort", onAbort, { once: true });
  openings.add(opening);
  opening.promise = openConnection(name, config, opening, {
    onElicitation: undefined,
    clientSide: clientSide(
      slot,
      options.capabilities,
      options.onListChanged,
      options.onLogDropped,
    ),
    prior: options.prior,
    onVerdict: options.onVerdict,
    onLive: (connection) => live.add(connection),
    onLost: (connection) => {
      if (slot.connection === connection) slot.dead = true;
      options.onLost?.();
    },
    onGone: (connection) => live.delete(connection),
  });
  try {
    const connection = await opening.promise;
    if (connection.closed || connection.lostError !== undefined) slot.dead = true;
    return connection;
  } finally {
    opening.settled = true;
    openings.delete(opening);
    clearTimeout(timer);
    signal?.removeEventListener("abort", onAbort);
  }
}

/** Server-to-client requests and logging go to the downstream request the slot serves. */
function clientSide(
  slot: Slot,
  capabilities: Record<string, unknown>,
  onListChanged: OpenSlotOptions["onListChanged"],
  onLogDropped: OpenSlotOptions["onLogDropped"],
): ClientSide {
  const requests: ClientSide["requests"] = {};
  for (const [capability, method] of Object.entries(SERVER_REQUESTS)) {
    // The SDK refuses a handler for a capability not declared.
    if (capabilities[capability] === undefined) continue;
    requests[method] = async (params, signal) => {
      const onRequest = slot.context?.onRequest;
      if (onRequest === undefined) {
        throw Object.assign(new Error(`the client does not support ${method}`), {
          code: -32601,
        });
      }
      return await onRequest({ method, params, signal });
    };
  }
  return {
    info: CLIENT_INFO,
    capabilities,
    requests,
    notifications: {
      "notifications/message": (params) => {
        const to = logRecipient(slot);
        if (to === null) return onLogDropped?.();
        const sent = to?.onNotification?.({ method: "notifications/message", params });
        // The downstream may be gone; the log line belonged to it only.
        void Promise.resolve(sent).catch(() => undefined);
      },
      ...(onListChanged === undefined ? {} : Object.fromEntries(
        LISTS.map((kind) => [`notifications/${kind}/list_changed`, () => onListChanged(kind)]),
      )),
    },
  };
}

/**
 * The request a log line of the server goes to (`notifications/message`
 * names no request): the one in flight on the connection; of several, the
 * oldest when all are one principal's (the same `caller`: nothing passes
 * from one principal to another, and the client gets the line once, not once
 * per call); `null` when they are of several principals (the line is
 * dropped); undefined when none is in flight.
 */
export function logRecipient(slot: Slot): UpstreamCallContext | undefined | null {
  if (slot.context !== undefined) return slot.context;
  const contexts = slot.contexts;
  if (contexts === undefined || contexts.size === 0) return undefined;
  let oldest: UpstreamCallContext | undefined;
  for (const context of contexts) {
    if (oldest === undefined) oldest = context;
    else if ((context.caller ?? "") !== (oldest.caller ?? "")) return null;
  }
  return oldest;
}

/** The 2026-07-28 envelope key naming the software that answered (the upstream, not `serve`). */
const SERVER_INFO = "io.modelcontextprotocol/serverInfo";

/** A result without the upstream's self-identification (the hop's envelope, not content). */
export function withoutServerInfo(result: Record<string, unknown>): Record<string, unknown> {
  const meta = result._meta as Record<string, unknown> | undefined;
  if (meta === null || typeof meta !== "object" || !(SERVER_INFO in meta)) return result;
  const { [SERVER_INFO]: _, ...rest } = meta;
  const { _meta: __, ...body } = result;
  return Object.keys(rest).length === 0 ? body : { ...body, _meta: rest };
}
