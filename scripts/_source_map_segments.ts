// Private to scripts/_start_chunk.ts: a source map's `mappings` as segments
// one can move and look up, and back.
//
// Why: the generator rewrites chunks after `deno bundle` wrote them (an
// import made longer, chunks merged by a second bundling pass), and a stack
// trace must still name the TypeScript source and line: the maps are edited
// (columns moved) or composed (the merged chunk's map looked up in its
// chunks' maps) segment by segment.

/** One mapping: a generated column and, when it maps, the source position. */
export interface Segment {
  /** The column in the generated line (0-based). */
  column: number;
  /** The index in the map's `sources`, absent for an unmapped segment. */
  source?: number;
  /** The source line (0-based). */
  line?: number;
  /** The source column (0-based). */
  sourceColumn?: number;
  /** The index in the map's `names`. */
  name?: number;
}

const BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const DIGIT = new Map([...BASE64].map((char, index) => [char, index]));

/** The segments of each generated line of a map's `mappings`. */
export function decodeMappings(mappings: string): Segment[][] {
  const lines: Segment[][] = [];
  let source = 0, line = 0, sourceColumn = 0, name = 0;
  for (const text of mappings.split(";")) {
    const segments: Segment[] = [];
    let column = 0;
    for (const field of text.split(",")) {
      if (field === "") continue;
      const values = vlqValues(field);
      column += values[0];
      const segment: Segment = { column };
      if (values.length >= 4) {
        source += values[1];
        line += values[2];
        sourceColumn += values[3];
        Object.assign(segment, { source, line, sourceColumn });
        if (values.length >= 5) segment.name = name += values[4];
      }
      segments.push(segment);
    }
    lines.push(segments);
  }
  return lines;
}

/** The `mappings` of segments per generated line (each line's sorted by column). */
export function encodeMappings(lines: Segment[][]): string {
  let source = 0, line = 0, sourceColumn = 0, name = 0;
  return lines.map((segments) => {
    let column = 0;
    return [...segments].sort((a, b) => a.column - b.column).map((segment) => {
      let field = vlq(segment.column - column);
      column = segment.column;
      if (segment.source !== undefined) {
        field += vlq(segment.source - source) + vlq(segment.line! - line) +
          vlq(segment.sourceColumn! - sourceColumn);
        source = segment.source;
        line = segment.line!;
        sourceColumn = segment.sourceColumn!;
        if (segment.name !== undefined) {
          field += vlq(segment.name - name);
          name = segment.name;
        }
      }
      return field;
    }).join(",");
  }).join(";");
}

/**
 * The segment that covers a generated position: the last one on that line
 * at or before the column (what a stack trace's position maps to).
 */
export function segmentAt(
  lines: Segment[][],
  line: number,
  column: number,
): Segment | undefined {
  let found: Segment | undefined;
  for (const segment of lines[line] ?? []) {
    if (segment.column > column) break;
    found = segment;
  }
  return found;
}

function vlqValues(field: string): number[] {
  const values: number[] = [];
  let value = 0, shift = 0;
  for (const char of field) {
    const digit = DIGIT.get(char);
    if (digit === undefined) {
      throw new Error(`a source map's mappings hold ${JSON.stringify(char)}`);
    }
    value += (digit & 31) << shift;
    if (digit & 32) shift += 5;
    else {
      values.push(value & 1 ? -(value >>> 1) : value >>> 1);
      value = shift = 0;
    }
  }
  return values;
}

function vlq(value: number): string {
  let rest = value < 0 ? (-value << 1) | 1 : value << 1;
  let out = "";
  do {
    const digit = rest & 31;
    rest >>>= 5;
    out += BASE64[rest > 0 ? digit | 32 : digit];
  } while (rest > 0);
  return out;
}
