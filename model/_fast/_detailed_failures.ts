// Private: how the generated failures code (_detailed_code.ts) makes the
// failures of one keyword location without its unit: what `toFailures` makes
// of a unit of that keyword without nested units, with everything that does
// not depend on the value made once.

import type { ValidationFailure } from "../errors.ts";
import {
  branchJoined,
  extraMessage,
  missingProperties,
  soleMessage,
} from "../_failure_messages.ts";
import type { KeywordSite } from "../_output_unit.ts";
import { isObject } from "./_detailed_unit.ts";

/**
 * Whether a failure made since `seen` was last reset holds a line break that
 * comes from the value (a member name, in its pointer or its message): an
 * object that generated code reads and resets without a call.
 */
export const lineBreaks: { seen: boolean } = { seen: false };

/** How a failure of one keyword (or false schema) location is made, for every value. */
export class FailureTemplate {
  readonly keywordLocation: string;
  readonly absoluteKeywordLocation: string;
  readonly keyword: string;
  readonly #message: string | ((instance: unknown) => string);
  /** The keyword's value when it lists required properties. */
  readonly #lists: unknown;
  /** The message when it is the same for every value and place but a property name's. */
  readonly #plain: string | undefined;
  /** `type`'s message for each type name (typeIndex), made on first use. */
  #typed: (string | undefined)[] | undefined;
  /** The last pointer found well formed. */
  #checked: string | undefined;
  /** `required`'s message for each name, made on first use. */
  #required: Map<string, string> | undefined;
  /** The last extra member's name `extra` quoted, and its message. */
  #extraName: string | number | undefined;
  #extraMessage = "";
  /** The last message `branches` made, and what it was made of. */
  #joined: JoinedMessage | undefined;

  constructor(keyword: string, site: KeywordSite) {
    this.keywordLocation = site.keywordLocation;
    this.absoluteKeywordLocation = site.absolute;
    this.keyword = keyword;
    this.#message = soleMessage(keyword, site);
    this.#lists = keyword === "required" || keyword === "dependentRequired" ||
        keyword === "dependencies"
      ? site.value
      : undefined;
    const message = this.#message;
    this.#plain = typeof message === "string" && this.#lists === undefined ? message : undefined;
  }

