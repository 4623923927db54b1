// Reads the entries of a ZIP archive in the page (a USDZ package, a zip of FBX files): stored entries, and
// deflated ones through DecompressionStream. Only the central directory is trusted for names and sizes (a
// local header may defer them to a data descriptor). No ZIP64, no encryption. Every message names the
// archive as the caller calls it (`what`: "USDZ package", "zip"). Plain TypeScript with no DOM or Babylon
// imports: the unit tests run it in Node.

export interface ArchiveEntry {
  name: string;
  /** 0 stored, 8 deflated. */
  method: number;
  size: number;
  compressedSize: number;
  /** Where the entry's (compressed) data starts in the archive. */
  offset: number;
}

const LOCAL_HEADER = 0x04034b50;
const CENTRAL_HEADER = 0x02014b50;
const END_OF_CENTRAL_DIRECTORY = 0x06054b50;

export class ZipError extends Error {
  override name = 'ZipError';
}

/** Whether the bytes start like a ZIP archive (a local file header). */
export function isZip(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;
}

/** Whether `readEntry` reads the entry: stored or deflated. */
export function readable(entry: ArchiveEntry): boolean {
  return entry.method === 0 || entry.method === 8;
}

/** The archive's entries, in the central directory's order; a ZipError names what is wrong with the archive. */
export function listEntries(bytes: Uint8Array, what = 'zip'): ArchiveEntry[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // The end record is 22 bytes plus a comment of up to 65535 bytes.
  let end = -1;
  for (let at = bytes.length - 22; at >= Math.max(0, bytes.length - 22 - 0xffff); at--) {
    if (view.getUint32(at, true) === END_OF_CENTRAL_DIRECTORY) {
      end = at;
      break;
    }
  }
  if (end < 0)
    throw new ZipError(`This file is not a ${what}: no ZIP directory was found (the file may be cut short).`);
  const count = view.getUint16(end + 10, true);
  let at = view.getUint32(end + 16, true);
  if (count === 0xffff || at === 0xffffffff)
    throw new ZipError(`This ${what} is a ZIP64 archive, which the built-in reader does not read.`);
  const entries: ArchiveEntry[] = [];
  const decoder = new TextDecoder();
  for (let i = 0; i < count; i++) {
    if (at + 46 > bytes.length || view.getUint32(at, true) !== CENTRAL_HEADER)
      throw new ZipError(`This ${what} is damaged: its ZIP directory is broken.`);
    const flags = view.getUint16(at + 8, true);
    const method = view.getUint16(at + 10, true);
    const compressedSize = view.getUint32(at + 20, true);
    const size = view.getUint32(at + 24, true);
    const nameLength = view.getUint16(at + 28, true);
    const extraLength = view.getUint16(at + 30, true);
    const commentLength = view.getUint16(at + 32, true);
    const local = view.getUint32(at + 42, true);
    const name = decoder.decode(bytes.subarray(at + 46, at + 46 + nameLength));
    if (flags & 1) throw new ZipError(`This ${what} is encrypted (${name}), which the built-in reader does not read.`);
    if (local + 30 > bytes.length || view.getUint32(local, true) !== LOCAL_HEADER)
      throw new ZipError(`This ${what} is damaged: the entry ${name} is missing.`);
    const offset = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
    if (offset + compressedSize > bytes.length)
      throw new ZipError(`This ${what} is damaged: the entry ${name} is cut short.`);
    entries.push({ name, method, size, compressedSize, offset });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/** An entry's bytes: stored entries are views into `bytes` (no copy), deflated ones are inflated. */
export async function readEntry(bytes: Uint8Array, entry: ArchiveEntry, what = 'zip'): Promise<Uint8Array> {
  const data = bytes.subarray(entry.offset, entry.offset + entry.compressedSize);
  if (entry.method === 0) return data;
  if (!readable(entry))
    throw new ZipError(
      `The entry ${entry.name} of this ${what} is compressed with ZIP method ${entry.method}, which the built-in reader does not read.`,
    );
  const stream = new Blob([data.slice()]).stream().pipeThrough(new DecompressionStream('deflate-raw'));
  const out = new Uint8Array(await new Response(stream).arrayBuffer());
  if (out.length !== entry.size)
    throw new ZipError(
      `This ${what} is damaged: the entry ${entry.name} inflates to ${out.length} bytes, not ${entry.size}.`,
    );
  return out;
}
