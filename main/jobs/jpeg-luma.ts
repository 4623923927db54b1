// JPEG decoding down to brightness at one eighth of the size: only the DC coefficient of each 8×8 block
// of the luma (Y) component is decoded, which is the block's mean brightness. Baseline and extended
// Huffman JPEGs, and progressive ones (from their first DC scan); restart markers, any sampling factors.
// Arithmetic-coded, lossless and 12-bit JPEGs are refused with an Error.
import { LumaGrid } from './luma-grid.ts';
import type { DecodedLuma } from './png-luma.ts';

interface Component {
  id: number;
  h: number;
  v: number;
  quant: number;
  /** Blocks across and down that hold picture (not MCU padding). */
  blocksWide: number;
  blocksHigh: number;
}

interface HuffmanTable {
  maxCode: Int32Array;
  valPtr: Int32Array;
  minCode: Int32Array;
  values: Uint8Array;
}

export const isJpeg = (bytes: Uint8Array): boolean => bytes.length > 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff;

export function decodeJpegLuma(bytes: Buffer): DecodedLuma {
  if (!isJpeg(bytes)) throw new Error('not a JPEG image');
  const quant = new Map<number, number>(); // table id → its DC quantiser
  const dcTables = new Map<number, HuffmanTable>();
  const acTables = new Map<number, HuffmanTable>();
  let frame: { progressive: boolean; width: number; height: number; components: Component[]; hMax: number; vMax: number } | undefined;
  let restartInterval = 0;
  let at = 2;
  while (at < bytes.length) {
    if (bytes[at] !== 0xff) throw new Error(`the JPEG has data where a marker belongs (offset ${at})`);
    const marker = bytes[at + 1]!;
    at += 2;
    if (marker === 0xff) {
      at -= 1; // fill byte
      continue;
    }
    if (marker === 0xd9) break;
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) continue;
    if (at + 2 > bytes.length) break;
    const length = bytes.readUInt16BE(at);
    const segment = bytes.subarray(at + 2, at + length);
    at += length;
    if (marker === 0xdb) readQuantTables(segment, quant);
    else if (marker === 0xc4) readHuffmanTables(segment, dcTables, acTables);
    else if (marker === 0xdd) restartInterval = segment.readUInt16BE(0);
    else if (marker === 0xc0 || marker === 0xc1 || marker === 0xc2) frame = readFrame(segment, marker === 0xc2);
    else if (marker >= 0xc3 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      throw new Error('lossless and arithmetic-coded JPEGs are not compared');
    } else if (marker === 0xda) {
      if (!frame) throw new Error('the JPEG scan comes before its frame header');
      const scan = readScan(segment, frame.components);
      const luma = frame.components[0]!;
      const wanted = scan.components.includes(luma) && scan.ss === 0 && (!frame.progressive || scan.ah === 0);
      if (wanted) {
        const dc = decodeDcScan(bytes, at, frame, scan, restartInterval, dcTables, acTables);
        const q = quant.get(luma.quant);
        if (q === undefined) throw new Error('the JPEG has no quantisation table for its luma');
        const grid = new LumaGrid(luma.blocksWide, luma.blocksHigh);
        for (let by = 0; by < luma.blocksHigh; by++) {
          for (let bx = 0; bx < luma.blocksWide; bx++) {
            const mean = ((dc[by * luma.blocksWide + bx]! << scan.al) * q) / 8 + 128;
            grid.add(bx, by, Math.min(255, Math.max(0, mean)));
          }
        }
        return { grids: [grid], width: frame.width, height: frame.height };
      }
      at = endOfScan(bytes, at);
    }
  }
  throw new Error('the JPEG has no scan with the brightness of its picture');
}

function readQuantTables(s: Buffer, quant: Map<number, number>): void {
  for (let i = 0; i < s.length; ) {
    const precision = s[i]! >> 4;
    const id = s[i]! & 15;
    quant.set(id, precision ? s.readUInt16BE(i + 1) : s[i + 1]!); // the first entry (zig-zag order) is the DC one
    i += 1 + 64 * (precision ? 2 : 1);
  }
}