  /** Appends the failures of `value` at `pointer` (unencoded; `*` first for a property name). */
  emit(value: unknown, pointer: string, out: ValidationFailure[]): void {
    this.#wellFormed(pointer);
    const plain = this.#plain;
    if (plain !== undefined && pointer.charCodeAt(0) !== 42) {
      out.push(this.#failure(pointer, plain));
      return;
    }
    if (pointer.charCodeAt(0) === 42) {
      // A property name (propertyNames): the property's location, the name as the value.
      out.push(this.#failure(pointer.slice(1), "property name " + this.#text(value)));
      return;
    }
    if (this.#lists !== undefined && isObject(value)) {
      if (this.keyword === "required" && Array.isArray(this.#lists)) {
        const before = out.length;
        for (const name of this.#lists as unknown[]) {
          if (typeof name !== "string" || Object.hasOwn(value, name)) continue;
          const known = this.#required ??= new Map();
          let text = known.get(name);
          if (text === undefined) {
            known.set(name, text = missingProperties("required", [name], {})[0]);
          }
          out.push(this.#failure(pointer, text));
        }
        if (out.length > before) return;
      } else {
        const texts = missingProperties(this.keyword, this.#lists, value);
        for (const text of texts) out.push(this.#failure(pointer, text));
        if (texts.length > 0) return;
      }
    }
    out.push(this.#failure(pointer, this.#text(value)));
  }

  /**
   * `emit` at a pointer known well formed and not a property name's, for a
   * template whose message is the same for every value (`plainMessage`).
   */
  plain(value: unknown, pointer: string, out: ValidationFailure[]): void {
    const plain = this.#plain;
    if (plain === undefined) this.emit(value, pointer, out);
    else out.push(this.#failure(pointer, plain));
  }

  /** `emit` at a pointer known well formed and not a property name's, for `type`. */
  typed(value: unknown, pointer: string, out: ValidationFailure[]): void {
    out.push(this.#failure(pointer, this.#text(value)));
  }

  /**
   * The message every failure of this template has at a pointer that is not
   * a property name's, when it is the same for every value; else undefined.
   */
  get plainText(): string | undefined {
    return this.#plain;
  }

  /** The message of a failure of this template on `value` (`type`'s by its type name). */
  text(value: unknown): string {
    return this.#text(value);
  }

  /** The message (`type`'s made once per type name). */
  #text(value: unknown): string {
    const message = this.#message;
    if (typeof message === "string") return message;
    const i = typeIndex(value);
    const typed = this.#typed ??= [];
    return typed[i] ??= message(value);
  }

  /**
   * Appends the failure of `additionalProperties` or `additionalItems` for
   * the extra member `name` of the value at `pointer` its false subschema
   * refuses (what `toFailures` makes of the member's false-schema unit,
   * whose location, and so the name, must be well formed too).
   */
  extra(pointer: string, name: string | number, out: ValidationFailure[]): void {
    if (typeof name === "string") {
      if (!name.isWellFormed()) encodeURI(name);
      if (name.includes("\n")) lineBreaks.seen = true;
    }
    this.#wellFormed(pointer);
    // The message names the member alone: the last one's is reused.
    if (name !== this.#extraName) {
      this.#extraMessage = extraMessage(this.keyword, String(name));
      this.#extraName = name;
    }
    out.push(this.#failure(pointer, this.#extraMessage));
  }

  /**
   * Appends the failure of a failing `anyOf` or `oneOf` whose branches
   * appended their failures to `out` from `mark` (branch i's end at
   * `ends[i]`), which it takes off: its message quotes them, by branch index,
   * or, with `keys`, by `keys[i]` (the index `toFailures` reads in the
   * location of a draft-07 reference's target), parts of one key together
   * in the order the keys first come; a branch without a key has `marks[i]`:
   * the end of each keyword's failures then its name, their key.
   */
  branches(
    pointer: string,
    out: ValidationFailure[],
    mark: number,
    ends: number[],
    keys?: readonly (string | undefined)[],
    marks?: readonly ((number | string)[] | null)[],
  ): void {
    this.#wellFormed(pointer);
    const named = pointer.charCodeAt(0) === 42;
    const own = named ? pointer.slice(1) : pointer;
    // The message is made of the branches' failures' locations and messages
    // alone: the same ones as last time (commonly: the code writes them as
    // literals) give the same message, without joining the texts again.
    const last = this.#joined;
    if (marks === undefined && last !== undefined && last.same(named, own, out, mark, ends, keys)) {
      out.length = mark;
      out.push(this.#failure(own, last.message));
      return;
    }
    const texts = (start: number, end: number) => {
      let text = "";
      for (let j = start; j < end; j++) {
        const f = out[j];
        if (j > start) text += ", ";
        text += f.instanceLocation === own ? f.message : `${f.instanceLocation}: ${f.message}`;
      }
      return text;
    };
    let joined: string | undefined;
    if (keys === undefined) {
      let start = mark;
      for (let i = 0; i < ends.length; i++) {
        const end = ends[i];
        if (end > start) {
          joined = (joined === undefined ? "" : `${joined}; `) + `[${i}] ${texts(start, end)}`;
        }
        start = end;
      }
    } else {
      const parts = new Map<string, string>();
      const add = (key: string, start: number, end: number) => {
        if (end <= start) return;
        const before = parts.get(key);
        const text = texts(start, end);
        parts.set(key, before === undefined ? text : `${before}, ${text}`);
      };
      let start = mark;
      for (let i = 0; i < ends.length; i++) {
        const key = keys[i];
        const marked = marks?.[i];
        if (key !== undefined) add(key, start, ends[i]);
        else if (marked) {
          for (let j = 0; j < marked.length; j += 2) {
            add(marked[j + 1] as string, start, marked[j] as number);
            start = marked[j] as number;
          }
        }
        start = ends[i];
      }
      for (const [key, text] of parts) {
        joined = (joined === undefined ? "" : `${joined}; `) + `[${key}] ${text}`;
      }
    }
    const joinedMessage = branchJoined(this.keyword, joined);
    const message = named ? "property name " + joinedMessage : joinedMessage;
    if (marks === undefined) {
      this.#joined = new JoinedMessage(named, own, out, mark, ends, keys, message);
    }
    out.length = mark;
    out.push(this.#failure(own, message));
  }

  /**
   * Hyperjump's instanceLocation URI-encodes the pointer, which throws
   * URIError on a lone surrogate: so does a failure there (as a unit would).
   * The last pointer found well formed is not checked again. A line break
   * in it is noted (see `lineBreaks`).
   */
  #wellFormed(pointer: string): void {
    if (pointer.includes("\n")) lineBreaks.seen = true;
    if (pointer === this.#checked) return;
    if (!pointer.isWellFormed()) encodeURI(pointer);
    this.#checked = pointer;
  }

  #failure(instanceLocation: string, message: string): ValidationFailure {
    return {
      instanceLocation,
      keywordLocation: this.keywordLocation,
      absoluteKeywordLocation: this.absoluteKeywordLocation,
      keyword: this.keyword,
      message,
    };
  }
}

/**
 * A message `branches` made (without marks), with what it was made of: the
 * failure's pointer, where each branch's failures ended (from the mark), the
 * keys, and each failure's instance location and message.
 */
class JoinedMessage {
  readonly #named: boolean;
  readonly #own: string;
  readonly #ends: number[];
  readonly #keys: readonly (string | undefined)[] | undefined;
  readonly #fields: string[] = [];
  readonly message: string;

  constructor(
    named: boolean,
    own: string,
    out: readonly ValidationFailure[],
    mark: number,
    ends: readonly number[],
    keys: readonly (string | undefined)[] | undefined,
    message: string,
  ) {
    this.#named = named;
    this.#own = own;
    this.#ends = ends.map((end) => end - mark);
    this.#keys = keys;
    for (let j = mark; j < out.length; j++) {
      this.#fields.push(out[j].instanceLocation, out[j].message);
    }
    this.message = message;
  }

  /** Whether the same failures at the same places make the message now. */
  same(
    named: boolean,
    own: string,
    out: readonly ValidationFailure[],
    mark: number,
    ends: readonly number[],
    keys: readonly (string | undefined)[] | undefined,
  ): boolean {
    const fields = this.#fields;
    if (
      named !== this.#named || own !== this.#own || keys !== this.#keys ||
      ends.length !== this.#ends.length || (out.length - mark) * 2 !== fields.length
    ) return false;
    for (let i = 0; i < ends.length; i++) if (ends[i] - mark !== this.#ends[i]) return false;
    for (let j = mark, k = 0; j < out.length; j++, k += 2) {
      const f = out[j];
      if (f.instanceLocation !== fields[k] || f.message !== fields[k + 1]) return false;
    }
    return true;
  }
}

/**
 * Whether the template of `keyword` has one message for every value (at a
 * pointer that is not a property name's): what `plain` needs.
 */
export function plainMessage(keyword: string): boolean {
  return keyword !== "type" && keyword !== "required" && keyword !== "dependentRequired" &&
    keyword !== "dependencies";
}

/** The index of a value's type name, as `type`'s message names it. */
function typeIndex(value: unknown): number {
  switch (typeof value) {
    case "string":
      return 0;
    case "number":
      return Number.isInteger(value) ? 1 : 2;
    case "boolean":
      return 3;
    case "object":
      return value === null ? 4 : Array.isArray(value) ? 5 : 6;
    default:
      return 7;
  }
}
