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
 *   with source maps, which `cli.ts` runs (scripts/_cli_bundle.ts). It is made
 *   from the files on disk, so the task writes the files above first and
 *   bundles after: one run leaves everything current. A chunk is named after
 *   the modules it holds, so a change rewrites only the chunks it changed
 *   (`.gitattributes` marks them generated).
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

/** The generated files the CLI's bundle is made from: path (relative to the repository) and text. */
export async function bundleInputs(): Promise<GeneratedFile[]> {
  return [await manifestCheck(), ...await metaCheckModules(), ...await yamlBundle(ROOT)];
}

/**
 * The generated files: path (relative to the repository) and text. The bundle
 * is made from the files on disk: current once `bundleInputs()` are written.
 */
export async function generated(): Promise<GeneratedFile[]> {
  return [...await bundleInputs(), ...await cliBundle(ROOT)];
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

/** Writes (or, with `check`, compares) the files; returns how many were stale. */
async function update(files: GeneratedFile[], check: boolean): Promise<number> {
  let stale = 0;
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
    }
    stale++;
  }
  return stale;
}

if (import.meta.main) {
  const check = Deno.args.includes("--check");
  // The bundle's inputs first: the bundle is made from them as they are on disk.
  let stale = await update(await bundleInputs(), check);
  const bundle = await cliBundle(ROOT);
  stale += await update(bundle, check);
  for (const path of await leftovers(bundle)) {
    if (check) {
      console.error(`${path} is no longer generated: run \`deno task gen\``);
    } else {
      await Deno.remove(new URL(path, ROOT));
      console.error(`removed ${path}`);
    }
    stale++;
  }
  if (check && stale > 0) Deno.exit(1);
}
