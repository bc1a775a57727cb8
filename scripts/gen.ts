/**
 * Regenerates what the CLI precomputes at build time, so that it is not
 * computed on every start:
 *
 * - `workspace/_generated/manifest_check.ts`: the manifest schema's valid/invalid
 *   check (`workspace/manifest.schema.json`) as plain JavaScript (ajv's standalone
 *   code, `ownProperties`), so that loading a valid manifest needs no JSON
 *   Schema validator. A manifest it calls invalid is checked again by our
 *   validator (Hyperjump), whose answer and messages are the ones reported.
 * - `workspace/_generated/yaml.js` (+ `yaml.d.ts`): npm:yaml, the version deno.json
 *   pins, as one ES module (its browser build bundled by `deno bundle`), so
 *   that reading a manifest does not load the package's CommonJS build
 *   (scripts/_yaml_bundle.ts).
 * - `model/_generated/meta_check_2020_12.js`, `meta_check_draft_07.js`: the
 *   2020-12 and draft-07 meta-schemas, each made one self-contained document
 *   (scripts/_meta_schemas.ts) and compiled like the manifest schema, with which
 *   the validator checks a schema against its meta-schema without loading
 *   Hyperjump.
 * - `cli/_generated/cli/`: the command line itself (cli/main.ts and all it
 *   imports, the files above included) bundled into a few JavaScript chunks
 *   with source maps, which `cli.ts` runs (scripts/_cli_bundle.ts): made last,
 *   from the files as they are on disk, so run the task again after it rewrote
 *   any of the others (it says so).
 *
 * ```sh
 * deno task gen          # rewrite the files
 * deno task gen --check  # exit 1 when a file is stale (tests/cli/startup_manifest_check_test.ts)
 * ```
 *
 * @module
 */

import { type GeneratedFile, yamlBundle } from "./_yaml_bundle.ts";
import { metaCheckModules } from "./_meta_schemas.ts";
import { standaloneCheck } from "./_ajv_standalone.ts";
import { CLI_BUNDLE_DIR, cliBundle } from "./_cli_bundle.ts";

const ROOT = new URL("../", import.meta.url);

/** The generated files: path (relative to the repository) and text. */
export async function generated(): Promise<GeneratedFile[]> {
  return [
    await manifestCheck(),
    ...await metaCheckModules(),
    ...await yamlBundle(ROOT),
    ...await cliBundle(ROOT),
  ];
}

/** Files in the generated directories that `generated()` does not make (left from an earlier run). */
export async function leftovers(files: GeneratedFile[]): Promise<string[]> {
  const wanted = new Set(files.map((f) => f.path));
  const found: string[] = [];
  try {
    for await (const entry of Deno.readDir(new URL(`${CLI_BUNDLE_DIR}/`, ROOT))) {
      const path = `${CLI_BUNDLE_DIR}/${entry.name}`;
      if (!wanted.has(path)) found.push(path);
    }
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  return found.sort();
}

/** The manifest schema's check as plain JavaScript. */
async function manifestCheck(): Promise<GeneratedFile> {
  const schema = JSON.parse(
    await Deno.readTextFile(new URL("workspace/manifest.schema.json", ROOT)),
  );
  const what =
    "Whether a value is valid against the manifest schema, workspace/manifest.schema.json";
  return {
    path: "workspace/_generated/manifest_check.js",
    text: standaloneCheck(schema, "2020-12", what),
  };
}

if (import.meta.main) {
  const check = Deno.args.includes("--check");
  let stale = 0;
  let inputs = false;
  const files = await generated();
  for (const { path, text } of files) {
    const url = new URL(path, ROOT);
    const old = await Deno.readTextFile(url).catch(() => undefined);
    if (old === text) continue;
    if (check) {
      console.error(`${path} is stale: run \`deno task gen\``);
    } else {
      await Deno.mkdir(new URL(".", url), { recursive: true });
      await Deno.writeTextFile(url, text);
      console.error(`wrote ${path}`);
      if (!path.startsWith(`${CLI_BUNDLE_DIR}/`)) inputs = true;
    }
    stale++;
  }
  for (const path of await leftovers(files)) {
    if (check) {
      console.error(`${path} is no longer generated: run \`deno task gen\``);
    } else {
      await Deno.remove(new URL(path, ROOT));
      console.error(`removed ${path}`);
    }
    stale++;
  }
  if (check && stale > 0) Deno.exit(1);
  // The bundle is made from the files on disk: if others changed, it may be stale.
  if (inputs) {
    console.error("the bundle was made before these files changed: run `deno task gen` again");
  }
}
