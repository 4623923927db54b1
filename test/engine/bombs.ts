// Decompression bombs for the tests (issue #26 item 6), built by code: a few bytes that declare far more
// pixels, array elements or uncompressed bytes than any reader should allocate.
import { constants, crc32, deflateRawSync, deflateSync } from 'node:zlib';

const u16le = (n: number) => {
  const b = Buffer.alloc(2);
  b.writeUInt16LE(n);
  return b;
};

/** A GIF image descriptor and its (tiny, never decoded) pixel data: `width`×`height` declared. */
function gifFrame(width: number, height: number): Buffer {
  return Buffer.concat([
    Buffer.from([0x2c]),
    u16le(0),
    u16le(0),
    u16le(width),
    u16le(height),
    Buffer.from([0x00]), // no local colour table
    Buffer.from([0x02, 0x02, 0x4c, 0x01, 0x00]), // LZW minimum code size, one sub-block, its end
  ]);
}

/**
 * A 35-byte GIF whose logical screen is 16×16 (it passes a check of the screen) and whose frame declares
 * `width`×`height`; with `before` small frames ahead of it, the bomb is frame `before + 1`.
 */
export function gifBomb(width = 30_000, height = 30_000, before = 0): Buffer {
  return Buffer.concat([
    Buffer.from('GIF89a', 'latin1'),
    u16le(16),
    u16le(16),
    Buffer.from([0x80, 0x00, 0x00]), // a global colour table of 2 entries
    Buffer.from([0, 0, 0, 255, 255, 255]),
    ...Array.from({ length: before }, () => gifFrame(16, 16)),
    gifFrame(width, height),
    Buffer.from([0x3b]),
  ]);
}

const ZERO_BLOCK_BYTES = 2 ** 20;

/**
 * `n` zero bytes deflated (raw deflate; `zlib` wraps them with the zlib header and Adler-32) without ever holding
 * them: one megabyte of zeros deflated and flushed (a block that ends byte-aligned, its window reset) repeated,
 * the rest, then an empty final block. Deflating a buffer of hundreds of MiB of zeros took as much resident memory
 * (Node zero-fills it), which hid what the readers allocate under the bomb test's "before".
 */
export function deflatedZeros(n: number, zlib = false): Buffer {
  const flushed = (bytes: number) =>
    deflateRawSync(Buffer.alloc(bytes), { level: 9, finishFlush: constants.Z_FULL_FLUSH });
  const whole = Math.floor(n / ZERO_BLOCK_BYTES);
  const block = whole > 0 ? flushed(ZERO_BLOCK_BYTES) : Buffer.alloc(0);
  const parts = [
    ...Array.from({ length: whole }, () => block),
    ...(n % ZERO_BLOCK_BYTES > 0 ? [flushed(n % ZERO_BLOCK_BYTES)] : []),
    Buffer.from([0x03, 0x00]), // an empty final block (fixed Huffman)
  ];
  if (!zlib) return Buffer.concat(parts);
  const adler = Buffer.alloc(4); // Adler-32 of n zeros: a = 1, b = n (mod 65521)
  adler.writeUInt32BE((((n % 65521) << 16) | 1) >>> 0);
  return Buffer.concat([Buffer.from([0x78, 0xda]), ...parts, adler]);
}

/** CRC-32 of `n` zero bytes, computed a megabyte at a time. */
export function crc32OfZeros(n: number): number {
  const block = Buffer.alloc(Math.min(n, ZERO_BLOCK_BYTES));
  let crc = 0;
  for (let left = n; left > 0; left -= block.length) crc = crc32(block.subarray(0, Math.min(left, block.length)), crc);
  return crc;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])));
  return Buffer.concat([head, data, crc]);
}

/** A PNG whose IHDR declares `width`×`height` RGBA pixels, with `idatBytes` of zeros deflated as its data (a real bomb when large). */
export function pngBomb(width = 50_000, height = 50_000, idatBytes = 1 << 20): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 6, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', deflatedZeros(idatBytes, true)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A JPEG whose frame header (SOF0) declares `width`×`height` (65535² at most). */
export function jpegBomb(width = 65_535, height = 65_535): Buffer {
  const sof = Buffer.from([0xff, 0xc0, 0x00, 0x11, 0x08, 0, 0, 0, 0, 0x03, 1, 0x11, 0, 2, 0x11, 0, 3, 0x11, 0]);
  sof.writeUInt16BE(height, 5);
  sof.writeUInt16BE(width, 7);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), sof, Buffer.from([0xff, 0xd9])]);
}

