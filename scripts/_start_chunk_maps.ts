// Private to scripts/_start_chunk.ts: the source maps of the start chunk
// (composed through the second bundling pass) and of the chunks whose
// imports of it were rewritten (columns moved), so that a stack trace from the
// bundle still names the TypeScript source and line.

import { decodeMappings, encodeMappings, type Segment, segmentAt } from "./_source_map_segments.ts";

/**
 * The merged chunk's map, from the second pass's (merged → chunks) and each
 * chunk's own (chunk → sources): every position maps where the chunk's map
 * said its code came from. The second pass maps to each chunk as Deno's
 * loader gave it to the bundler (printed again, with other whitespace: the
 * map's `sourcesContent`), so a position there is first found in the chunk
 * as written, character by character outside whitespace.
 */
export function composedMap(
  passMap: string,
  chunks: Map<string, { text: string; map: string | undefined }>,
  name: string,
): string {
  const pass = JSON.parse(passMap);
  const sources: string[] = [];
  const index = (source: string) => {
    const at = sources.indexOf(source);
    return at >= 0 ? at : sources.push(source) - 1;
  };
  const inputs = (pass.sources as string[]).map((path, at) => {
    const chunk = chunks.get(path.split("/").pop()!);
    if (chunk?.map === undefined) return undefined;
    const map = JSON.parse(chunk.map);
    const printed: string = pass.sourcesContent?.[at] ?? chunk.text;
    return {
      sources: (map.sources ?? []) as string[],
      lines: decodeMappings(map.mappings ?? ""),
      printed: lineStarts(printed),
      written: lineStarts(chunk.text),
      offsets: alignedOffsets(printed, chunk.text),
    };
  });
  const lines = decodeMappings(pass.mappings).map((segments) =>
    segments.flatMap((segment): Segment[] => {
      if (segment.source === undefined) return [];
      const input = inputs[segment.source];
      if (input === undefined) return [];
      const printedAt = (input.printed[segment.line!] ?? 0) + segment.sourceColumn!;
      const offset = input.offsets[Math.min(printedAt, input.offsets.length - 1)];
      const at = position(input.written, offset);
      const found = segmentAt(input.lines, at.line, at.column);
      if (found?.source === undefined) return [];
      return [{
        column: segment.column,
        source: index(input.sources[found.source]),
        line: found.line,
        sourceColumn: found.sourceColumn,
      }];
    })
  );
  return JSON.stringify({
    version: 3,
    file: name,
    sources,
    names: [],
    mappings: encodeMappings(lines),
  });
}

/** The offset each line of a text starts at. */
function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) starts.push(i + 1);
  return starts;
}

/** The line and column of an offset, from the text's line starts. */
function position(starts: number[], offset: number): { line: number; column: number } {
  let low = 0, high = starts.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (starts[mid] <= offset) low = mid;
    else high = mid - 1;
  }
  return { line: low, column: offset - starts[low] };
}

/**
 * For each offset of `printed`, the offset of the same character in
 * `written` (the same code, whitespace aside; where the printer changed a
 * few characters the two are aligned again on the next eight that agree).
 * A blank maps to the next character that maps.
 */
function alignedOffsets(printed: string, written: string): Int32Array {
  const solid = (text: string) => {
    const at: number[] = [];
    let chars = "";
    for (let i = 0; i < text.length; i++) {
      if (!/\s/.test(text[i])) {
        at.push(i);
        chars += text[i];
      }
    }
    return { at, chars };
  };
  const p = solid(printed), w = solid(written);
  const offsets = new Int32Array(printed.length + 1).fill(-1);
  let i = 0, j = 0;
  while (i < p.chars.length && j < w.chars.length) {
    if (p.chars[i] === w.chars[j]) {
      offsets[p.at[i++]] = w.at[j++];
      continue;
    }
    let moved = false;
    for (let d = 1; d <= 64 && !moved; d++) {
      if (p.chars.startsWith(w.chars.slice(j, j + 8), i + d)) [i, moved] = [i + d, true];
      else if (w.chars.startsWith(p.chars.slice(i, i + 8), j + d)) [j, moved] = [j + d, true];
    }
    if (!moved) [i, j] = [i + 1, j + 1];
  }
  let next = written.length;
  for (let k = printed.length; k >= 0; k--) {
    if (offsets[k] === -1) offsets[k] = next;
    else next = offsets[k];
  }
  return offsets;
}

/** A map with each segment after an edit on its line moved by what the edits before it grew. */
export function movedColumns(
  mapText: string,
  text: string,
  edits: Array<{ start: number; end: number; text: string }>,
): string {
  const map = JSON.parse(mapText);
  const lines = decodeMappings(map.mappings);
  const lineStarts = [0];
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) lineStarts.push(i + 1);
  const position = (offset: number) => {
    let line = 0;
    while (line + 1 < lineStarts.length && lineStarts[line + 1] <= offset) line++;
    return { line, column: offset - lineStarts[line] };
  };
  // Last edit first: an earlier edit's columns are those of the original line.
  for (const edit of [...edits].reverse()) {
    const start = position(edit.start);
    const end = position(edit.end);
    if (start.line !== end.line) throw new Error("an import spans lines: its map cannot be moved");
    const delta = edit.text.length - (edit.end - edit.start);
    for (const segment of lines[start.line] ?? []) {
      if (segment.column >= end.column) segment.column += delta;
      else if (segment.column > start.column) segment.column = start.column;
    }
  }
  map.mappings = encodeMappings(lines);
  return JSON.stringify(map);
}
