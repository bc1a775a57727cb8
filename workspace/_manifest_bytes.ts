// Private: the byte-level guards of manifest reading: UTF-8 length, strict
// UTF-8 decoding with the position of the first bad byte, bounded reads.

import { ManifestError } from "./errors.ts";

/** The UTF-8 length of a text. */
export function utf8Length(text: string, limit: number): number {
  if (text.length * 3 <= limit) return text.length; // cannot exceed the limit
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/** The first byte that is not valid UTF-8, or -1. */
function invalidUtf8At(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i];
    let need: number;
    let min: number;
    if (b < 0x80) {
      i++;
      continue;
    } else if (b >= 0xc2 && b <= 0xdf) [need, min] = [1, 0x80];
    else if (b >= 0xe0 && b <= 0xef) [need, min] = [2, 0x800];
    else if (b >= 0xf0 && b <= 0xf4) [need, min] = [3, 0x10000];
    else return i;
    if (i + need >= bytes.length) return i;
    let cp = b & (0x3f >> need);
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k];
      if (c === undefined || (c & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (c & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += need + 1;
  }
  return -1;
}

/**
 * Decodes manifest bytes as strict UTF-8.
 *
 * @throws {ManifestError} At the first invalid byte (offset, line and column).
 */
export function decodeManifest(bytes: Uint8Array, file: string): string {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch (cause) {
    const at = Math.max(0, invalidUtf8At(bytes));
    let line = 1;
    let lineStart = 0;
    for (let i = 0; i < at; i++) {
      if (bytes[i] === 0x0a) {
        line++;
        lineStart = i + 1;
      }
    }
    const column = new TextDecoder().decode(bytes.subarray(lineStart, at)).length + 1;
    throw new ManifestError([{
      file,
      line,
      column,
      path: "",
      message: `invalid UTF-8 at byte offset ${at} (byte 0x${
        bytes[at]?.toString(16).padStart(2, "0") ?? "??"
      }); a manifest must be UTF-8 text`,
    }], { cause });
  }
}

/** Reads at most `max` bytes of a file. */
export async function readAtMost(file: Deno.FsFile, max: number): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (size < max) {
    const buf = new Uint8Array(Math.min(64 * 1024, max - size));
    const n = await file.read(buf);
    if (n === null) break;
    chunks.push(buf.subarray(0, n));
    size += n;
  }
  const out = new Uint8Array(size);
  let offset = 0;
  for (const c of chunks) {
    out.set(c, offset);
    offset += c.length;
  }
  return out;
}
