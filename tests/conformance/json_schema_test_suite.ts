/**
 * Runs the official JSON Schema Test Suite (draft2020-12 and draft7) through
 * `DefaultValidator`, with the suite's `remotes/` passed in as trusted
 * documents, and checks that without them every refRemote case fails with
 * `ExternalRefError`. Exits non-zero on any unexpected result.
 *
 * Usage: deno task conformance [--fast-path=off] [suite-dir]
 * The suite directory defaults to $JSON_SCHEMA_TEST_SUITE, then the copy
 * vendored in tests/fixtures/json-schema-test-suite. `--fast-path=off` (or the environment
 * variable FAST_PATH=off) validates with `fastPath: false`: every answer from
 * Hyperjump; by default the validator's fast path answers wherever it can.
 * With the fast path on, each of its answers is compared with Hyperjump's,
 * and for each invalid case its failures (instance and keyword locations,
 * keyword, message, order) with those from Hyperjump's DETAILED output.
 *
 * @module
 */

import { DefaultValidator, ExternalRefError, type JsonSchema } from "../../mod.ts";
import { isDeepStrictEqual } from "node:util";
import { SKIPS } from "./skips.ts";
import { suiteDir } from "./_suite_dir.ts";
import { type FastPlan, planFastPath } from "../../model/_fast/mod.ts";
import { loadRegexEngine } from "../../model/_regex.ts";
import { analyzeSchemaStructure } from "../../model/schema_structure.ts";

// Patterns compile synchronously here: load the engine first.
await loadRegexEngine();

const args = Deno.args.filter((a) => !a.startsWith("--fast-path="));
const fastPath = !Deno.args.includes("--fast-path=off") && Deno.env.get("FAST_PATH") !== "off";

interface Case {
  description: string;
  data: unknown;
  valid: boolean;
}
interface Group {
  description: string;
  schema: JsonSchema;
  tests: Case[];
}

const DIALECTS = {
  "draft2020-12": {
    uri: "https://json-schema.org/draft/2020-12/schema",
    remotes: (path: string) => !/^(draft3|draft4|draft6|draft7|draft2019-09|v1)\//.test(path),
    minimum: 1264,
  },
  draft7: {
    uri: "http://json-schema.org/draft-07/schema#",
    remotes: (path: string) => !/^(draft3|draft4|draft6|draft2019-09|draft2020-12|v1)\//.test(path),
    minimum: 898,
  },
} as const;

async function walk(dir: string, prefix = ""): Promise<string[]> {
  const out: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    const rel = prefix + entry.name;
    if (entry.isDirectory) out.push(...await walk(`${dir}/${entry.name}`, rel + "/"));
    else if (entry.name.endsWith(".json")) out.push(rel);
  }
  return out.sort();
}

async function readJson(path: string): Promise<unknown> {
  return JSON.parse(await Deno.readTextFile(path));
}

function withDialect(schema: JsonSchema, uri: string): JsonSchema {
  if (typeof schema === "boolean" || schema.$schema !== undefined) return schema;
  return { $schema: uri, ...schema };
}

/** What `task` returns, or the name and message of what it throws. */
function outcome(task: () => unknown): unknown {
  try {
    return task();
  } catch (error) {
    return `threw ${(error as Error)?.name}: ${(error as Error)?.message}`;
  }
}

