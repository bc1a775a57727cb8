// Private: libraries the CLI uses write to the console on their own (the MCP
// SDK warns on stderr with an authorization server's error, which may quote a
// token, a code or a client secret). While a command runs, every console
// method passes its text through the command's redactor first.

import type { Redactor } from "../workspace/secrets.ts";

const METHODS = ["log", "info", "debug", "warn", "error", "trace"] as const;

/**
 * Routes `console.log/info/debug/warn/error/trace` through `redactor` until
 * the returned handle is disposed (the arguments are formatted as the
 * console would, then scrubbed).
 */
export function scrubConsole(redactor: Redactor): Disposable {
  const saved = METHODS.map((name) => [name, console[name]] as const);
  for (const [name, original] of saved) {
    console[name] = (...args: unknown[]) => {
      const text = args.map((a) => typeof a === "string" ? a : Deno.inspect(a)).join(" ");
      original.call(console, redactor.redact(text));
    };
  }
  return {
    [Symbol.dispose]() {
      for (const [name, original] of saved) console[name] = original;
    },
  };
}
