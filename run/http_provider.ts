/**
 * The `http` provider: each call POSTs the arguments as JSON to a URL and
 * reads a JSON result. A status >= 400 is an `ExecutionError` carrying the
 * status and an excerpt of the body; cancellation and timeouts abort the request.
 *
 * @module
 */

import { ExecutionError } from "./execution_errors.ts";
import type { ProviderRequest, ToolProvider } from "./provider.ts";
import type { ToolContext } from "./local.ts";
import { excerpt } from "./_text.ts";

/** Options of {@linkcode httpProvider}. */
export interface HttpProviderOptions {
  /** The provider ID that provider backends name. */
  id: string;
  /** The endpoint; the text `{toolId}` in it is replaced by the URL-encoded provider tool ID. */
  url: string | URL;
  /** Extra request headers. `X-Tool-Id` is always set to the provider tool ID. */
  headers?: Readonly<Record<string, string>>;
  /** The fetch function (default: the global `fetch`). */
  fetch?: typeof fetch;
}

/**
 * A provider that POSTs JSON arguments to an HTTP endpoint and reads a JSON
 * result (an empty body is `null`).
 *
 * @example
 * ```ts
 * import { providerBackend } from "@toolfoundation/core/model";
 * import { httpProvider, Runner } from "@toolfoundation/core/run";
 *
 * // A fake fetch stands in for the network here.
 * const fakeFetch = (_url: string | URL | Request, init?: RequestInit) =>
 *   Promise.resolve(new Response(JSON.stringify({ got: JSON.parse(String(init?.body)) })));
 * const runner = new Runner({
 *   providers: [httpProvider({ id: "api", url: "http://127.0.0.1:8080/tools/{toolId}", fetch: fakeFetch })],
 * });
 * runner.registry.add({ name: "sum", inputSchema: { type: "object" } }, providerBackend("api", "sum"));
 * console.log((await runner.run("sum", { a: 1 })).structured); // { got: { a: 1 } }
 * ```
 *
 * @param options The URL, headers and fetch function.
 * @returns The provider.
 */
export function httpProvider(options: HttpProviderOptions): ToolProvider {
  const doFetch = options.fetch ?? fetch;
  const template = String(options.url);
  return {
    id: options.id,
    async call(request: ProviderRequest, ctx: ToolContext): Promise<unknown> {
      const url = template.replaceAll("{toolId}", encodeURIComponent(request.toolId));
      const response = await doFetch(url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json",
          ...options.headers,
          "x-tool-id": request.toolId,
        },
        body: JSON.stringify(request.args),
        signal: ctx.signal,
      });
      const text = await response.text();
      const facts = { status: response.status, url, bodyExcerpt: excerpt(text, 1000) };
      if (response.status >= 400) {
        throw new ExecutionError(
          `HTTP ${response.status}${
            response.statusText ? ` ${response.statusText}` : ""
          } from ${url}${text.trim() === "" ? "" : `: ${excerpt(text.trim(), 300)}`}`,
          { details: facts },
        );
      }
      if (text.trim() === "") return null;
      try {
        return JSON.parse(text);
      } catch (cause) {
        throw new ExecutionError(
          `response from ${url} is not JSON: ${JSON.stringify(excerpt(text.trim(), 200))}`,
          { cause, details: facts },
        );
      }
    },
  };
}