/** A GLB (glTF 2.0 binary) with one mesh-less scene and `png` as its one image (a texture of a material). */
export function glbWithTexture(png: Buffer): Buffer {
  const json = {
    asset: { version: '2.0' },
    buffers: [{ byteLength: png.length }],
    bufferViews: [{ buffer: 0, byteOffset: 0, byteLength: png.length }],
    images: [{ bufferView: 0, mimeType: 'image/png' }],
    textures: [{ source: 0 }],
    materials: [{ pbrMetallicRoughness: { baseColorTexture: { index: 0 } } }],
    scenes: [{ nodes: [] }],
    scene: 0,
  };
  const pad = (b: Buffer, fill: number) => Buffer.concat([b, Buffer.alloc((4 - (b.length % 4)) % 4, fill)]);
  const jsonChunk = pad(Buffer.from(JSON.stringify(json)), 0x20);
  const binChunk = pad(png, 0);
  const chunk = (type: string, data: Buffer) => {
    const head = Buffer.alloc(8);
    head.writeUInt32LE(data.length, 0);
    head.write(type, 4, 'latin1');
    return Buffer.concat([head, data]);
  };
  const body = Buffer.concat([chunk('JSON', jsonChunk), chunk('BIN\0', binChunk)]);
  const header = Buffer.alloc(12);
  header.write('glTF', 0, 'latin1');
  header.writeUInt32LE(2, 4);
  header.writeUInt32LE(12 + body.length, 8);
  return Buffer.concat([header, body]);
}

export interface ZipEntrySpec {
  name: string;
  /** The bytes stored (deflated unless `stored`). */
  data: Buffer;
  /** The uncompressed size written in the headers (default: the real one): a lie makes a bomb that hides. */
  declaredSize?: number;
  stored?: boolean;
  /** Instead of `data`: that many zero bytes, deflated without being held (deflatedZeros). */
  zeros?: number;
}

const uint16 = (value: number) => {
  const bytes = Buffer.alloc(2);
  bytes.writeUInt16LE(value);
  return bytes;
};
const uint32 = (value: number) => {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32LE(value);
  return bytes;
};