function readHuffmanTables(s: Buffer, dc: Map<number, HuffmanTable>, ac: Map<number, HuffmanTable>): void {
  for (let i = 0; i < s.length; ) {
    const kind = s[i]! >> 4;
    const id = s[i]! & 15;
    const counts = s.subarray(i + 1, i + 17);
    let total = 0;
    for (const n of counts) total += n;
    const values = new Uint8Array(s.subarray(i + 17, i + 17 + total));
    i += 17 + total;
    // Canonical codes (ITU T.81, F.2.2.3): per code length, the first and last code and where its values start.
    const table: HuffmanTable = { maxCode: new Int32Array(18).fill(-1), valPtr: new Int32Array(17), minCode: new Int32Array(17), values };
    let code = 0;
    let k = 0;
    for (let len = 1; len <= 16; len++) {
      const n = counts[len - 1]!;
      if (n > 0) {
        table.valPtr[len] = k;
        table.minCode[len] = code;
        code += n;
        k += n;
        table.maxCode[len] = code - 1;
      }
      code <<= 1;
    }
    (kind === 0 ? dc : ac).set(id, table);
  }
}

function readFrame(s: Buffer, progressive: boolean) {
  if (s[0] !== 8) throw new Error(`${s[0]}-bit JPEGs are not compared`);
  const height = s.readUInt16BE(1);
  const width = s.readUInt16BE(3);
  const count = s[5]!;
  if (width === 0 || height === 0) throw new Error('the JPEG gives no size in its frame header');
  if (count !== 1 && count !== 3) throw new Error(`JPEGs with ${count} colour components are not compared`);
  const raw = Array.from({ length: count }, (_, i) => ({ id: s[6 + i * 3]!, h: s[7 + i * 3]! >> 4, v: s[7 + i * 3]! & 15, quant: s[8 + i * 3]! }));
  const hMax = Math.max(...raw.map((c) => c.h));
  const vMax = Math.max(...raw.map((c) => c.v));
  const components: Component[] = raw.map((c) => ({
    ...c,
    blocksWide: Math.ceil(Math.ceil((width * c.h) / hMax) / 8),
    blocksHigh: Math.ceil(Math.ceil((height * c.v) / vMax) / 8),
  }));
  return { progressive, width, height, components, hMax, vMax };
}

function readScan(s: Buffer, frameComponents: Component[]) {
  const count = s[0]!;
  const components: Component[] = [];
  const dcIds: number[] = [];
  const acIds: number[] = [];
  for (let i = 0; i < count; i++) {
    const component = frameComponents.find((c) => c.id === s[1 + i * 2]);
    if (!component) throw new Error('a JPEG scan names a component its frame does not have');
    components.push(component);
    dcIds.push(s[2 + i * 2]! >> 4);
    acIds.push(s[2 + i * 2]! & 15);
  }
  const p = 1 + count * 2;
  return { components, dcIds, acIds, ss: s[p]!, se: s[p + 1]!, ah: s[p + 2]! >> 4, al: s[p + 2]! & 15 };
}

