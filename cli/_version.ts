// Private: the version `--version` prints. It is deno.json's `version`
// (tests/cli/main_test.ts checks that they agree), written here rather than
// imported from deno.json so that the CLI's bundle (scripts/_cli_bundle.ts)
// holds one string, not the whole configuration (whose every edit would make
// the bundle stale).

/** The package version, as in deno.json. */
export const VERSION = "0.1.0";
