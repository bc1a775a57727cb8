// The double upstream of the tests that compare serve's direct paths with the
// SDK's (direct_call_test.ts for 2025-era calls, direct_call_modern_test.ts
// for 2026-07-28 ones): it answers each tool by name, from a table of results
// or a case of the test's own, and records each call with its signal. What
// both eras test alike lives here: an upstream JSON-RPC error, a crash, a
// call that hangs until cancelled, and a tool that checks its arguments.

import type { ToolObjectSchema } from "../../model/mod.ts";
import type { Upstream, UpstreamCallContext } from "../../serve/mod.ts";
import { type HandlerPair, handlerPair, type HandlerPairOptions } from "./_direct_pair.ts";

/** What the double does for one tool: its result, or a throw. */
export type DoubleCase = (context: UpstreamCallContext) => Promise<Record<string, unknown>>;

/** A call the double received. */
export interface DoubleCall {
  /** The tool's name. */
  name: string;
  /** The call's signal (aborted when the call was cancelled or timed out). */
  signal?: AbortSignal;
}

/** The double upstream (named `up`) and the calls it received. */
export interface DoubleUpstream extends Upstream {
  /** Every `tools/call`, in order. */
  calls: DoubleCall[];
}

/** The cases of both eras' tests. */
const SHARED_CASES: Record<string, DoubleCase> = {
  rpc_error: () =>
    Promise.reject(
      Object.assign(new Error("upstream refused"), { code: -32000, data: { why: 1 } }),
    ),
  crash: () =>
    Promise.reject(new Error('upstream server "up" failed: the process exited (code 1)')),
  hang: async (context) => {
    await new Promise((_, reject) => {
      context.signal?.addEventListener("abort", () => reject(context.signal!.reason), {
        once: true,
      });
    });
    return {};
  },
};

/** The input schema of `checked`: an integer `n`, required. */
const CHECKED: ToolObjectSchema = {
  type: "object",
  properties: { n: { type: "integer" } },
  required: ["n"],
};

/**
 * An upstream that answers a `tools/call` of a name in `cases` (or in the
 * shared ones: `rpc_error`, `crash`, `hang`) by running it, and any other
 * name with a copy of its entry in `results`; other methods with `{}`.
 */
export function doubleUpstream(
  results: Readonly<Record<string, Record<string, unknown>>>,
  cases: Readonly<Record<string, DoubleCase>> = {},
): DoubleUpstream {
  const calls: DoubleCall[] = [];
  return {
    name: "up",
    calls,
    capabilities: () => Promise.resolve({ tools: {} }),
    close: () => Promise.resolve(),
    request(method, params, context: UpstreamCallContext) {
      if (method !== "tools/call") return Promise.resolve({});
      const name = String(params.name);
      calls.push({ name, signal: context.signal });
      const run = cases[name] ?? SHARED_CASES[name];
      return run === undefined ? Promise.resolve(structuredClone(results[name])) : run(context);
    },
  };
}

/**
 * The double's tools with their input schemas: every name of `results`,
 * `cases` and the shared cases, `checked`, and `extra` (an object schema for
 * all but `checked` and those of `extra`).
 */
export function doubleSchemas(
  results: Readonly<Record<string, unknown>>,
  cases: Readonly<Record<string, unknown>> = {},
  extra: Readonly<Record<string, ToolObjectSchema>> = {},
): Record<string, ToolObjectSchema> {
  const names = [
    ...Object.keys(results),
    ...Object.keys(cases),
    ...Object.keys(SHARED_CASES),
    "checked",
    ...Object.keys(extra),
  ];
  return Object.fromEntries(
    names.map((name): [string, ToolObjectSchema] => [
      name,
      extra[name] ?? (name === "checked" ? CHECKED : { type: "object" }),
    ]),
  );
}

/** A gateway's two handlers (see {@linkcode handlerPair}) in front of a double upstream. */
export async function doublePair(
  results: Readonly<Record<string, Record<string, unknown>>>,
  cases: Readonly<Record<string, DoubleCase>>,
  options: HandlerPairOptions = {},
  extra: Readonly<Record<string, ToolObjectSchema>> = {},
): Promise<HandlerPair & { upstream: DoubleUpstream }> {
  const upstream = doubleUpstream(results, cases);
  return {
    upstream,
    ...await handlerPair(upstream, doubleSchemas(results, cases, extra), options),
  };
}
