/**
 * Following HTTP redirects ourselves (`redirect: "manual"`), so that
 * credentials never follow a redirect to another origin. `fetch` follows
 * redirects on its own and drops only `Authorization` when the origin
 * changes: a configured `X-Api-Key` would reach whatever server the first
 * one names. The rule, shared by the HTTP provider and the HTTP MCP
 * transports:
 *
 * - at most MAX_REDIRECTS redirects per request (as fetch), then an error;
 * - 307/308 keep the method and body; 301/302 turn a POST into a GET and
 *   303 turns anything but HEAD into a GET, without the body (as fetch);
 * - a redirect to a URL that is not http(s), or a Location that is no URL,
 *   is an error;
 * - once a redirect leaves the origin (scheme, host or port) of the request,
 *   the headers the configuration set are dropped, and so are
 *   Authorization, Cookie and Proxy-Authorization; they stay dropped for the
 *   rest of the chain. The target URL is the server's own (its Location):
 *   nothing of ours is added to it, so a secret in the configured URL's query
 *   goes nowhere else unless that server itself puts it there;
 * - a redirect to another origin that would carry a credential body (an
 *   OAuth token request's form) is refused.
 *
 * @module
 */

/** Largest number of redirects followed for one request (fetch's own limit). */
export const MAX_REDIRECTS = 20;

/** Statuses that redirect. */
const REDIRECTS: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

/** Headers never sent to another origin than the request's. */
const CREDENTIALS = ["authorization", "cookie", "proxy-authorization"] as const;

/** Headers that describe a body, dropped with it (fetch's request-body-header names). */
const BODY_HEADERS = [
  "content-type",
  "content-length",
  "content-encoding",
  "content-language",
  "content-location",
] as const;

/** What went wrong following a redirect. */
export type RedirectErrorCode =
  | "too_many_redirects"
  | "redirect_scheme"
  | "redirect_location"
  | "redirect_body";

/** A redirect that is not followed; `url` is the request that answered with it. */
export class RedirectError extends Error {
  /** Stable code. */
  readonly code: RedirectErrorCode;
  /** The URL that answered with the redirect. */
  readonly url: string;
  constructor(code: RedirectErrorCode, message: string, url: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "RedirectError";
    this.code = code;
    this.url = url;
  }
}

/** The headers a configuration set, and the origin they are meant for. */
export interface ConfiguredHeaders {
  /** The configured headers (name to value). */
  headers: Readonly<Record<string, string>>;
  /** The origin of the configured URL: the only one they go to. */
  origin: string;
}

/** What {@linkcode fetchFollowing} did. */
export interface Followed {
  /** The final response (not a redirect). */
  response: Response;
  /** The URL that gave it. */
  url: URL;
  /** The first other origin a redirect led to, when one did (the credentials were dropped there). */
  crossedTo: string | undefined;
}

/** Options of {@linkcode fetchFollowing}. */
export interface FollowOptions {
  /** The configured headers: dropped on a request to another origin. */
  configured?: ConfiguredHeaders;
  /** Whether a body is a credential that no other origin may get (an OAuth form). */
  secretBody?: (headers: Headers) => boolean;
  /** The redirect cap (default {@linkcode MAX_REDIRECTS}). */
  maxRedirects?: number;
}

/** Removes the configured headers whose value is the configured one. */
function dropConfigured(headers: Headers, configured: ConfiguredHeaders | undefined): void {
  if (configured === undefined) return;
  for (const [name, value] of Object.entries(configured.headers)) {
    if (headers.get(name) === value) headers.delete(name);
  }
}

/** The URL without user info, query or fragment, for messages (they may carry secrets). */
export function shownUrl(url: URL): string {
  const copy = new URL(url);
  copy.username =
    copy.password =
    copy.search =
    copy.hash =
      "";
  return copy.href;
}

/**
 * Fetches `url`, following redirects by the rule above. The headers the
 * configuration set are sent only to its origin: a request to another origin
 * (an OAuth server's) goes without them, redirect or not.
 */
export async function fetchFollowing(
  doFetch: (url: string | URL, init?: RequestInit) => Promise<Response>,
  url: string | URL,
  init: RequestInit = {},
  options: FollowOptions = {},
): Promise<Followed> {
  const max = options.maxRedirects ?? MAX_REDIRECTS;
  let current = new URL(url);
  const headers = new Headers(init.headers);
  if (options.configured !== undefined && current.origin !== options.configured.origin) {
    dropConfigured(headers, options.configured);
  }
  let method = (init.method ?? "GET").toUpperCase();
  let body = init.body;
  let crossedTo: string | undefined;
  for (let followed = 0;; followed++) {
    const response = await doFetch(current, { ...init, method, headers, body, redirect: "manual" });
    const location = REDIRECTS.has(response.status) ? response.headers.get("location") : null;
    if (location === null) return { response, url: current, crossedTo };
    await response.body?.cancel().catch(() => {});
    const from = shownUrl(current);
    if (followed >= max) {
      throw new RedirectError(
        "too_many_redirects",
        `more than ${max} redirects (the last from ${from}): a redirect loop? ` +
          `Configure the URL the server finally answers at`,
        from,
      );
    }
    let target: URL;
    try {
      target = new URL(location, current);
    } catch (cause) {
      throw new RedirectError(
        "redirect_location",
        `HTTP ${response.status} from ${from} names no URL in its Location ${
          JSON.stringify(location.slice(0, 200))
        }`,
        from,
        { cause },
      );
    }
    if (target.protocol !== "http:" && target.protocol !== "https:") {
      throw new RedirectError(
        "redirect_scheme",
        `HTTP ${response.status} from ${from} redirects to a ${target.protocol} URL; ` +
          `only http and https redirects are followed`,
        from,
      );
    }
    const toGet = (response.status === 303 && method !== "HEAD") ||
      ((response.status === 301 || response.status === 302) && method === "POST");
    if (toGet) {
      method = "GET";
      body = undefined;
      for (const name of BODY_HEADERS) headers.delete(name);
    } else if (body instanceof ReadableStream) {
      throw new RedirectError(
        "redirect_body",
        `HTTP ${response.status} from ${from} asks to send the body again, ` +
          `but it was a stream that cannot be sent twice`,
        from,
      );
    }
    if (target.origin !== current.origin) {
      if (body !== undefined && body !== null && options.secretBody?.(headers) === true) {
        throw new RedirectError(
          "redirect_body",
          `HTTP ${response.status} from ${from} redirects to another origin (${target.origin}); ` +
            `the request's body holds credentials, so it is not sent there: ` +
            `configure the server at its own URL`,
          from,
        );
      }
      for (const name of CREDENTIALS) headers.delete(name);
      if (options.configured !== undefined) {
        for (const name of Object.keys(options.configured.headers)) headers.delete(name);
      }
      crossedTo ??= target.origin;
    }
    current = target;
  }
}
