// The arrays a binary FBX declares, read from their headers before anything is inflated (against decompression
// bombs): each array property (f, d, l, i, b) starts with its element count, its encoding (0 raw, 1 zlib) and
// its stored length; a reader allocates count × element size and inflates into it. A 1 MB FBX whose compressed
// arrays declare billions of elements took 19 s and 1.2 GB to read; the declared total is checked here first.
import type { FileHandle } from 'node:fs/promises';
import { formatBytes } from '../../shared/format-bytes.ts';
import { isBinaryFbxStart } from '../../shared/file-signature.ts';

/** Most bytes of arrays one FBX may declare in all, as the local engine reads them: 256 MiB. */
export const MAX_FBX_ARRAY_BYTES = 256 * 2 ** 20;

const ELEMENT_BYTES: Record<string, number> = { f: 4, d: 8, l: 8, i: 4, b: 1 };
const SCALAR_BYTES: Record<string, number> = { Y: 2, C: 1, I: 4, F: 4, D: 8, L: 8 };
const HEADER_BYTES = 27; // the magic (23 bytes) and the version (uint32)
const WINDOW_BYTES = 2 ** 20;

/** Bytes at a position (fewer at the end). */
export type ReadAt = (position: number, length: number) => Promise<Buffer>;

/** A ReadAt over a buffer. */
export function bufferReader(bytes: Uint8Array): ReadAt {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return async (position, length) => b.subarray(position, position + length);
}

/** A ReadAt over an open file, reading a window of 1 MiB at a time (node headers are small and close together). */
export function fileReader(handle: FileHandle): ReadAt {
  let start = 0;
  let window = Buffer.alloc(0);
  return async (position, length) => {
    if (position < start || position + length > start + window.length) {
      const buffer = Buffer.alloc(Math.max(length, WINDOW_BYTES));
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, position);
      start = position;
      window = buffer.subarray(0, bytesRead);
    }
    return window.subarray(position - start, position - start + length);
  };
}

/**
 * Why a binary FBX's arrays cannot be read within `maxBytes` (declared element counts × element sizes, in all),
 * completing "The FBX …"; undefined when they can, or when the file is not a binary FBX or its structure cannot be
 * followed (the reader says what is wrong then). Nothing is inflated.
 */
export async function fbxArrayProblem(
  read: ReadAt,
  size: number,
  maxBytes = MAX_FBX_ARRAY_BYTES,
): Promise<string | undefined> {
  const head = await read(0, HEADER_BYTES);
  if (head.length < HEADER_BYTES || !isBinaryFbxStart(head)) return undefined;
  const wide = head.readUInt32LE(23) >= 7500; // 64-bit node headers from FBX 7.5
  let total = 0;
  const limit = `more than the ${formatBytes(maxBytes)} of arrays in all the local engine reads of an FBX`;

  /** The nodes from `pos` up to `end` (or their null record); a problem, 'stop' when the structure breaks, or undefined. */
  async function list(pos: number, end: number, depth: number): Promise<string | 'stop' | undefined> {
    if (depth > 64) return 'stop';
    while (pos < end) {
      const h = await read(pos, wide ? 25 : 13);
      if (h.length < (wide ? 25 : 13)) return 'stop';
      const endOffset = wide ? Number(h.readBigUInt64LE(0)) : h.readUInt32LE(0);
      const count = wide ? Number(h.readBigUInt64LE(8)) : h.readUInt32LE(4);
      const nameLength = h[wide ? 24 : 12]!;
      if (endOffset === 0) return undefined; // the null record ending the list
      if (endOffset <= pos || endOffset > end) return 'stop';
      const name = (await read(pos + (wide ? 25 : 13), nameLength)).toString('latin1');
      let at = pos + (wide ? 25 : 13) + nameLength;
      for (let p = 0; p < count; p++) {
        const type = (await read(at, 1)).toString('latin1');
        at += 1;
        if (SCALAR_BYTES[type] !== undefined) at += SCALAR_BYTES[type];
        else if (type === 'S' || type === 'R') {
          const l = await read(at, 4);
          if (l.length < 4) return 'stop';
          at += 4 + l.readUInt32LE(0);
        } else if (ELEMENT_BYTES[type] !== undefined) {
          const a = await read(at, 12);
          if (a.length < 12) return 'stop';
          const elements = a.readUInt32LE(0);
          const bytes = elements * ELEMENT_BYTES[type];
          total += bytes;
          if (bytes > maxBytes)
            return `declares an array of ${elements} elements (${formatBytes(bytes)}) in its node "${name}", ${limit}`;
          if (total > maxBytes) return `declares arrays of ${formatBytes(total)} by its node "${name}", ${limit}`;
          at += 12 + a.readUInt32LE(8);
        } else return 'stop';
        if (at > endOffset) return 'stop';
      }
      if (at < endOffset) {
        const nested = await list(at, endOffset, depth + 1);
        if (nested !== undefined) return nested;
      }
      pos = endOffset;
    }
    return undefined;
  }

  const found = await list(HEADER_BYTES, size, 0);
  return found === 'stop' ? undefined : found;
}