/** A zip archive of the given entries (deflated), with sizes as declared. */
export function zipOf(entries: ZipEntrySpec[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name);
    const packed = e.zeros !== undefined ? deflatedZeros(e.zeros) : e.stored ? e.data : deflateRawSync(e.data);
    const size = e.declaredSize ?? e.zeros ?? e.data.length;
    const crc = e.zeros !== undefined ? crc32OfZeros(e.zeros) : crc32(e.data);
    // The fields both headers share, from "version needed" (2.0) to "extra field length" (0), as main/formats/zip.ts.
    const common = Buffer.alloc(26);
    common.writeUInt16LE(20, 0);
    common.writeUInt16LE(e.stored ? 0 : 8, 4);
    common.writeUInt32LE(crc, 10);
    common.writeUInt32LE(packed.length, 14);
    common.writeUInt32LE(size, 18);
    common.writeUInt16LE(name.length, 22);
    const local = Buffer.concat([uint32(0x04034b50), common]);
    // Then "version made by" before them, and after them comment length, disk, attributes (zeros) and the offset.
    const central = Buffer.concat([uint32(0x02014b50), uint16(20), common, Buffer.alloc(10), uint32(offset)]);
    locals.push(local, name, packed);
    centrals.push(central, name);
    offset += 30 + name.length + packed.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

/**
 * A binary FBX (7.4) with one node "Vertices" whose double array declares `elements` elements, stored zlib-compressed
 * from `storedBytes` of zeros: about 1 KiB that a reader would inflate into elements × 8 bytes.
 */
export function fbxBomb(elements = 200_000_000, storedBytes = 2 ** 20): Buffer {
  const compressed = deflateSync(Buffer.alloc(storedBytes), { level: 9 });
  const array = Buffer.alloc(13);
  array.write('d', 0, 'latin1');
  array.writeUInt32LE(elements, 1);
  array.writeUInt32LE(1, 5); // zlib
  array.writeUInt32LE(compressed.length, 9);
  const props = Buffer.concat([array, compressed]);
  const name = Buffer.from('Vertices', 'latin1');
  const start = 27;
  const node = Buffer.alloc(13);
  node.writeUInt32LE(start + 13 + name.length + props.length, 0);
  node.writeUInt32LE(1, 4);
  node.writeUInt32LE(props.length, 8);
  node[12] = name.length;
  const header = Buffer.concat([Buffer.from('Kaydara FBX Binary  \0\x1a\0', 'latin1'), Buffer.alloc(4)]);
  header.writeUInt32LE(7400, 23);
  const footer = Buffer.concat([Buffer.alloc(16), Buffer.from('f85a8c6adef5d97eece90ce3758f290b', 'hex')]);
  return Buffer.concat([header, node, name, props, Buffer.alloc(13), footer]);
}

/** A node of a binary FBX built by `binaryFbx`: its name, its properties (each encoded by `fbxProp`), its children. */
export interface FbxNodeSpec {
  name: string;
  props?: Buffer[];
  children?: FbxNodeSpec[];
}

/** One encoded property: a type code and its bytes (`fbxArray` for arrays). */
export const fbxProp = (type: string, bytes: Buffer = Buffer.alloc(0)): Buffer =>
  Buffer.concat([Buffer.from(type, 'latin1'), bytes]);

/** An array property of `type` (f, d, i, l, b, c) declaring `elements`, stored zlib-compressed from `storedBytes` of zeros. */
export function fbxArray(type: string, elements: number, storedBytes = 1024, bigEndian = false): Buffer {
  const compressed = deflateSync(Buffer.alloc(storedBytes), { level: 9 });
  const head = Buffer.alloc(12);
  const write = (value: number, at: number) =>
    bigEndian ? head.writeUInt32BE(value, at) : head.writeUInt32LE(value, at);
  write(elements, 0);
  write(1, 4);
  write(compressed.length, 8);
  return fbxProp(type, Buffer.concat([head, compressed]));
}

/** A binary FBX (7.4: 32-bit node headers) of the given nodes, little- or big-endian, with its footer. */
export function binaryFbx(nodes: FbxNodeSpec[], options: { bigEndian?: boolean } = {}): Buffer {
  const be = options.bigEndian === true;
  const u32 = (value: number) => {
    const b = Buffer.alloc(4);
    if (be) b.writeUInt32BE(value);
    else b.writeUInt32LE(value);
    return b;
  };
  const encode = (node: FbxNodeSpec, start: number): Buffer => {
    const name = Buffer.from(node.name, 'latin1');
    const props = Buffer.concat(node.props ?? []);
    let at = start + 13 + name.length + props.length;
    const children: Buffer[] = [];
    for (const child of node.children ?? []) {
      const bytes = encode(child, at);
      children.push(bytes);
      at += bytes.length;
    }
    if (children.length > 0) {
      children.push(Buffer.alloc(13)); // the null record ending the children
      at += 13;
    }
    return Buffer.concat([
      u32(at),
      u32(node.props?.length ?? 0),
      u32(props.length),
      Buffer.from([name.length]),
      name,
      props,
      ...children,
    ]);
  };
  const header = Buffer.concat([
    Buffer.from('Kaydara FBX Binary  \0\x1a', 'latin1'),
    Buffer.from([be ? 1 : 0]),
    u32(7400),
  ]);
  let at = header.length;
  const body: Buffer[] = [];
  for (const node of nodes) {
    const bytes = encode(node, at);
    body.push(bytes);
    at += bytes.length;
  }
  const footer = Buffer.concat([Buffer.alloc(16), Buffer.from('f85a8c6adef5d97eece90ce3758f290b', 'hex')]);
  return Buffer.concat([header, ...body, Buffer.alloc(13), footer]);
}

/** `depth` nodes nested one in another, the innermost holding `innermost`. */
export function nestedFbxNodes(depth: number, innermost: FbxNodeSpec): FbxNodeSpec {
  let node = innermost;
  for (let i = 0; i < depth; i++) node = { name: `N${i}`, children: [node] };
  return node;
}
