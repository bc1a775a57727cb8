// Private: the MCP SDK (v2, `@modelcontextprotocol/client`), loaded once on
// first use, and what we hand it so that it checks nothing we check
// ourselves: a result "schema" that accepts anything (results are checked in
// `_checks.ts`) and an output-schema validator that accepts everything
// (structuredContent is checked by the runner with our Hyperjump validator).

import type * as ClientModule from "@modelcontextprotocol/client";

/** The SDK's client module. */
export type Sdk = typeof ClientModule;

let loading: Promise<Sdk> | undefined;

/** Loads the SDK's client once, on first use. */
export function loadSdk(): Promise<Sdk> {
  loading ??= import("@modelcontextprotocol/client") as Promise<Sdk>;
  loading.catch(() => (loading = undefined));
  return loading;
}

/** A Standard Schema that accepts any result: we check results ourselves. */
export const ANY_RESULT = {
  "~standard": {
    version: 1 as const,
    vendor: "toolfoundation",
    validate: (value: unknown) => ({ value }),
  },
};

/** The SDK's output-schema check (ajv) is replaced by ours: this one accepts everything. */
export const PASS_THROUGH: ClientModule.jsonSchemaValidator = {
  getValidator: () => (input: unknown) => ({
    valid: true as const,
    data: input as never,
    errorMessage: undefined,
  }),
};

/** Largest delay `setTimeout` accepts: the SDK's own timer must never fire first. */
export const NO_TIMEOUT = 2_147_483_647;

/** The SDK's error code for a request that ran out of time (also used when aborted). */
export const REQUEST_TIMEOUT = "REQUEST_TIMEOUT";

/** The SDK's error code for a request whose connection closed. */
export const CONNECTION_CLOSED = "CONNECTION_CLOSED";

/** The SDK's error code for a failed era negotiation. */
export const ERA_NEGOTIATION_FAILED = "ERA_NEGOTIATION_FAILED";
