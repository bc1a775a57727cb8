// Private: the warning `serve` gives at start when Deno's own OpenTelemetry
// instrumentation (OTEL_DENO) is on and a server's or provider's URL takes a
// variable in its query: Deno's `fetch` spans record the whole URL
// (`url.full`, `url.query`) as it was sent, variables resolved, and they are
// exported before any redactor of ours sees them. Secrets belong in headers,
// which those spans do not record.

import type { Manifest } from "../../workspace/manifest.ts";

/** Whether Deno exports its own spans (readable only with the permission to read OTEL_DENO). */
export function denoTelemetryOn(): boolean {
  const asked = { name: "env", variable: "OTEL_DENO" } as const;
  if (Deno.permissions.querySync(asked).state !== "granted") return false;
  const value = Deno.env.get("OTEL_DENO")?.trim().toLowerCase();
  return value === "true" || value === "1";
}

/** `server NAME` / `provider ID` for every URL with a variable in its query. */
export function variablesInUrlQueries(manifest: Manifest): string[] {
  const found: string[] = [];
  const check = (what: string, url: string | undefined) => {
    const query = url === undefined ? -1 : url.indexOf("?");
    if (query >= 0 && /\$\{(env|input):/.test(url!.slice(query))) found.push(what);
  };
  for (const [name, server] of Object.entries(manifest.servers)) {
    check(`server ${name}`, server.url);
  }
  for (const [id, provider] of Object.entries(manifest.providers)) {
    check(`provider ${id}`, provider.url);
  }
  return found;
}

/** The warning, or `undefined` when there is nothing to warn about. */
export function telemetryUrlWarning(
  manifest: Manifest,
  on = denoTelemetryOn(),
): string | undefined {
  if (!on) return undefined;
  const found = variablesInUrlQueries(manifest);
  if (found.length === 0) return undefined;
  return `OTEL_DENO is set and ${found.join(", ")} put${
    found.length === 1 ? "s" : ""
  } a variable into a URL query: Deno's fetch spans export the whole URL (url.full, url.query) unredacted; pass secrets in headers instead (see docs/security.md)`;
}
