// Helpers of the serve tests: start `serve` as a child process, connect an SDK client.

import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";

export const ROOT = new URL("../../", import.meta.url).pathname;
export const MANIFEST = `${ROOT}tests/fixtures/serve/manifest.yaml`;
export const CLI = `${ROOT}cli.ts`;

/** A running `serve --http`. */
export interface Served {
  url: string;
  /** The process ID of `serve`. */
  pid: number;
  stderr: () => string;
  /**
   * What serve wrote to stderr once it matches `pattern` (the access log is
   * written in batches a few milliseconds after each call); the text as it is
   * after `timeoutMs` otherwise.
   */
  logged(pattern: RegExp, timeoutMs?: number): Promise<string>;
  close(): Promise<void>;
}

/** Starts `deno run -A cli.ts serve <manifest> --http 127.0.0.1:0 ...extra` and waits for its URL. */
export async function startHttp(
  extra: string[] = [],
  options: { manifest?: string; env?: Record<string, string>; denoFlags?: string[] } = {},
): Promise<Served> {
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      ...(options.denoFlags ?? []),
      CLI,
      "serve",
      options.manifest ?? MANIFEST,
      "--http",
      "127.0.0.1:0",
      ...extra,
    ],
    cwd: ROOT,
    stdin: "null",
    stdout: "null",
    stderr: "piped",
    env: { ...caEnv(), ...options.env },
    clearEnv: true,
  }).spawn();
  let text = "";
  const decoder = new TextDecoder();
  const reader = child.stderr.getReader();
  let resolveUrl!: (url: string) => void;
  let rejectUrl!: (error: Error) => void;
  const url = new Promise<string>((resolve, reject) => {
    resolveUrl = resolve;
    rejectUrl = reject;
  });
  const pump = (async () => {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
      const match = /serving .* at (http:\/\/\S+)/.exec(text);
      if (match) resolveUrl(match[1]);
    }
    rejectUrl(new Error(`serve exited before listening:\n${text}`));
  })();
  const timer = setTimeout(() => rejectUrl(new Error(`serve did not start:\n${text}`)), 60_000);
  try {
    return {
      url: await url,
      pid: child.pid,
      stderr: () => text,
      async logged(pattern, timeoutMs = 5_000) {
        const end = Date.now() + timeoutMs;
        while (!pattern.test(text) && Date.now() < end) {
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
        return text;
      },
      async close() {
        try {
          child.kill("SIGTERM");
        } catch { /* gone */ }
        await child.status;
        await pump;
      },
    };
  } catch (error) {
    try {
      child.kill("SIGKILL");
    } catch { /* gone */ }
    await child.status;
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

/** An SDK client connected to an HTTP URL. */
export async function httpClient(
  url: string,
  headers: Record<string, string> = {},
  capabilities: Record<string, unknown> = {},
): Promise<Client> {
  const client = new Client({ name: "serve-test", version: "1.0.0" }, { capabilities });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }),
  );
  return client;
}

/** An SDK client talking to `serve <manifest> --stdio`. */
export async function stdioClient(
  extra: string[] = [],
  manifest = MANIFEST,
  env: Record<string, string> = {},
): Promise<Client> {
  const client = new Client({ name: "serve-test", version: "1.0.0" });
  await client.connect(
    new StdioClientTransport({
      command: Deno.execPath(),
      args: ["run", "-A", CLI, "serve", manifest, "--stdio", ...extra],
      cwd: ROOT,
      env: {
        PATH: Deno.env.get("PATH") ?? "",
        HOME: Deno.env.get("HOME") ?? "",
        ...caEnv(),
        ...env,
      },
      stderr: "ignore",
    }),
  );
  return client;
}

/** The variables a child needs to reach the npm registry and the Deno cache. */
export function caEnv(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of ["NODE_EXTRA_CA_CERTS", "DENO_DIR", "HOME", "PATH"]) {
    const value = Deno.env.get(name);
    if (value !== undefined) out[name] = value;
  }
  return out;
}