/** The DC coefficients of the luma blocks, row by row, from the scan whose entropy-coded data starts at `start`. */
function decodeDcScan(
  bytes: Buffer,
  start: number,
  frame: NonNullable<ReturnType<typeof readFrame>>,
  scan: ReturnType<typeof readScan>,
  restartInterval: number,
  dcTables: Map<number, HuffmanTable>,
  acTables: Map<number, HuffmanTable>,
): Int32Array {
  const luma = frame.components[0]!;
  const out = new Int32Array(luma.blocksWide * luma.blocksHigh);
  const reader = new BitReader(bytes, start);
  const need = (tables: Map<number, HuffmanTable>, id: number, kind: string) => {
    const table = tables.get(id);
    if (!table) throw new Error(`the JPEG scan uses ${kind} Huffman table ${id}, which it does not define`);
    return table;
  };
  const dc = scan.components.map((_, i) => need(dcTables, scan.dcIds[i]!, 'DC'));
  const readAc = !frame.progressive && scan.se > 0;
  const ac = readAc ? scan.components.map((_, i) => need(acTables, scan.acIds[i]!, 'AC')) : [];
  const predictors = new Int32Array(scan.components.length);

  const block = (c: number, bx: number, by: number) => {
    const t = reader.decode(dc[c]!);
    predictors[c]! += t === 0 ? 0 : reader.receiveExtend(t);
    if (readAc) {
      for (let k = 1; k < 64; ) {
        const rs = reader.decode(ac[c]!);
        const run = rs >> 4;
        const size = rs & 15;
        if (size === 0) {
          if (run !== 15) break; // end of block
          k += 16;
        } else {
          k += run;
          reader.skip(size);
          k++;
        }
      }
    }
    const component = scan.components[c]!;
    if (component === luma && bx < luma.blocksWide && by < luma.blocksHigh) out[by * luma.blocksWide + bx] = predictors[c]!;
  };

  const single = scan.components.length === 1;
  const mcusWide = single ? scan.components[0]!.blocksWide : Math.ceil(frame.width / (8 * frame.hMax));
  const mcusHigh = single ? scan.components[0]!.blocksHigh : Math.ceil(frame.height / (8 * frame.vMax));
  let done = 0;
  for (let my = 0; my < mcusHigh; my++) {
    for (let mx = 0; mx < mcusWide; mx++) {
      if (restartInterval > 0 && done > 0 && done % restartInterval === 0) {
        reader.restart();
        predictors.fill(0);
      }
      if (single) block(0, mx, my);
      else {
        scan.components.forEach((component, c) => {
          for (let v = 0; v < component.v; v++) for (let h = 0; h < component.h; h++) block(c, mx * component.h + h, my * component.v + v);
        });
      }
      done++;
    }
  }
  return out;
}

/** Where the entropy-coded data starting at `at` ends: the next marker other than a stuffed 0xFF or RSTn. */
function endOfScan(bytes: Buffer, at: number): number {
  for (let i = at; i + 1 < bytes.length; i++) {
    if (bytes[i] !== 0xff) continue;
    const next = bytes[i + 1]!;
    if (next !== 0 && next !== 0xff && !(next >= 0xd0 && next <= 0xd7)) return i;
  }
  return bytes.length;
}

class BitReader {
  readonly #bytes: Buffer;
  #at: number;
  #bits = 0;
  #count = 0;

  constructor(bytes: Buffer, at: number) {
    this.#bytes = bytes;
    this.#at = at;
  }

  #bit(): number {
    if (this.#count === 0) {
      const byte = this.#bytes[this.#at];
      if (byte === undefined) throw new Error('the JPEG data ends inside a scan');
      if (byte === 0xff) {
        const next = this.#bytes[this.#at + 1];
        if (next !== 0) throw new Error('the JPEG scan ends before all its blocks');
        this.#at += 2;
      } else this.#at += 1;
      this.#bits = byte;
      this.#count = 8;
    }
    this.#count--;
    return (this.#bits >> this.#count) & 1;
  }

  decode(table: HuffmanTable): number {
    let code = 0;
    for (let len = 1; len <= 16; len++) {
      code = (code << 1) | this.#bit();
      if (code <= table.maxCode[len]!) return table.values[table.valPtr[len]! + code - table.minCode[len]!]!;
    }
    throw new Error('the JPEG scan holds a code its Huffman table does not have');
  }

  #receive(size: number): number {
    let value = 0;
    for (let i = 0; i < size; i++) value = (value << 1) | this.#bit();
    return value;
  }

  receiveExtend(size: number): number {
    const value = this.#receive(size);
    return value < 1 << (size - 1) ? value - (1 << size) + 1 : value;
  }

  skip(size: number): void {
    this.#receive(size);
  }

  /** At a restart interval: drop the bits left in the byte, then step over the RSTn marker. */
  restart(): void {
    this.#count = 0;
    if (this.#bytes[this.#at] === 0xff && (this.#bytes[this.#at + 1]! & 0xf8) === 0xd0) this.#at += 2;
    else throw new Error('the JPEG misses a restart marker');
  }
}
