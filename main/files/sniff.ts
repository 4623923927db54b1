// Recognises a file's format from its first bytes, to route it and to say what a wrong file really is.
import { isAsciiFbxStart, isBinaryFbxStart, signatureOf, type SignedKind } from '../../shared/file-signature.ts';

export type ContentKind = SignedKind | 'obj' | 'text' | 'unknown';

/** How many bytes `sniff` wants to see (it works with fewer). */
export const SNIFF_BYTES = 4096;

const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);

const OBJ_START = /^(?:\s*(?:#[^\n]*)?\n)*\s*(?:v|vn|vt|f|o|g|s|mtllib|usemtl)\s/;

/** The format of a file from its first bytes (up to SNIFF_BYTES): its signature (shared/file-signature.ts), else its text. */
export function sniff(head: Buffer): ContentKind {
  if (isBinaryFbxStart(head)) return 'fbx'; // a binary FBX cut short inside its magic too: said as a damaged FBX
  const signed = signatureOf(head);
  if (signed !== undefined) return signed;
  if (head.includes(0)) return 'unknown';
  if (isAsciiFbxStart(head)) return 'fbx';
  const text = textStart(head);
  if (OBJ_START.test(text)) return 'obj';
  return text.length > 0 ? 'text' : 'unknown';
}

/** The start of a text file without a UTF-8 byte order mark and leading whitespace. */
export function textStart(head: Buffer): string {
  const body = head.subarray(0, UTF8_BOM.length).equals(UTF8_BOM) ? head.subarray(UTF8_BOM.length) : head;
  return body.toString('utf8').trimStart();
}

const DESCRIPTIONS: Record<ContentKind, string> = {
  fbx: 'an FBX file',
  zip: 'a zip archive',
  png: 'a PNG image',
  jpeg: 'a JPEG image',
  webp: 'a WebP image',
  gif: 'a GIF image',
  bmp: 'a BMP image',
  tiff: 'a TIFF image',
  glb: 'a GLB (binary glTF) model',
  mp4: 'an MP4 video (or another ISO media file)',
  gzip: 'a gzip archive',
  '7z': 'a 7-Zip archive',
  rar: 'a RAR archive',
  pdf: 'a PDF document',
  obj: 'an OBJ model',
  text: 'a text file',
  unknown: 'a file of an unknown format',
};

/** `a PNG image`, `an OBJ model`, … */
export function describeContent(kind: ContentKind): string {
  return DESCRIPTIONS[kind];
}
