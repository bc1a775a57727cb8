// Private: the JSON-RPC errors the gateway answers with, and how they name
// what exists.

import type { RequestStateRefused } from "./_request_state.ts";

/** An MCP error the transport answers with a JSON-RPC error. */
export class GatewayProtocolError extends Error {
  /** The JSON-RPC error code. */
  readonly code: number;
  /**
   * Creates the instance.
   *
   * @param code The JSON-RPC error code.
   * @param message The message.
   */
  constructor(code: number, message: string) {
    super(message);
    this.name = "GatewayProtocolError";
    this.code = code;
  }
}

/** JSON-RPC invalid params. */
export const INVALID_PARAMS = -32602;
/** JSON-RPC method not found. */
export const METHOD_NOT_FOUND = -32601;
/** MCP resource not found. */
export const RESOURCE_NOT_FOUND = -32002;
/**
 * The upstream needs a client capability the client did not declare
 * (2026-07-28): passed on as the JSON-RPC error it is, not as a tool error,
 * so the client learns which capability to declare.
 */
export const MISSING_CLIENT_CAPABILITY = -32021;
/** JSON-RPC internal error. */
export const INTERNAL_ERROR = -32603;

/**
 * The error a retry with a `requestState` serve did not seal for it gets:
 * invalid params, a fixed text for the client (the specification's), the
 * reason in the message after it.
 */
export function refusedState(error: RequestStateRefused): GatewayProtocolError {
  return Object.assign(
    new GatewayProtocolError(
      INVALID_PARAMS,
      `Invalid or expired requestState: ${error.message}; call again without inputResponses and requestState to start over`,
    ),
    { cause: error },
  );
}

/** The most names an error lists before it says how many there are. */
const MAX_NAMES_LISTED = 50;

/** Names sorted and joined, at most {@linkcode MAX_NAMES_LISTED} ("none" for none). */
export function namesOf(names: readonly string[]): string {
  if (names.length === 0) return "none";
  const sorted = [...names].sort();
  return sorted.length <= MAX_NAMES_LISTED
    ? sorted.join(", ")
    : `${sorted.slice(0, MAX_NAMES_LISTED).join(", ")}, ... (${sorted.length} in all)`;
}
