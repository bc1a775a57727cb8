// `auth login | status | logout`: OAuth for a manifest's Streamable HTTP servers, with the
// tokens in the user's token file (run/auth's FileTokenStore).

import { parseArgs } from "../_args.ts";
import { type CliIo, EXIT, printJson } from "../_io.ts";
import { UsageError } from "../../workspace/errors.ts";
import { manifestNeeds, type PermissionNeed } from "../../workspace/permissions.ts";
import { Redactor } from "../../workspace/secrets.ts";
import { scrubConsole } from "../_console_scrub.ts";
import { authSettings, endpointOf, loginCommandFor } from "../../workspace/server_auth.ts";
import { tokenStoreNeeds } from "../../workspace/auth_needs.ts";
import { dedupe, endpointNeeds } from "../../workspace/permission_needs.ts";
import {
  MANIFEST_OPTIONS,
  openManifest,
  parseTimeout,
  report,
  requirePermissions,
  withInterrupt,
} from "./_shared.ts";
import {
  type AuthEntry,
  browserOpener,
  defaultTokenStorePath,
  FileTokenStore,
  login,
  loopbackAuthorization,
  serverKey,
  startLoopbackReceiver,
  StoreOAuthProvider,
} from "../../run/auth/mod.ts";

/** `auth login|status|logout ...` */
export async function authCommand(argv: string[], io: CliIo): Promise<number> {
  const redactor = new Redactor();
  using _console = scrubConsole(redactor);
  try {
    const [sub, ...rest] = argv;
    const { values, positionals } = parseArgs({
      args: rest,
      allowPositionals: true,
      options: {
        "no-browser": { type: "boolean" },
        timeout: { type: "string" },
        ...MANIFEST_OPTIONS,
      },
    });
    if (sub === "login") return await loginSub(positionals, values, io, redactor);
    if (sub === "status") return await statusSub(positionals, values, io);
    if (sub === "logout") return await logoutSub(positionals, values, io);
    throw new UsageError(
      `${sub === undefined ? "missing" : `unknown`} auth command${
        sub === undefined ? "" : ` ${JSON.stringify(sub)}`
      }; use auth login <manifest> <server>, auth status [<manifest>] or auth logout <manifest> <server>`,
    );
  } catch (error) {
    return report(io, redactor, error);
  }
}

type Values = Record<string, string | boolean | undefined>;

/**
 * Checks every permission of a subcommand at once, before anything is read,
 * so that one run names every missing flag (the token store's variables, its
 * folder, the manifest, the server's hosts and secrets).
 */
function requireAll(needs: PermissionNeed[]): void {
  requirePermissions({ needs: dedupe(needs), workers: false, modules: [] });
}

function twoPositionals(positionals: string[], what: string): [string, string] {
  if (positionals.length !== 2) {
    throw new UsageError(`auth ${what} takes <manifest> <server>; see auth --help`);
  }
  return [positionals[0], positionals[1]];
}

