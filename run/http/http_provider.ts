/**
 * The `http` provider: each call POSTs the arguments as JSON to a URL and
 * reads a JSON result. A status >= 400 is an `ExecutionError` carrying the
 * status and an excerpt of the body; cancellation and timeouts abort the
 * request (body included). The response body is capped (`maxOutputBytes`,
 * default 10 MiB): past it the body stream is cancelled and the call fails
 * with `output_too_large`, without reading the rest.
 *
 * Redirects are followed by the provider itself, at most 20 per call (more is
 * an error naming a loop): 307/308 repeat the POST with its body, 301/302/303
 * turn it into a GET without one (as `fetch` does), and a redirect to a URL
 * that is not http(s) is an error. The configured `headers` (an API key, say)
 * go only to the configured URL's origin (scheme, host and port): once a
 * redirect leads elsewhere they are dropped, and so are `Authorization`,
 * `Cookie` and `Proxy-Authorization`, for the rest of the chain. The
 * redirect's target is the server's own URL, so a secret in the configured
 * URL's query reaches no other origin unless that server puts it there. An
 * HTTP error after such a redirect says so (configure the final URL).
 *
 * @module
 */

import { ExecutionError, OutputTooLargeError } from "../errors.ts";
import { DEFAULT_MAX_OUTPUT_BYTES, type ProviderRequest, type ToolProvider } from "../provider.ts";
import type { ToolContext } from "../local.ts";
import { Drain, HeadBuffer } from "../output/drain.ts";
import { excerpt, jsonText } from "../output/text.ts";
import { fetchFollowing, RedirectError } from "./redirect.ts";

/** Options of {@linkcode httpProvider}. */
export interface HttpProviderOptions {
  /** The provider ID that provider backends name. */
  id: string;
  /** The endpoint; the text `{toolId}` in it is replaced by the URL-encoded provider tool ID. */
  url: string | URL;
  /**
   * Extra request headers. `X-Tool-Id` is always set to the provider tool ID.
   * They are sent only to the URL's origin: a redirect to another origin
   * drops them (and `Authorization`, `Cookie`, `Proxy-Authorization`).
   */
  headers?: Readonly<Record<string, string>>;
  /** The fetch function (default: the global `fetch`). */
  fetch?: typeof fetch;
  /** Largest response body accepted, in bytes (default 10 MiB); more is an `OutputTooLargeError`. */
  maxOutputBytes?: number;
  /**
   * Scrubs secrets from a text the provider puts into an error (stderr, an
   * excerpt of the output): applied to the whole text before it is cut, so a
   * cut never splits a secret.
   */
  redact?: (text: string) => string;
}

/** How much of an error response's body is read for its excerpt, in bytes. */
const ERROR_BODY_BYTES = 16 * 1024;

/**
 * Reads at most `max` bytes of a body; `undefined` when it is longer (the
 * stream is cancelled, the rest never read).
 */
async function readBody(response: Response, max: number): Promise<string | undefined> {
  const declared = Number(response.headers.get("content-length") ?? NaN);
  if (declared > max) {
    await response.body?.cancel().catch(() => {});
    return undefined;
  }
  if (response.body === null) return "";
  const buffer = new HeadBuffer(max);
  const end = await new Drain(response.body, (chunk) => buffer.push(chunk)).done;
  return end === "full" ? undefined : buffer.text();
}

const CERTIFICATE = /UnknownIssuer|certificate|self[- ]signed/i;

/** An error's message followed by its causes' ("fetch failed: ... UnknownIssuer"). */
function causes(error: unknown): string {
  const parts: string[] = [];
  for (let e = error, depth = 0; e !== undefined && e !== null && depth < 5; depth++) {
    const message = e instanceof Error ? e.message : String(e);
    if (!parts.some((part) => part.includes(message))) parts.push(message);
    e = e instanceof Error ? e.cause : undefined;
  }
  return parts.join(": ");
}

/**
 * A provider that POSTs JSON arguments to an HTTP endpoint and reads a JSON
 * result (an empty body is `null`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
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
 * assert.deepEqual((await runner.run("sum", { a: 1 })).structured, { got: { a: 1 } });
 * ```
 *
 * @param options The URL, headers, fetch function and output cap.
 * @returns The provider.
 */
export function httpProvider(options: HttpProviderOptions): ToolProvider {
  const doFetch = options.fetch ?? fetch;
  const template = String(options.url);
  const maxOutput = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
  /** Requests in flight, aborted by `close()`. */
  const live = new Set<AbortController>();
  return {
    id: options.id,
    async call(request: ProviderRequest, ctx: ToolContext): Promise<unknown> {
      const url = template.replaceAll("{toolId}", encodeURIComponent(request.toolId));
      const redact = options.redact ?? ((text: string) => text);
      let body: string;
      try {
        body = jsonText(request.args, "the arguments");
      } catch (error) {
        throw new ExecutionError((error as Error).message, { cause: error });
      }
      const closing = new AbortController();
      live.add(closing);
      try {
        let response: Response;
        let crossedTo: string | undefined;
        try {
          ({ response, crossedTo } = await fetchFollowing(doFetch, url, {
            method: "POST",
            headers: {
              "content-type": "application/json",
              accept: "application/json",
              ...options.headers,
              "x-tool-id": request.toolId,
            },
            body,
            signal: AbortSignal.any([ctx.signal, closing.signal]),
          }, {
            configured: { headers: options.headers ?? {}, origin: new URL(url).origin },
          }));
        } catch (error) {
          if (ctx.signal.aborted || closing.signal.aborted) throw error;
          if (error instanceof RedirectError) {
            throw new ExecutionError(`calling ${url}: ${error.message}`, {
              cause: error,
              details: { url, redirect: error.code },
            });
          }
          const message = causes(error);
          const trust = CERTIFICATE.test(message)
            ? " (the server's certificate is not trusted here: start this process with DENO_CERT naming the CA file, or DENO_TLS_CA_STORE=system)"
            : "";
          throw new ExecutionError(`cannot reach ${url}: ${message}${trust}`, { cause: error });
        }
        if (response.status >= 400) {
          const text = redact(
            await readBody(response, ERROR_BODY_BYTES) ?? "(a body too long to show)",
          );
          throw new ExecutionError(
            `HTTP ${response.status}${
              response.statusText ? ` ${response.statusText}` : ""
            } from ${url}${
              crossedTo === undefined
                ? ""
                : ` (redirected to ${crossedTo}, another origin: the configured headers and credentials were not sent there; configure the URL that answers)`
            }${text.trim() === "" ? "" : `: ${excerpt(text.trim(), 300)}`}`,
            {
              details: {
                status: response.status,
                url,
                bodyExcerpt: excerpt(text, 1000),
                ...(crossedTo === undefined ? {} : { redirectedTo: crossedTo }),
              },
            },
          );
        }
        const text = await readBody(response, maxOutput);
        if (text === undefined) {
          throw new OutputTooLargeError(maxOutput);
        }
        if (text.trim() === "") return null;
        try {
          return JSON.parse(text);
        } catch (cause) {
          const shown = redact(text);
          throw new ExecutionError(
            `response from ${url} is not JSON: ${JSON.stringify(excerpt(shown.trim(), 200))}`,
            { cause, details: { status: response.status, url, bodyExcerpt: excerpt(shown, 1000) } },
          );
        }
      } finally {
        live.delete(closing);
      }
    },
    close(): Promise<void> {
      for (const controller of live) {
        controller.abort(new ExecutionError("the request was aborted: the runner was closed"));
      }
      return Promise.resolve();
    },
  };
}
