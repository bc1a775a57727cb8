// The parts of npm:yaml the CLI uses: the entry point `deno task gen` bundles
// into workspace/_generated/yaml.js (and the types workspace/_generated/yaml.d.ts re-exports).
export { Document, isAlias, isMap, isScalar, isSeq, LineCounter, parseDocument, visit } from "yaml";