async function loginSub(
  positionals: string[],
  values: Values,
  io: CliIo,
  redactor: Redactor,
): Promise<number> {
  const [path, server] = twoPositionals(positionals, "login");
  const timeoutMs = parseTimeout(values.timeout as string | undefined) ?? 300_000;
  // The server's needs are known once the manifest is read; then all are checked at once.
  const manifest = await openManifest(path, values);
  const e = endpointOf(manifest, server);
  if (e.url === undefined) {
    throw new UsageError(
      `server ${JSON.stringify(server)} has no url: only Streamable HTTP servers log in`,
    );
  }
  if (e.auth === undefined) {
    throw new UsageError(
      `server ${JSON.stringify(server)} has no auth: block; add one (auth: {} for a server ` +
        `that registers clients itself) so that run and chain use the login`,
    );
  }
  const interactiveGrant = (e.auth.grant ?? "authorization_code") === "authorization_code";
  requireAll([
    ...manifestNeeds(path),
    ...endpointNeeds("server", server, e),
    ...tokenStoreNeeds("auth login:", true),
    ...(interactiveGrant
      ? [{ name: "net" as const, value: "127.0.0.1", reason: "auth login: the loopback redirect" }]
      : []),
  ]);
  const url = e.url;
  const settings = authSettings(e.auth, (n) => Deno.env.get(n), redactor);
  const storePath = defaultTokenStorePath();
  const store = new FileTokenStore(storePath);
  const interactive = (settings.grant ?? "authorization_code") === "authorization_code";
  return await withInterrupt(async (signal) => {
    const receiver = interactive ? await startLoopbackReceiver() : undefined;
    try {
      const provider = new StoreOAuthProvider(url, {
        store,
        settings,
        loginCommand: loginCommandFor(manifest, server),
        onSecret: (value) => redactor.add(value),
        ...(receiver === undefined ? {} : {
          authorize: loopbackAuthorization(
            receiver,
            browserOpener({ noBrowser: values["no-browser"] === true, print: io.stderr }),
            { timeoutMs, signal },
          ),
        }),
      });
      const result = await login(url, provider, { signal });
      printJson(io, redactor, {
        server,
        url: serverKey(url),
        issuer: result.issuer,
        ...(result.scope === undefined ? {} : { scope: result.scope }),
        refreshable: result.refreshable,
        ...(result.expiresAt === undefined
          ? {}
          : { expiresAt: new Date(result.expiresAt).toISOString() }),
        store: storePath,
      });
      return EXIT.ok;
    } finally {
      await receiver?.close();
    }
  });
}

function describeEntry(entry: AuthEntry, now: number): Record<string, unknown> {
  const t = entry.tokens;
  const expiresAt = t?.expires_in !== undefined && entry.obtainedAt !== undefined
    ? entry.obtainedAt + t.expires_in * 1000
    : undefined;
  return {
    url: entry.server,
    issuer: entry.issuer,
    loggedIn: t !== undefined,
    ...(t?.scope === undefined ? {} : { scope: t.scope }),
    refreshable: t?.refresh_token !== undefined,
    ...(expiresAt === undefined
      ? {}
      : { expiresAt: new Date(expiresAt).toISOString(), expired: expiresAt <= now }),
    ...(entry.wantedScope === undefined ? {} : { needsScope: entry.wantedScope }),
    ...(entry.client?.client_id === undefined ? {} : { clientId: entry.client.client_id }),
  };
}

async function statusSub(positionals: string[], values: Values, io: CliIo): Promise<number> {
  if (positionals.length > 1) throw new UsageError("auth status takes at most <manifest>");
  requireAll([
    ...(positionals.length === 0 ? [] : manifestNeeds(positionals[0])),
    ...tokenStoreNeeds("auth status:", false),
  ]);
  const storePath = defaultTokenStorePath();
  const entries = await new FileTokenStore(storePath).list();
  const now = Date.now();
  if (positionals.length === 0) {
    printJson(io, undefined, {
      store: storePath,
      entries: entries.map((e) => describeEntry(e, now)),
    });
    return EXIT.ok;
  }
  const manifest = await openManifest(positionals[0], values);
  const servers = Object.entries(manifest.servers)
    .filter(([, e]) => e.url !== undefined)
    .map(([name, e]) => {
      const url = serverKey(e.url!);
      const mine = entries.filter((x) => x.server === url);
      return {
        server: name,
        url,
        grant: e.auth === undefined ? null : e.auth.grant ?? "authorization_code",
        loggedIn: mine.some((x) => x.tokens !== undefined),
        entries: mine.map((x) => describeEntry(x, now)),
      };
    });
  printJson(io, undefined, { store: storePath, servers });
  return EXIT.ok;
}

async function logoutSub(positionals: string[], values: Values, io: CliIo): Promise<number> {
  const [path, server] = twoPositionals(positionals, "logout");
  requireAll([...manifestNeeds(path), ...tokenStoreNeeds("auth logout:", true)]);
  const manifest = await openManifest(path, values);
  const e = endpointOf(manifest, server);
  if (e.url === undefined) throw new UsageError(`server ${JSON.stringify(server)} has no url`);
  const storePath = defaultTokenStorePath();
  const removed = await new FileTokenStore(storePath).delete(serverKey(e.url));
  printJson(io, undefined, { server, url: serverKey(e.url), removed, store: storePath });
  return EXIT.ok;
}
