// Private: an HTML page served next to the MCP endpoint (e.g. the
// schema-loss report at /report). The page is self-contained, so its
// Content-Security-Policy allows nothing from anywhere: only its own inline
// style and script run, and it can neither load nor send anything.

import { jsonError } from "./_guard.ts";

/** The headers of a self-contained page. */
const PAGE_HEADERS: Readonly<Record<string, string>> = {
  "content-type": "text/html; charset=utf-8",
  "content-security-policy":
    "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; " +
    "img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "cache-control": "no-store",
};

/** The answer to a request for a page: GET and HEAD only. */
export async function pageResponse(
  request: Request,
  page: () => string | Promise<string>,
): Promise<Response> {
  if (request.method !== "GET" && request.method !== "HEAD") {
    return jsonError(405, `method ${request.method} not allowed here; use GET`, {
      allow: "GET, HEAD",
    });
  }
  const html = await page();
  return new Response(request.method === "HEAD" ? null : html, { headers: PAGE_HEADERS });
}
