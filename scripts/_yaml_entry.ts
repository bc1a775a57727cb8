// The parts of npm:yaml the CLI uses: the entry point `deno task gen` bundles
// into cli/_generated/yaml.js (and the types cli/_generated/yaml.d.ts re-exports).
export { Document, isAlias, isMap, isScalar, isSeq, LineCounter, parseDocument, visit } from "yaml";
