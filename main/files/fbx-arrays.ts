// The structure of a binary FBX, followed from its node headers before anything is inflated (against decompression
// bombs) and before Babylon's loader sees it: each array property (f, d, l, i, b, c) starts with its element count,
// its encoding (0 raw, 1 zlib) and its stored length; a reader allocates count × element size and inflates into it.
// A 1 MB FBX whose compressed arrays declare billions of elements took 19 s and 1.2 GB to read; the declared total
// is checked here first (FBX_READ_LIMITS of limits.ts). What this walk cannot follow is refused, never passed: a
// property type it does not know, nodes nested deeper than the limit, a node or property running past its parent.
// Big-endian files (the flag byte after the magic, as Babylon's loader reads it) are followed in their byte order.
import type { FileHandle } from 'node:fs/promises';
import { formatBytes } from '../../shared/format-bytes.ts';
import { signatureOf } from '../../shared/file-signature.ts';
import { FBX_READ_LIMITS } from './limits.ts';

/** Most bytes of arrays one FBX may declare in all, as the local engine reads them: 256 MiB. */
export const MAX_FBX_ARRAY_BYTES = FBX_READ_LIMITS.arrayBytes;

/** Element sizes of the array types Babylon's loader reads (`c` is a byte array like `b`). */
const ELEMENT_BYTES: Record<string, number> = { f: 4, d: 8, l: 8, i: 4, b: 1, c: 1 };
/** Sizes of its scalar types (`Z` a byte, as `C`). */
const SCALAR_BYTES: Record<string, number> = { Y: 2, C: 1, Z: 1, I: 4, F: 4, D: 8, L: 8 };
const HEADER_BYTES = 27; // the magic (21 bytes), 0x1a, the byte-order flag, the version (uint32)
const WINDOW_BYTES = 2 ** 20;
const AGAIN = 'Export it again from your 3D tool as a binary FBX (version 7.x) or an ASCII FBX';

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

/** Thrown inside the walk: why the structure cannot be followed, at which byte. */
class Unfollowable extends Error {}

/**
 * Why an FBX cannot be given to the engine's reader, completing "The FBX …": more than FBX_READ_LIMITS.fileBytes
 * (any FBX, binary or ASCII); or, for a binary FBX, arrays declaring more than `maxBytes` in all (element counts ×
 * element sizes), or a structure this walk cannot follow. Undefined when it can be read (an ASCII FBX or other
 * bytes within the size: their readers say what is wrong). Nothing is inflated.
 */
export async function fbxArrayProblem(
  read: ReadAt,
  size: number,
  maxBytes = MAX_FBX_ARRAY_BYTES,
): Promise<string | undefined> {
  if (size > FBX_READ_LIMITS.fileBytes)
    return `is ${formatBytes(size)}, more than the ${formatBytes(FBX_READ_LIMITS.fileBytes)} the local engine reads of an FBX (the service takes larger ones). Export it without embedded media, or with fewer polygons`;
  const head = await read(0, HEADER_BYTES);
  if (signatureOf(head) !== 'fbx') return undefined; // its first 21 bytes, as the loader checks them (not the flag)
  if (head.length < HEADER_BYTES) return `cannot be read: its binary FBX header is cut off. ${AGAIN}`;
  try {
    return await walk(read, size, head, maxBytes);
  } catch (error) {
    if (error instanceof Unfollowable)
      return `cannot be checked before it is read (${error.message}), so the local engine does not read it. ${AGAIN}`;
    throw error;
  }
}

