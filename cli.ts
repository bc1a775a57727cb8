/**
 * The toolfoundation command line: run and chain tools defined in a YAML
 * manifest under explicit Deno permissions. The program is `main` in
 * `cli/main.ts` (exported by `@toolfoundation/core/cli`); this file only wires
 * it to the process.
 *
 * ```sh
 * deno run --allow-read=examples cli.ts run examples/tools.yaml math:calculate \
 *   --args '{"operation":"add","a":2,"b":3}'
 * ```
 *
 * @module
 */

import { main } from "./cli/main.ts";

if (import.meta.main) Deno.exit(await main(Deno.args));