/** Runs one dialect; returns the number of unexpected results. */
async function runDialect(root: string, name: keyof typeof DIALECTS): Promise<number> {
  const dialect = DIALECTS[name];
  const schemas: Record<string, JsonSchema> = {};
  for (const path of (await walk(`${root}/remotes`)).filter(dialect.remotes)) {
    // Remotes without `$schema` belong to the dialect under test, as in the suite's own harness.
    const remote = await readJson(`${root}/remotes/${path}`) as JsonSchema;
    schemas[`http://localhost:1234/${path}`] = withDialect(remote, dialect.uri);
  }
  const withRemotes = new DefaultValidator({ schemas, cacheSize: 10_000, fastPath });
  const withoutRemotes = new DefaultValidator({ fastPath });
  // Hyperjump alone, to compare each answer of the fast path with.
  const reference = new DefaultValidator({ schemas, cacheSize: 10_000, fastPath: false });
  let fastGroups = 0, fastCases = 0, fastAnswered = 0, groupsTotal = 0;
  let failuresGroups = 0, failuresCompared = 0;
  const files = (await walk(`${root}/tests/${name}`)).filter((f) => !f.includes("/"));
  let passed = 0, failed = 0, skipped = 0, remotePassed = 0, remoteTotal = 0, blocked = 0;
  let unexpected = 0, remoteSkipped = 0;
  for (const file of files) {
    const groups = await readJson(`${root}/tests/${name}/${file}`) as Group[];
    const isRemote = file === "refRemote.json";
    for (const group of groups) {
      const schema = withDialect(group.schema, dialect.uri);
      let compiled: Awaited<ReturnType<DefaultValidator["compile"]>> | undefined;
      let compileError: unknown;
      try {
        compiled = await withRemotes.compile(schema);
      } catch (error) {
        compileError = error;
      }
      let plan: FastPlan | undefined;
      let expected: Awaited<ReturnType<DefaultValidator["compile"]>> | undefined;
      groupsTotal++;
      if (fastPath && compiled !== undefined) {
        expected = await reference.compile(schema);
        plan = planFastPath(schema, {
          dialect: compiled.dialect,
          formatAssertion: false,
          fansOut: analyzeSchemaStructure(schema, { documents: schemas }).fansOut,
        });
        if (plan.check !== undefined) fastGroups++;
        if (plan.failures !== undefined) failuresGroups++;
      }
      const fast = plan?.check;
      for (const test of group.tests) {
        if (fast !== undefined && expected !== undefined) {
          // The proof: the fast path's own answer equals Hyperjump's, case by case.
          fastCases++;
          let answer: boolean | undefined, truth: boolean | string;
          try {
            answer = fast(test.data);
          } catch (error) {
            answer = undefined;
            console.log(`FAST PATH THREW: ${name}/${file} | ${group.description}: ${error}`);
            unexpected++;
          }
          try {
            truth = expected.check(test.data).valid;
          } catch (error) {
            truth = String(error);
          }
          if (answer !== undefined) {
            fastAnswered++;
            if (answer !== truth) {
              unexpected++;
              console.log(
                `FAST PATH DIFFERS: ${name}/${file} | ${group.description} | ${test.description}: ` +
                  `fast ${answer}, Hyperjump ${truth}`,
              );
            }
          }
          if (answer === false && plan?.failures !== undefined) {
            // The failures too: the fast path's against Hyperjump's DETAILED output's.
            failuresCompared++;
            const ours = outcome(() => plan.failures!(test.data));
            const theirs = outcome(() =>
              (expected!.check(test.data) as { failures?: unknown }).failures
            );
            if (!isDeepStrictEqual(ours, theirs)) {
              unexpected++;
              console.log(
                `FAST FAILURES DIFFER: ${name}/${file} | ${group.description} | ` +
                  `${test.description}:\n  fast      ${JSON.stringify(ours)}\n  Hyperjump ${
                    JSON.stringify(theirs)
                  }`,
              );
            }
          }
        }
        const skip = SKIPS.find((s) =>
          s.dialect === name && s.file === file && s.group === group.description &&
          (s.test === undefined || s.test === test.description)
        );
        let ok: boolean;
        try {
          ok = compiled !== undefined && compiled.check(test.data).valid === test.valid;
        } catch {
          ok = false;
        }
        if (isRemote) remoteTotal++;
        if (ok) {
          if (isRemote) remotePassed++;
          else passed++;
          if (skip) {
            console.log(
              `UNEXPECTED PASS (remove from skips): ${name}/${file} | ${group.description} | ${test.description}`,
            );
            unexpected++;
          }
        } else if (skip) {
          skipped++;
        } else {
          failed++;
          unexpected++;
          console.log(
            `FAIL ${name}/${file} | ${group.description} | ${test.description}` +
              (compileError ? ` | ${(compileError as Error).message}` : ""),
          );
        }
      }
      const groupSkip = SKIPS.find((s) =>
        s.dialect === name && s.file === file && s.group === group.description &&
        s.test === undefined
      );
      if (isRemote && groupSkip) {
        remoteSkipped += group.tests.length;
      } else if (isRemote) {
        try {
          await withoutRemotes.compile(schema);
          unexpected++;
          console.log(`NOT BLOCKED without remotes: ${name}/refRemote | ${group.description}`);
        } catch (error) {
          if (error instanceof ExternalRefError) blocked += group.tests.length;
          else {
            unexpected++;
            console.log(`WRONG ERROR without remotes: ${name} | ${group.description}: ${error}`);
          }
        }
      }
    }
  }
  const nonRemoteTotal = passed + failed + skipped - (remoteTotal - remotePassed);
  console.log(
    `${name}: ${passed}/${nonRemoteTotal} required tests pass (without refRemote; minimum ${dialect.minimum}), ` +
      `refRemote ${remotePassed}/${remoteTotal} with remotes, ${blocked}/${
        remoteTotal - remoteSkipped
      } fail with ExternalRefError without them, ` +
      `${skipped} in the skip list`,
  );
  if (fastPath) {
    console.log(
      `${name}: the fast path compiled ${fastGroups}/${groupsTotal} schemas and answered ` +
        `${fastAnswered}/${fastCases} of their cases itself, each as Hyperjump does; ` +
        `${failuresGroups} schemas have fast failures, compared on ${failuresCompared} ` +
        `invalid cases`,
    );
  }
  if (passed < dialect.minimum) {
    console.log(`BELOW MINIMUM: ${name} passes ${passed}, needs ${dialect.minimum}`);
    unexpected++;
  }
  if (blocked !== remoteTotal - remoteSkipped) unexpected++;
  return unexpected;
}

