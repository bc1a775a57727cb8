// Private: what the parts of the schema walk see of one walk (WalkContext) and
// of one schema object being converted (NodeScope). Types only: every part
// depends on this file and on the parts below it, never on the walker itself,
// so the walk's files import one another without a cycle:
//
//   walker ─┬─ keywords ─┬─ dialect, subset   (keyword rules)
//           │            ├─ finish ── json_text
//           │            └─ json_text
//           ├─ combinators ── merge
//           ├─ refs ── merge, inline_budget
//           └─ json_text
//
// Calls go both ways at run time (a part converts a subschema through
// `WalkContext.convertSchema`), through these types.

import type { Obj, RefResolver, WarningSink } from "../_schema/mod.ts";
import type { SchemaProfile } from "../profile.ts";
import type { FeatureLossAction, FeatureLossEffect, FeatureLossWarning } from "../warning.ts";

/** Options of one schema walk. */
export interface WalkOptions {
  profile: SchemaProfile;
  from: string;
  to: string;
  /** Pointer of the schema inside the source tool, e.g. `/inputSchema`. */
  base: string;
  /** Move dropped scalar constraints into descriptions. */
  describe: boolean;
  /** Keywords kept in addition to the profile's (mapped later by the target). */
  extra?: readonly string[];
  /** Drop the root `$schema` even when every keyword is kept. */
  dropSchema?: boolean;
}

/** The outcome of a walk. */
export interface WalkResult {
  schema: Obj;
  warnings: FeatureLossWarning[];
  /** Object nodes of the output whose listed properties were optional and made nullable. */
  nullable: Map<Obj, Set<string>>;
  /** Source pointer (relative to the tool) of each output node. */
  origin: WeakMap<object, string>;
  /** The output nodes that hold a map as JSON text (OpenAI and Anthropic strict). */
  jsonText: Set<Obj>;
  /** Source pointers of references cut because inlining them would exceed the size budget. */
  overBudget: Set<string>;
}

/** A subschema found through `$ref`s, with its source pointer when it moved. */
interface ResolvedSchema {
  schema: Obj;
  pointer?: string;
}

/** The state of one walk, shared by the parts of the transform. */
export interface WalkContext {
  /** The source schema. */
  readonly root: Obj;
  /** Local reference resolution over the source schema. */
  readonly refs: RefResolver;
  /** What becomes of each `$ref`: follows references to the schema they name. */
  readonly rewriter: { resolved(schema: unknown, depth?: number): ResolvedSchema | undefined };
  readonly sink: WarningSink;
  readonly nullable: Map<Obj, Set<string>>;
  readonly origin: WeakMap<object, string>;
  /** The output nodes that hold a map as JSON text. */
  readonly jsonText: Set<Obj>;
  /** The warning of each output node that holds JSON text. */
  readonly textWarnings: Map<Obj, FeatureLossWarning>;
  readonly profile: SchemaProfile;
  readonly options: WalkOptions;
  /** Keywords kept (the profile's and the extra ones); `undefined` keeps every keyword. */
  readonly keep: Set<string> | undefined;
  /** Allowed `format` values; `undefined` allows any. */
  readonly formats: Set<string> | undefined;
  /** Whether the source declares draft-07 and is rewritten as 2020-12. */
  readonly draft07: boolean;
  /** Whether draft-07 forms are rewritten (the schema is not passed through as it is). */
  readonly normalize: boolean;
  /** The pointer inside the source tool of a pointer relative to the root schema. */
  toolPointer(pointer: string): string;
  /** Whether the target keeps a keyword. */
  allowed(key: string): boolean;
  /** Adds a warning at a pointer relative to the root schema. */
  warn(
    pointer: string,
    feature: string,
    action: FeatureLossAction,
    effect: FeatureLossEffect,
    message: string,
  ): FeatureLossWarning | undefined;
  /** Converts one schema (object or boolean) found at `pointer`. */
  convertSchema(schema: unknown, pointer: string, isRoot: boolean): unknown;
  /** Converts the keywords of one schema object (`origins`: source pointers of merged keys). */
  convertObject(
    schema: Obj,
    pointer: string,
    isRoot: boolean,
    origins: Map<string, string> | undefined,
  ): unknown;
  /** Converts each subschema of a name-to-schema map. */
  convertSchemaMap(value: unknown, pointer: string): unknown;
  /** A schema that accepts anything the target lets a schema accept. */
  anySchema(): Obj;
}

/** One schema object being converted: its source, its output and what is said about it. */
export interface NodeScope {
  readonly walker: WalkContext;
  readonly sourceSchema: Obj;
  readonly pointer: string;
  readonly isRoot: boolean;
  readonly origins: Map<string, string> | undefined;
  /** The output schema. */
  readonly out: Obj;
  /** Dropped constraints stated in the description. */
  readonly notes: string[];
  /** Whether a tuple keyword (`prefixItems`, array-form `items`) was dropped. */
  tupleDropped: boolean;
  /** Whether the node is a map declared as JSON text. */
  readonly jsonText: boolean;
  /** The source pointer of a keyword. */
  keywordPointer(key: string): string;
  /** The source pointer of a property's schema. */
  propertyPointer(name: string): string;
  /** Converts a subschema. */
  convertSubschema(value: unknown, pointer: string): unknown;
  /** Converts an array of subschemas. */
  convertSubschemas(value: unknown[], pointer: string): unknown[];
  /** Drops a keyword, stating it in the description when it is a short scalar constraint. */
  drop(key: string, value: unknown, effect: FeatureLossEffect, why: string): void;
  /** Why a keyword the target does not keep is dropped. */
  unsupported(key: string): string;
}

/**
 * Handles one keyword (`keywordPointer` is its source pointer) with special
 * needs; `true` when done with it, `false` to give it the ordinary treatment.
 */
export type KeywordRule = (
  scope: NodeScope,
  key: string,
  value: unknown,
  keywordPointer: string,
) => boolean;
