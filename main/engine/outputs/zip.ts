// Minimal ZIP writer: deflated entries, local headers, central directory and end record (no ZIP64).
import { crc32, deflateRawSync } from 'node:zlib';

export interface ZipEntry {
  name: string;
  data: Buffer;
}

const LOCAL_HEADER = 0x04034b50;
const CENTRAL_HEADER = 0x02014b50;
const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const VERSION = 20; // 2.0: deflate
const UTF8_NAMES = 0x0800;
const DEFLATE = 8;
const DOS_DATE_1980_01_01 = (0 << 9) | (1 << 5) | 1; // a fixed timestamp keeps archives byte-identical

export function buildZip(entries: ZipEntry[]): Buffer {
  if (entries.length > 0xffff) throw new RangeError('too many ZIP entries (ZIP64 is not supported)');
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const compressed = deflateRawSync(entry.data);
    // Fields shared by both headers, from "version needed" to "file name length".
    const common = Buffer.alloc(26);
    common.writeUInt16LE(VERSION, 0);
    common.writeUInt16LE(UTF8_NAMES, 2);
    common.writeUInt16LE(DEFLATE, 4);
    common.writeUInt16LE(0, 6); // time 00:00:00
    common.writeUInt16LE(DOS_DATE_1980_01_01, 8);
    common.writeUInt32LE(crc32(entry.data), 10);
    common.writeUInt32LE(compressed.length, 14);
    common.writeUInt32LE(entry.data.length, 18);
    common.writeUInt16LE(name.length, 22);
    common.writeUInt16LE(0, 24); // extra field length

    const local = Buffer.concat([u32(LOCAL_HEADER), common, name, compressed]);
    const central = Buffer.concat([
      u32(CENTRAL_HEADER),
      u16(VERSION), // version made by
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
