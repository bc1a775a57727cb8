/**
 * What a server's `auth:` block needs from the Deno sandbox. The CLI's `auth`
 * command and the permission plan use it.
 *
 * @module
 */

import { dirname, type ManifestAuth } from "./manifest.ts";
import type { PermissionNeed } from "./permission_need.ts";
import { hostOf } from "./_url_host.ts";
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
      auth.assertionEnv,
    ]
  ) {
    if (v !== undefined) needs.push({ name: "env", value: v, reason: `${why} secret` });
  }
  if (auth.assertionFile !== undefined) {
    needs.push({ name: "read", value: auth.assertionFile, reason: `${why} assertion file` });
  }
  needs.push(...tokenStoreNeeds(why, true));
  return needs;
}

/**
 * What using the token store needs: the variables that locate it
 * (TOOLFOUNDATION_TOKEN_STORE, XDG_CONFIG_HOME, HOME; APPDATA and USERPROFILE
 * on Windows) and reading (and, when `write`, writing) its folder. Before
 * those variables may be read the folder is unknown: reading (writing) is
 * then asked for everywhere; with them granted, the exact folder is.
 */
export function tokenStoreNeeds(why: string, write: boolean): PermissionNeed[] {
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
  } catch { /* no HOME, or not readable yet: read/write of all is listed below */ }
  const needs: PermissionNeed[] = [];
  for (const name of write ? ["read", "write"] as const : ["read"] as const) {
    needs.push({
      name,
      value: store,
      reason: store === undefined
        ? `${why} token store (its exact folder once the variables that locate it may be read)`
        : `${why} token store`,
    });
  }
  const located = Deno.build.os === "windows"
    ? [TOKEN_STORE_ENV, "APPDATA", "USERPROFILE"]
    : [TOKEN_STORE_ENV, "XDG_CONFIG_HOME", "HOME"];
  for (const value of located) {
    needs.push({ name: "env", value, reason: `${why} locating the token store` });
  }
  return needs;
}