async function walk(read: ReadAt, size: number, head: Buffer, maxBytes: number): Promise<string | undefined> {
  const little = head[22] === 0; // Babylon's loader reads the file big-endian when this byte is not 0
  const u32 = (b: Buffer, at: number) => (little ? b.readUInt32LE(at) : b.readUInt32BE(at));
  const u64 = (b: Buffer, at: number) => {
    const n = little ? b.readBigUInt64LE(at) : b.readBigUInt64BE(at);
    if (n > BigInt(Number.MAX_SAFE_INTEGER)) throw new Unfollowable(`a node header declares ${n}`);
    return Number(n);
  };
  const wide = u32(head, 23) >= 7500; // 64-bit node headers from FBX 7.5
  const headerBytes = wide ? 25 : 13;
  const limit = `more than the ${formatBytes(maxBytes)} of arrays in all the local engine reads of an FBX`;
  let total = 0;

  /** Exactly `length` bytes at `at` within `end`, else the structure breaks there. */
  async function need(at: number, length: number, end: number, what: string): Promise<Buffer> {
    const bytes = at + length <= end ? await read(at, length) : Buffer.alloc(0);
    if (bytes.length < length) throw new Unfollowable(`${what} at byte ${at} runs past its node or the file's end`);
    return bytes;
  }

  /** The nodes from `pos` up to `end` (or their null record); a problem with their arrays, or undefined. */
  async function list(pos: number, end: number, depth: number): Promise<string | undefined> {
    if (depth > FBX_READ_LIMITS.depth)
      throw new Unfollowable(`its nodes are nested more than ${FBX_READ_LIMITS.depth} deep`);
    while (pos < end) {
      const h = await need(pos, headerBytes, end, 'a node header');
      const endOffset = wide ? u64(h, 0) : u32(h, 0);
      const count = wide ? u64(h, 8) : u32(h, 4);
      const propertyBytes = wide ? u64(h, 16) : u32(h, 8);
      const nameLength = h[headerBytes - 1]!;
      if (endOffset === 0) return undefined; // the null record ending the list
      if (endOffset <= pos || endOffset > end)
        throw new Unfollowable(`the node at byte ${pos} ends at byte ${endOffset}, outside its parent`);
      const name = (await need(pos + headerBytes, nameLength, endOffset, 'a node name')).toString('latin1');
      const propertiesStart = pos + headerBytes + nameLength;
      const propertiesEnd = propertiesStart + propertyBytes;
      if (propertiesEnd > endOffset)
        throw new Unfollowable(`the properties of its node "${name}" run past the node's end`);
      let at = propertiesStart;
      for (let p = 0; p < count; p++) {
        const type = (await need(at, 1, propertiesEnd, 'a property type')).toString('latin1');
        at += 1;
        if (SCALAR_BYTES[type] !== undefined) at += SCALAR_BYTES[type];
        else if (type === 'S' || type === 'R') at += 4 + u32(await need(at, 4, propertiesEnd, 'a length'), 0);
        else if (ELEMENT_BYTES[type] !== undefined) {
          const a = await need(at, 12, propertiesEnd, 'an array header');
          const elements = u32(a, 0);
          const encoding = u32(a, 4);
          const stored = u32(a, 8);
          const bytes = elements * ELEMENT_BYTES[type];
          if (encoding !== 0 && encoding !== 1)
            throw new Unfollowable(`an array of its node "${name}" has the unknown encoding ${encoding}`);
          if (encoding === 0 && stored !== bytes)
            throw new Unfollowable(`an array of its node "${name}" stores ${stored} bytes for ${elements} elements`);
          total += bytes;
          if (bytes > maxBytes)
            return `declares an array of ${elements} elements (${formatBytes(bytes)}) in its node "${name}", ${limit}`;
          if (total > maxBytes) return `declares arrays of ${formatBytes(total)} by its node "${name}", ${limit}`;
          at += 12 + stored;
        } else
          throw new Unfollowable(
            `its node "${name}" has a property of type ${JSON.stringify(type)} at byte ${at - 1}, which FBX does not define`,
          );
        if (at > propertiesEnd) throw new Unfollowable(`a property of its node "${name}" runs past its properties`);
      }
      if (at !== propertiesEnd)
        throw new Unfollowable(`the properties of its node "${name}" do not fill the length it declares`);
      if (at < endOffset) {
        const nested = await list(at, endOffset, depth + 1);
        if (nested !== undefined) return nested;
      }
      pos = endOffset;
    }
    return undefined;
  }

  return list(HEADER_BYTES, size, 0);
}
