// Minimal ZIP writer: deflated (or stored, optionally aligned) entries, local headers, central directory
// and end record (no ZIP64).
import { crc32, deflateRawSync } from 'node:zlib';

export interface ZipEntry {
  name: string;
  data: Buffer;
}

const LOCAL_HEADER = 0x04034b50;
const CENTRAL_HEADER = 0x02014b50;
const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const VERSION_DEFLATE = 20; // 2.0
const VERSION_STORE = 10; // 1.0
const UTF8_NAMES = 0x0800;
const DEFLATE = 8;
const STORE = 0;
const PADDING_EXTRA_ID = 0x1986; // the extra-field id Pixar's usdzip uses for alignment padding

export interface ZipOptions {
  /** `store` keeps entries uncompressed (as USDZ requires); default `deflate`. */
  method?: 'deflate' | 'store';
  /** Start every entry's data on a multiple of this many bytes (padding in the local extra field). */
  align?: number;
}
const DOS_DATE_1980_01_01 = (0 << 9) | (1 << 5) | 1; // a fixed timestamp keeps archives byte-identical

export function buildZip(entries: ZipEntry[], options: ZipOptions = {}): Buffer {
  const stored = options.method === 'store';
  const version = stored ? VERSION_STORE : VERSION_DEFLATE;
  if (entries.length > 0xffff) throw new RangeError('too many ZIP entries (ZIP64 is not supported)');
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const compressed = stored ? entry.data : deflateRawSync(entry.data);
    const extra = alignmentPadding(offset + 30 + name.length, options.align);
    // Fields shared by both headers, from "version needed" to "file name length".
    const common = Buffer.alloc(26);
    common.writeUInt16LE(version, 0);
    common.writeUInt16LE(UTF8_NAMES, 2);
    common.writeUInt16LE(stored ? STORE : DEFLATE, 4);
    common.writeUInt16LE(0, 6); // time 00:00:00
    common.writeUInt16LE(DOS_DATE_1980_01_01, 8);
    common.writeUInt32LE(crc32(entry.data), 10);
    common.writeUInt32LE(compressed.length, 14);
    common.writeUInt32LE(entry.data.length, 18);
    common.writeUInt16LE(name.length, 22);
    common.writeUInt16LE(0, 24); // extra field length (of the central header; the local one may pad)

    const localCommon = Buffer.from(common);
    localCommon.writeUInt16LE(extra.length, 24);
    const local = Buffer.concat([u32(LOCAL_HEADER), localCommon, name, extra, compressed]);
    const central = Buffer.concat([
      u32(CENTRAL_HEADER),
      u16(version), // version made by
      common,
      Buffer.alloc(10), // comment length, disk number, internal (2) and external (4) attributes
      u32(offset),
      name,
    ]);
    locals.push(local);
    centrals.push(central);
    offset += local.length;
    if (offset > 0xffffffff) throw new RangeError('ZIP larger than 4 GiB (ZIP64 is not supported)');
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(END_OF_CENTRAL_DIRECTORY, 0);
  end.writeUInt16LE(entries.length, 8); // entries on this disk
  end.writeUInt16LE(entries.length, 10); // entries in total
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** An extra field that moves the entry's data, which starts after it, to the next multiple of `align`. */
function alignmentPadding(dataStart: number, align: number | undefined): Buffer {
  if (!align) return Buffer.alloc(0);
  const pad = (align - ((dataStart + 4) % align)) % align;
  const extra = Buffer.alloc(4 + pad);
  extra.writeUInt16LE(PADDING_EXTRA_ID, 0);
  extra.writeUInt16LE(pad, 2);
  return extra;
}

function u16(n: number): Buffer {
  const b = Buffer.alloc(2);
  b.writeUInt16LE(n);
  return b;
}

function u32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n);
  return b;
}
