// Private: a server entry with its variables expanded (one pass), for the
// workspace and the commands that connect to one server.

import type { Manifest, ManifestServer } from "./manifest_types.ts";
import type { Redactor } from "./secrets.ts";
import { askOnTerminal, resolveVariables } from "./variables.ts";

/** A server entry with its variables (`${env:...}`, `${input:...}`) resolved. */
export function resolvedServer(
  manifest: Manifest,
  name: string,
  options: {
    env?: (name: string) => string | undefined;
    redactor: Redactor;
    given?: Map<string, string>;
  },
): ManifestServer {
  const server = manifest.servers[name];
  const { tools: _t, include: _i, exclude: _e, annotations: _a, ...endpoint } = server;
  return {
    ...server,
    ...resolveVariables(endpoint, {
      env: options.env ?? ((n) => Deno.env.get(n)),
      redactor: options.redactor,
      inputs: manifest.inputs,
      ask: askOnTerminal,
      given: options.given,
    }),
  };
}
