// What some services do to an uploaded image before hosting it: metadata dropped, the data compressed
// again, their own stamp added. The picture stays the same but the bytes do not, so a client cannot
// recognise its upload by a hash of the file. Engine option `uploadedImages: 'recompressed'`.
import { promisify } from 'node:util';
import { deflate, inflate } from 'node:zlib';
import { MAX_PIXELS } from '../images/decode-image.ts';
import { PNG_SIGNATURE, pngChunk } from '../formats/png.ts';

const STAMP = 'asset-studio local engine';
/** PNG chunks that carry the picture; every other one is metadata and is dropped. */
const PICTURE_CHUNKS = new Set(['IHDR', 'PLTE', 'tRNS']);
/** JPEG APP2 (ICC profile) and APP14 (Adobe colour transform) change how the picture looks: kept. */
const COLOUR_SEGMENTS = new Set([0xe2, 0xee]);

const inflateAsync = promisify(inflate);
const deflateAsync = promisify(deflate);

/**
 * The recompressed image; PNG and JPEG only, anything else (or anything malformed) is kept as sent. A PNG's data
 * is inflated and deflated on libuv's thread pool (zlib's asynchronous calls), not on the engine's thread.
 */
export async function recompressUpload(bytes: Buffer): Promise<Buffer> {
  try {
    if (bytes.length > 8 && bytes.subarray(0, 8).equals(PNG_SIGNATURE)) return await recompressPng(bytes);
    if (bytes[0] === 0xff && bytes[1] === 0xd8) return restampJpeg(bytes);
  } catch {
    // malformed: stored as sent, like the bytes of any other format
  }
  return bytes;
}

async function recompressPng(bytes: Buffer): Promise<Buffer> {
  const kept: Buffer[] = [];
  const data: Buffer[] = [];
  for (let at = 8; ; ) {
    if (at + 12 > bytes.length) throw new Error('truncated PNG');
    const length = bytes.readUInt32BE(at);
    const type = bytes.toString('latin1', at + 4, at + 8);
    const body = bytes.subarray(at + 8, at + 8 + length);
    if (body.length !== length) throw new Error('truncated PNG chunk');
    at += 12 + length;
    if (type === 'IEND') break;
    if (type === 'IDAT') data.push(body);
    else if (PICTURE_CHUNKS.has(type)) kept.push(pngChunk(type, body));
  }
  // The size its header declares, checked before inflating (a PNG bomb is stored as sent, and refused by the
  // input check); the data is inflated no further than that size can fill (8 bytes a pixel at most, filter bytes).
  if (bytes.toString('latin1', 12, 16) !== 'IHDR') throw new Error('no PNG header');
  const width = bytes.readUInt32BE(16);
  const height = bytes.readUInt32BE(20);
  if (width * height > MAX_PIXELS) throw new Error('more pixels than the engine reads');
  const most = height * (9 + width * 8);
  const raw = await inflateAsync(Buffer.concat(data), { maxOutputLength: Math.max(1, most) });
  const pixels = await deflateAsync(raw, { level: 9 });
  const stamp = pngChunk('tEXt', Buffer.from(`Software\0${STAMP}`, 'latin1'));
  return Buffer.concat([PNG_SIGNATURE, ...kept, stamp, pngChunk('IDAT', pixels), pngChunk('IEND', Buffer.alloc(0))]);
}

/** Drops the metadata segments (APPn and comments) before the first scan, keeping the colour ones (ICC profile,
 * Adobe transform), and adds the engine's comment. */
function restampJpeg(bytes: Buffer): Buffer {
  const parts: Buffer[] = [bytes.subarray(0, 2)];
  const comment = Buffer.from(STAMP, 'latin1');
  const com = Buffer.alloc(4);
  com.writeUInt16BE(0xfffe, 0);
  com.writeUInt16BE(comment.length + 2, 2);
  parts.push(com, comment);
  for (let at = 2; ; ) {
    if (at + 4 > bytes.length || bytes[at] !== 0xff) throw new Error('malformed JPEG');
    const marker = bytes[at + 1]!;
    if (marker === 0xda) {
      parts.push(bytes.subarray(at)); // the scans and everything after, as they were
      return Buffer.concat(parts);
    }
    const end = at + 2 + bytes.readUInt16BE(at + 2);
    const metadata = (marker >= 0xe0 && marker <= 0xef && !COLOUR_SEGMENTS.has(marker)) || marker === 0xfe;
    if (!metadata) parts.push(bytes.subarray(at, end));
    at = end;
  }
}
