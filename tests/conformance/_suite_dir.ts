/**
 * Where the JSON Schema Test Suite is: `$JSON_SCHEMA_TEST_SUITE` when it is
 * set (another checkout of the suite), else the copy vendored in
 * tests/fixtures/json-schema-test-suite, so a fresh clone runs the suite with
 * nothing beside it.
 *
 * @module
 */

import { fileURLToPath } from "node:url";

/** The vendored copy of the suite (see its README for the source commit and licence). */
export const VENDORED_SUITE_DIR: string = fileURLToPath(
  new URL("../fixtures/json-schema-test-suite", import.meta.url),
);

/** The suite directory: `$JSON_SCHEMA_TEST_SUITE` if set and not empty, else the vendored copy. */
export function suiteDir(): string {
  const fromEnv = Deno.env.get("JSON_SCHEMA_TEST_SUITE");
  return fromEnv !== undefined && fromEnv !== "" ? fromEnv : VENDORED_SUITE_DIR;
}
