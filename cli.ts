/**
 * The toolfoundation command line: run and chain tools defined in a YAML
 * manifest under explicit Deno permissions. The program is `main` in
 * `cli/main.ts` (exported by `@toolfoundation/core/cli`); this file only wires
 * it to the process.
 *
 * It runs that program as `deno task gen` bundles it at build time
 * (`cli/_generated/cli/`, from the same sources, with source maps), because
 * Deno starts the bundle 60-250 ms sooner than the TypeScript sources
 * (docs/benchmarks.md). To run the sources themselves (while changing them):
 * `deno run ... cli/main.ts`.
 *
 * ```sh
 * deno run --allow-read=examples cli.ts run examples/tools.yaml math:calculate \
 *   --args '{"operation":"add","a":2,"b":3}'
 * ```
 *
 * @module
 */

// @ts-types="./cli/main.ts"
import { main } from "./cli/_generated/cli/main.js";

if (import.meta.main) Deno.exit(await main(Deno.args));
