// Private: what a server's `auth:` block needs from the Deno sandbox.

import { dirname, type ManifestAuth } from "./manifest.ts";
import type { PermissionNeed } from "./permissions.ts";
import { hostOf } from "./_resolve_path.ts";
import { defaultTokenStorePath, TOKEN_STORE_ENV } from "../run/auth/file_token_store.ts";

/**
 * What a server's `auth:` block needs: the hosts token requests go to
 * (`auth.hosts`, the issuer's and the IdP's), the variables its secrets are
 * in, and reading and writing the token store's directory (located from
 * TOOLFOUNDATION_TOKEN_STORE, XDG_CONFIG_HOME or HOME).
 */
export function authNeeds(auth: ManifestAuth, reason: string): PermissionNeed[] {
  const why = `${reason} (OAuth)`;
  const needs: PermissionNeed[] = [];
  const hosts = new Set(auth.hosts ?? []);
  for (const url of [auth.issuer, auth.crossApp?.idpTokenEndpoint]) {
    if (url !== undefined) hosts.add(hostOf(url));
  }
  for (const value of hosts) needs.push({ name: "net", value, reason: why });
  const crossApp = auth.crossApp;
  for (
    const v of [
      auth.clientSecretEnv,
      auth.privateKeyEnv,
      crossApp?.idpClientSecretEnv,
      crossApp?.idTokenEnv,
    ]
  ) {
    if (v !== undefined) needs.push({ name: "env", value: v, reason: `${why} secret` });
  }
  const env = (name: string) => {
    try {
      return Deno.env.get(name);
    } catch {
      return undefined;
    }
  };
  let store: string | undefined;
  try {
    store = dirname(defaultTokenStorePath({ env }));
  } catch { /* no HOME: read/write of all is listed below */ }
  for (const name of ["read", "write"] as const) {
    needs.push({ name, value: store, reason: `${why} token store` });
  }
  for (const value of [TOKEN_STORE_ENV, "XDG_CONFIG_HOME", "HOME"]) {
    needs.push({ name: "env", value, reason: `${why} locating the token store` });
  }
  return needs;
}
