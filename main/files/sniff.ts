// Recognises a file's format from its first bytes, to route it and to say what a wrong file really is.

export type ContentKind =
  | 'fbx'
  | 'zip'
  | 'png'
  | 'jpeg'
  | 'webp'
  | 'gif'
  | 'bmp'
  | 'tiff'
  | 'glb'
  | 'gzip'
  | '7z'
  | 'rar'
  | 'pdf'
  | 'obj'
  | 'text'
  | 'unknown';

/** How many bytes `sniff` wants to see (it works with fewer). */
export const SNIFF_BYTES = 4096;

export const FBX_BINARY_MAGIC = Buffer.from('Kaydara FBX Binary  \0\x1a\0', 'latin1');
const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);

const starts = (b: Buffer, ...bytes: number[]) => b.length >= bytes.length && bytes.every((x, i) => b[i] === x);
const ascii = (b: Buffer, text: string, at = 0) => b.toString('latin1', at, at + text.length) === text;

const SIGNATURES: [ContentKind, (b: Buffer) => boolean][] = [
  ['zip', (b) => starts(b, 0x50, 0x4b, 0x03, 0x04) || starts(b, 0x50, 0x4b, 0x05, 0x06)],
  ['png', (b) => starts(b, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)],
  ['jpeg', (b) => starts(b, 0xff, 0xd8, 0xff)],
  ['webp', (b) => ascii(b, 'RIFF') && ascii(b, 'WEBP', 8)],
  ['gif', (b) => ascii(b, 'GIF87a') || ascii(b, 'GIF89a')],
  ['bmp', (b) => ascii(b, 'BM') && b.length >= 10 && b.readUInt32LE(6) === 0],
  ['tiff', (b) => ascii(b, 'II*\0') || ascii(b, 'MM\0*')],
  ['glb', (b) => ascii(b, 'glTF')],
  ['gzip', (b) => starts(b, 0x1f, 0x8b)],
  ['7z', (b) => starts(b, 0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c)],
  ['rar', (b) => ascii(b, 'Rar!\x1a\x07')],
  ['pdf', (b) => ascii(b, '%PDF-')],
];

const OBJ_START = /^(?:\s*(?:#[^\n]*)?\n)*\s*(?:v|vn|vt|f|o|g|s|mtllib|usemtl)\s/;

/** The format of a file from its first bytes (up to SNIFF_BYTES). */
export function sniff(head: Buffer): ContentKind {
  if (isBinaryFbxStart(head)) return 'fbx';
  const signature = SIGNATURES.find(([, test]) => test(head));
  if (signature) return signature[0];
  if (head.includes(0)) return 'unknown';
  const text = textStart(head);
  if (text.startsWith('; FBX')) return 'fbx';
  if (OBJ_START.test(text)) return 'obj';
  return text.length > 0 ? 'text' : 'unknown';
}

/** Does the file start like a binary FBX (possibly cut off inside its magic)? */
export function isBinaryFbxStart(head: Buffer): boolean {
  const n = Math.min(head.length, FBX_BINARY_MAGIC.length);
  return n >= 'Kaydara'.length && head.subarray(0, n).equals(FBX_BINARY_MAGIC.subarray(0, n));
}

/** The start of a text file without a UTF-8 byte order mark and leading whitespace. */
export function textStart(head: Buffer): string {
  const body = starts(head, ...UTF8_BOM) ? head.subarray(UTF8_BOM.length) : head;
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
