// Private to scripts/gen.ts: runs `deno bundle` (esbuild inside Deno) for the
// generated bundles (scripts/_yaml_bundle.ts, scripts/_cli_bundle.ts).

/**
 * Runs `deno bundle --quiet <args>` in `root` with `deno` from PATH (as the
 * gen task's `--allow-run=deno` grants) and returns what it printed on
 * standard output; throws with its standard error when it fails.
 */
export async function denoBundle(root: URL, args: string[]): Promise<string> {
  const out = await new Deno.Command("deno", {
    args: ["bundle", "--quiet", ...args],
    cwd: root,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).output();
  if (!out.success) {
    throw new Error(
      `deno bundle ${args.join(" ")} failed:\n${new TextDecoder().decode(out.stderr)}`,
    );
  }
  return new TextDecoder().decode(out.stdout);
}
