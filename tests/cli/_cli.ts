// Test helpers: the CLI as a user runs it, a subprocess under `deno run` with
// the flags `permissions` prints for the manifest.
import assert from "node:assert/strict";

export const ROOT: string = new URL("../..", import.meta.url).pathname;

/** What a CLI run produced. */
export interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
  /** Wall time of the whole process, ms. */
  ms: number;
}

/** Options of {@linkcode cli}. */
export interface CliOptions {
  flags?: string[];
  stdin?: string;
  env?: Record<string, string>;
}

/** Runs `deno run <flags> cli.ts <args>` and collects its output. */
export async function cli(args: string[], options: CliOptions = {}): Promise<Outcome> {
  const started = performance.now();
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", ...(options.flags ?? []), "cli.ts", ...args],
    cwd: ROOT,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1", ...options.env },
  }).spawn();
  const writer = child.stdin.getWriter();
  if (options.stdin !== undefined) await writer.write(new TextEncoder().encode(options.stdin));
  await writer.close().catch(() => {});
  const out = await child.output();
  const dec = new TextDecoder();
  return {
    code: out.code,
    stdout: dec.decode(out.stdout),
    stderr: dec.decode(out.stderr),
    ms: performance.now() - started,
  };
}

/** Writes `tools.yaml` (and more files) into a new temporary directory; returns the manifest path. */
export async function tempManifest(
  yaml: string | Uint8Array,
  files: Record<string, string> = {},
): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "tf-cli-" });
  if (typeof yaml === "string") await Deno.writeTextFile(`${dir}/tools.yaml`, yaml);
  else await Deno.writeFile(`${dir}/tools.yaml`, yaml);
  for (const [name, text] of Object.entries(files)) {
    await Deno.writeTextFile(`${dir}/${name}`, text);
  }
  return `${dir}/tools.yaml`;
}

/** Just enough to read a manifest. */
export function readFlags(manifest: string): string[] {
  return [`--allow-read=${manifest}`];
}

/** The flags of the `deno run` line `permissions` prints for a manifest (and target). */
export async function flagsFor(manifest: string, target?: string): Promise<string[]> {
  const out = await cli(["permissions", manifest, ...(target ? [target] : [])], {
    flags: readFlags(manifest),
  });
  assert.equal(out.code, 0, out.stderr);
  const line = out.stdout.split("\n")[0];
  assert.match(line, /^deno run .* cli\.ts (run|chain) /);
  const words = shellWords(line);
  return words.slice(2, words.indexOf("cli.ts"));
}

/** The words of a line quoted for a POSIX shell as `permissions` prints it (`'...'`, `'\''`). */
export function shellWords(line: string): string[] {
  const words: string[] = [];
  for (const m of line.matchAll(/(?:[^\s'\\]+|'[^']*'|\\.)+/g)) {
    words.push(m[0].replace(/'([^']*)'|\\(.)/g, (_, quoted, escaped) => quoted ?? escaped));
  }
  return words;
}
