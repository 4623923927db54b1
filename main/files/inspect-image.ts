// Images the service takes as input (PNG, JPEG, WebP): format and size from the headers, limits, and
// the data URI form in which a local image is sent.
import { damaged, InspectionError, wrongFormat } from './errors.ts';
import { DEFAULT_LIMITS, type FileLimits } from './limits.ts';
import { formatBytes } from '../../shared/format-bytes.ts';
import { describeContent, sniff } from './sniff.ts';
import { openFile, readAt, type OpenedFile } from './source.ts';

export type ImageMime = 'image/png' | 'image/jpeg' | 'image/webp';

export interface ImageInfo {
  mime: ImageMime;
  width: number;
  height: number;
}

const AGAIN = 'Copy it again or save it again from your image editor.';
const PNG_END = Buffer.from('0000000049454e44ae426082', 'hex'); // the empty IEND chunk
/** Segments read before giving up on finding a JPEG frame header. */
const MAX_JPEG_SEGMENTS = 1000;

export async function inspectImage(file: OpenedFile, limits: FileLimits): Promise<ImageInfo> {
  if (file.size > limits.maxImageBytes) {
    throw new InspectionError({
      code: 'too-large',
      file: file.path,
      reason: `is ${formatBytes(file.size)}, more than the ${formatBytes(limits.maxImageBytes)} allowed for an image`,
      action: 'Save it smaller (e.g. as JPEG, or scaled down) and try again.',
    });
  }
  const kind = sniff(file.head);
  const info =
    kind === 'png' ? await png(file) : kind === 'jpeg' ? await jpeg(file) : kind === 'webp' ? webp(file) : undefined;
  if (info === undefined) throw wrongFormat(file.path, 'image', describeContent(kind));
  if (info.width === 0 || info.height === 0) throw damaged(file.path, 'its header gives no size', AGAIN);
  if (info.width * info.height > limits.maxImagePixels) {
    const mp = (n: number) => `${Number((n / 1e6).toFixed(1))} megapixels`;
    throw new InspectionError({
      code: 'image-too-large',
      file: file.path,
      reason: `is ${info.width} × ${info.height} pixels (${mp(info.width * info.height)}), more than the ${mp(limits.maxImagePixels)} allowed`,
      action: 'Scale it down (e.g. to 2048 × 2048) and try again.',
    });
  }
  return info;
}

/** A local image as `data:<mime>;base64,…`, the form in which the service takes it. Checks it first. */
export async function toDataUri(path: string, limits: FileLimits = DEFAULT_LIMITS): Promise<string> {
  const file = await openFile(path);
  try {
    const { mime } = await inspectImage(file, limits);
    const bytes = await file.handle.readFile();
    if (bytes.length !== file.size)
      throw damaged(path, 'it changed while it was being read', 'Try again once it is saved.');
    return `data:${mime};base64,${bytes.toString('base64')}`;
  } finally {
    await file.handle.close();
  }
}

async function png(file: OpenedFile): Promise<ImageInfo> {
  const h = file.head;
  if (h.length < 24 || h.toString('latin1', 12, 16) !== 'IHDR')
    throw damaged(file.path, 'its PNG header is incomplete', AGAIN);
  const end = await readAt(file.handle, Math.max(0, file.size - PNG_END.length), PNG_END.length);
  if (!end.equals(PNG_END)) throw damaged(file.path, 'it does not end with the PNG end marker', AGAIN);
  return { mime: 'image/png', width: h.readUInt32BE(16), height: h.readUInt32BE(20) };
}

/** Walks the JPEG segments up to the first frame header (SOFn), which holds the size. */
async function jpeg(file: OpenedFile): Promise<ImageInfo> {
  let pos = 2;
  for (let n = 0; n < MAX_JPEG_SEGMENTS; n++) {
    const b = await readAt(file.handle, pos, 9); // marker, segment length, then precision, height, width of a SOFn
    if (b.length < 2 || b[0] !== 0xff) break;
    const marker = b[1]!;
    if (marker === 0xff) {
      pos += 1; // fill byte
      continue;
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8)) {
      pos += 2; // markers without a segment
      continue;
    }
    if (marker === 0xd9 || marker === 0xda || b.length < 4) break; // end of image or start of scan before any frame header
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      if (b.length < 9) break;
      return { mime: 'image/jpeg', width: b.readUInt16BE(7), height: b.readUInt16BE(5) };
    }
    pos += 2 + b.readUInt16BE(2);
  }
  throw damaged(file.path, 'no JPEG frame header with the image size was found', AGAIN);
}

/** The size from the first chunk: VP8 (lossy), VP8L (lossless) or VP8X (extended). */
function webp(file: OpenedFile): ImageInfo {
  const h = file.head;
  if (h.length < 30) throw damaged(file.path, 'its WebP header is incomplete', AGAIN);
  if (h.readUInt32LE(4) + 8 > file.size) throw damaged(file.path, 'it is shorter than its WebP header says', AGAIN);
  const chunk = h.toString('latin1', 12, 16);
  const d = 20; // the chunk's data
  if (chunk === 'VP8 ' && h[d + 3] === 0x9d && h[d + 4] === 0x01 && h[d + 5] === 0x2a) {
    return { mime: 'image/webp', width: h.readUInt16LE(d + 6) & 0x3fff, height: h.readUInt16LE(d + 8) & 0x3fff };
  }
  if (chunk === 'VP8L' && h[d] === 0x2f) {
    const bits = h.readUInt32LE(d + 1);
    return { mime: 'image/webp', width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (chunk === 'VP8X')
    return { mime: 'image/webp', width: h.readUIntLE(d + 4, 3) + 1, height: h.readUIntLE(d + 7, 3) + 1 };
  throw damaged(file.path, `its first WebP chunk ("${chunk}") is not an image header`, AGAIN);
}
