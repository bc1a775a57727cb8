/**
 * The TypeScript type of the values a JSON Schema literal accepts, computed
 * by the compiler from the schema written `as const` (or passed where a
 * `const` type parameter takes it): what a tool handler's arguments are.
 *
 * Understood: `type` (a name or a list of names, so `["string", "null"]` is
 * nullable), `properties` with `required`, `additionalProperties`, `items`,
 * `enum`, `const`, `anyOf`, `oneOf`, `allOf`, and boolean schemas. What is
 * not understood (`$ref`, `prefixItems`, `not`, `if`, `patternProperties`,
 * ...) is `unknown` there, never a type narrower than the schema.
 *
 * An object schema without `additionalProperties: false` accepts other
 * members, so its type has a `[key: string]: unknown` index: add
 * `additionalProperties: false` to make a misspelt member a type error.
 *
 * @module
 */

/**
 * The type of the values a JSON Schema literal accepts (see the module
 * documentation for the keywords understood).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import type { InferJsonSchema } from "@toolfoundation/core/model";
 *
 * const schema = {
 *   type: "object",
 *   properties: {
 *     city: { type: "string" },
 *     unit: { enum: ["c", "f"] },
 *     days: { type: ["integer", "null"] },
 *   },
 *   required: ["city"],
 *   additionalProperties: false,
 * } as const;
 * const value: InferJsonSchema<typeof schema> = { city: "Oslo", days: null };
 * assert.equal(value.city, "Oslo");
 * ```
 */
export type InferJsonSchema<S, Depth extends number = 11> = [Depth] extends [never] ? unknown
  : S extends true ? unknown
  : S extends false ? never
  : S extends object
  // Next: one level down (nesting beyond 12 schema levels is `unknown`).
    ? [never, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11][Depth] extends infer Next extends number ? (
        & (S extends { readonly const: infer C } ? C : unknown)
        & (S extends { readonly enum: readonly (infer E)[] } ? E : unknown)
        & (S extends { readonly anyOf: readonly (infer B)[] } ? InferJsonSchema<B, Next> : unknown)
        & (S extends { readonly oneOf: readonly (infer B)[] } ? InferJsonSchema<B, Next> : unknown)
        & (S extends { readonly allOf: readonly (infer B)[] }
          // The intersection of every branch's type.
          ? (B extends unknown ? (branch: InferJsonSchema<B, Next>) => void : never) extends
            (branch: infer Every) => void ? Every
          : unknown
          : unknown)
        & (S extends { readonly type: infer T }
          ? (T extends readonly (infer Listed)[] ? Listed : T) extends infer Name
            ? Name extends "string" ? string
            : Name extends "number" | "integer" ? number
            : Name extends "boolean" ? boolean
            : Name extends "null" ? null
            : Name extends "array" ? S extends { readonly prefixItems: unknown } ? unknown[]
              : S extends { readonly items: infer Items }
                ? Items extends readonly unknown[] ? unknown[] : InferJsonSchema<Items, Next>[]
              : unknown[]
            : Name extends "object" ? (S extends { readonly properties: infer P extends object } ? P
                : Record<never, never>) extends infer P extends object
                ? (S extends { readonly required: readonly (infer R)[] } ? R & string
                  : never) extends infer Req extends string ? (
                    & {
                      -readonly [K in keyof P & string as K extends Req ? K : never]:
                        InferJsonSchema<P[K], Next>;
                    }
                    & {
                      -readonly [K in keyof P & string as K extends Req ? never : K]?:
                        InferJsonSchema<P[K], Next>;
                    }
                    & { [K in Exclude<Req, keyof P>]: unknown }
                    & (S extends { readonly additionalProperties: false } ? unknown
                      : S extends { readonly additionalProperties: infer A extends object }
                        ? S extends { readonly properties: object } ? { [key: string]: unknown }
                        : { [key: string]: InferJsonSchema<A, Next> }
                      : { [key: string]: unknown })
                  ) extends infer O ? { [K in keyof O]: O[K] } : never
                : never
              : never
            : unknown
          : never
          : unknown)
      )
    : never
  : unknown;
