// Private: what `validate` and `convert` need beyond reading the manifest (the
// validator, the tool and chain checks; the adapters apart, for `convert` and
// `validate --target`), loaded on first use so that `list` and `permissions`
// never load them, nor `validate` the adapters it does not use: every module
// loaded costs start-up time.

import type { DefaultValidator } from "../../model/default_validator.ts";
import type { checkChains } from "../../workspace/chain_check.ts";
import type {
  checkModuleTools,
  checkToolSchemas,
  moduleCheckNeeds,
  sortIssues,
} from "../../workspace/tool_checks.ts";
import type { defaultRegistry, preflight } from "../../adapter/mod.ts";

/** The checks and converters of `validate` and `convert`. */
export interface ChecksKit {
  /** The validator class (Hyperjump-backed). */
  DefaultValidator: typeof DefaultValidator;
  /** Tool schema checks. */
  checkToolSchemas: typeof checkToolSchemas;
  /** Module tool checks. */
  checkModuleTools: typeof checkModuleTools;
  /** What the module checks need. */
  moduleCheckNeeds: typeof moduleCheckNeeds;
  /** Issues in document order. */
  sortIssues: typeof sortIssues;
  /** Chain step checks. */
  checkChains: typeof checkChains;
}

/** The adapters, for `convert` and `validate --target`. */
export interface AdapterKit {
  /** The adapters' registry. */
  defaultRegistry: typeof defaultRegistry;
  /** Provider preflight. */
  preflight: typeof preflight;
}

let kit: Promise<ChecksKit> | undefined;
let adapters: Promise<AdapterKit> | undefined;

/** Loads (once) what `validate` and `convert` need. */
export function checksKit(): Promise<ChecksKit> {
  kit ??= Promise.all([
    import("../../model/default_validator.ts"),
    import("../../workspace/tool_checks.ts"),
    import("../../workspace/chain_check.ts"),
  ]).then(([validator, tools, chains]) => ({
    DefaultValidator: validator.DefaultValidator,
    checkToolSchemas: tools.checkToolSchemas,
    checkModuleTools: tools.checkModuleTools,
    moduleCheckNeeds: tools.moduleCheckNeeds,
    sortIssues: tools.sortIssues,
    checkChains: chains.checkChains,
  }));
  return kit;
}

/** Loads (once) the adapters. */
export function adapterKit(): Promise<AdapterKit> {
  adapters ??= import("../../adapter/mod.ts").then((adapter) => ({
    defaultRegistry: adapter.defaultRegistry,
    preflight: adapter.preflight,
  }));
  return adapters;
}
