/**
 * Opens an authorization URL in the system browser (`xdg-open`, `open`,
 * `rundll32 url.dll,FileProtocolHandler`), or prints it when asked to
 * (`--no-browser`) or when there is no display.
 *
 * @module
 */

/** Options of {@linkcode browserOpener}. */
export interface BrowserOpenerOptions {
  /** Never start a browser: always print the URL. */
  noBrowser?: boolean;
  /** Where the URL is printed (default: stderr). */
  print?: (text: string) => void;
  /** Reads an environment variable (default: `Deno.env.get`, `undefined` without permission). */
  env?: (name: string) => string | undefined;
  /** The operating system (default: `Deno.build.os`). */
  os?: string;
  /** Starts a program; resolves to whether it succeeded (default: `Deno.Command`). */
  spawn?: (program: string, args: string[]) => Promise<boolean>;
}

/**
 * The program and arguments that open `url` in the system browser on `os`,
 * or undefined when there is none to use (Linux or BSD without `DISPLAY` or
 * `WAYLAND_DISPLAY`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { browserCommand } from "@toolfoundation/core/run/auth";
 *
 * assert.deepEqual(browserCommand("https://as.example/a", "darwin", () => undefined), ["open", ["https://as.example/a"]]);
 * assert.equal(browserCommand("https://as.example/a", "linux", () => undefined), undefined);
 * ```
 *
 * @param url The URL to open.
 * @param os The operating system (`Deno.build.os`).
 * @param env Reads an environment variable.
 * @returns `[program, args]`, or undefined.
 */
export function browserCommand(
  url: string,
  os: string,
  env: (name: string) => string | undefined,
): [string, string[]] | undefined {
  if (os === "darwin") return ["open", [url]];
  // rundll32 takes the URL as one argument: no shell, so `&` in the query is safe.
  if (os === "windows") return ["rundll32", ["url.dll,FileProtocolHandler", url]];
  if (!env("DISPLAY") && !env("WAYLAND_DISPLAY")) return undefined;
  return ["xdg-open", [url]];
}

/**
 * Makes the `open(url)` of an interactive login: starts the system browser,
 * and prints the URL (to open by hand) when told not to, when there is no
 * display, or when the browser cannot be started.
 *
 * @example Printing only
 * ```ts
 * import assert from "node:assert/strict";
 * import { browserOpener } from "@toolfoundation/core/run/auth";
 *
 * const lines: string[] = [];
 * const open = browserOpener({ noBrowser: true, print: (text) => lines.push(text) });
 * await open(new URL("https://as.example/authorize?x=1"));
 * assert.match(lines.join(""), /https:\/\/as\.example\/authorize\?x=1/);
 * ```
 *
 * @param options Printing, environment and process start (for tests).
 * @returns The function that shows a URL.
 */
export function browserOpener(options: BrowserOpenerOptions = {}): (url: URL) => Promise<void> {
  const print = options.print ?? ((text: string) => console.error(text.trimEnd()));
  const env = options.env ?? safeEnv;
  const os = options.os ?? Deno.build.os;
  const spawn = options.spawn ?? startProgram;
  return async (url) => {
    const command = options.noBrowser ? undefined : browserCommand(url.href, os, env);
    if (command !== undefined && await spawn(command[0], command[1]).catch(() => false)) {
      print(`Opened the browser to log in; if it did not appear, open this URL:\n  ${url.href}\n`);
      return;
    }
    print(`Open this URL in a browser to log in:\n  ${url.href}\n`);
  };
}

function safeEnv(name: string): string | undefined {
  try {
    return Deno.env.get(name);
  } catch {
    return undefined;
  }
}

async function startProgram(program: string, args: string[]): Promise<boolean> {
  const child = new Deno.Command(program, {
    args,
    stdin: "null",
    stdout: "null",
    stderr: "null",
  }).spawn();
  return (await child.status).success;
}