/**
 * Informative: the optional regular-expression files (ECMA-262 semantics of
 * `pattern` and `format: regex`, non-BMP patterns), with format assertion on.
 * Printed, never counted in the result.
 */
async function optionalRegex(root: string, name: keyof typeof DIALECTS): Promise<void> {
  const validator = new DefaultValidator({ formatAssertion: true, cacheSize: 10_000, fastPath });
  for (const file of ["ecmascript-regex.json", "non-bmp-regex.json"]) {
    let groups: Group[];
    try {
      groups = await readJson(`${root}/tests/${name}/optional/${file}`) as Group[];
    } catch {
      continue;
    }
    let passed = 0, total = 0;
    const failures: string[] = [];
    for (const group of groups) {
      let compiled: Awaited<ReturnType<DefaultValidator["compile"]>> | undefined;
      let why = "";
      try {
        compiled = await validator.compile(withDialect(group.schema, DIALECTS[name].uri));
      } catch (error) {
        why = ` (${(error as Error).message})`;
      }
      for (const test of group.tests) {
        total++;
        let ok = false;
        try {
          ok = compiled !== undefined && compiled.check(test.data).valid === test.valid;
        } catch { /* counted as a failure */ }
        if (ok) passed++;
        else failures.push(`${group.description} | ${test.description}${why}`);
      }
    }
    console.log(`${name}/optional/${file}: ${passed}/${total} (informative)`);
    for (const failure of failures) console.log(`  informative failure: ${failure}`);
  }
}

const root = args[0] ?? suiteDir();
console.log(`fast path: ${fastPath ? "on" : "off"}`);
let unexpected = 0;
for (const name of Object.keys(DIALECTS) as (keyof typeof DIALECTS)[]) {
  unexpected += await runDialect(root, name);
  await optionalRegex(root, name);
}
console.log(unexpected === 0 ? "conformance: ok" : `conformance: ${unexpected} unexpected results`);
Deno.exit(unexpected === 0 ? 0 : 1);
