// The one table of file signatures: what a file is by its first bytes (its "magic"), for the format of a
// download (file-format.ts formatOfBytes), of a local file given as an input (main/files/sniff.ts, which also
// names a wrong file for what it is) and of a picture to decode (main/images/decode-image.ts). Text formats
// (an ASCII FBX, OBJ, glTF) have none: their readers look at their text.

export type SignedKind =
  | 'fbx'
  | 'zip'
  | 'png'
  | 'jpeg'
  | 'webp'
  | 'gif'
  | 'bmp'
  | 'tiff'
  | 'glb'
  | 'mp4'
  | 'gzip'
  | '7z'
  | 'rar'
  | 'pdf';

/** The start of a binary FBX: "Kaydara FBX Binary", two spaces, NUL, 0x1A, NUL; its version (uint32) follows. */
export const FBX_BINARY_MAGIC: Uint8Array = Uint8Array.from('Kaydara FBX Binary  \0\x1a\0', (c) => c.charCodeAt(0));

const starts = (b: Uint8Array, ...bytes: number[]) => b.length >= bytes.length && bytes.every((x, i) => b[i] === x);
const ascii = (b: Uint8Array, text: string, at = 0) =>
  b.length >= at + text.length && [...text].every((c, i) => b[at + i] === c.charCodeAt(0));
const uint32le = (b: Uint8Array, at: number) =>
  (b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16)) + b[at + 3]! * 2 ** 24;

/** Does the file start like a binary FBX (possibly cut off inside its magic, after its first 7 bytes)? */
export function isBinaryFbxStart(head: Uint8Array): boolean {
  const n = Math.min(head.length, FBX_BINARY_MAGIC.length);
  return n >= 'Kaydara'.length && FBX_BINARY_MAGIC.subarray(0, n).every((x, i) => head[i] === x);
}

/** Does the file start like an ASCII FBX ("; FBX 7.5.0 project file"), after a UTF-8 BOM and white space? */
export function isAsciiFbxStart(head: Uint8Array): boolean {
  let at = head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf ? 3 : 0;
  while (at < head.length && (head[at] === 0x20 || (head[at]! >= 0x09 && head[at]! <= 0x0d))) at++;
  return ascii(head, '; FBX', at);
}

const SIGNATURES: readonly (readonly [SignedKind, (b: Uint8Array) => boolean])[] = [
  ['fbx', (b) => starts(b, ...FBX_BINARY_MAGIC.subarray(0, 21))], // to its NUL (a file cut inside it: isBinaryFbxStart)
  ['zip', (b) => starts(b, 0x50, 0x4b, 0x03, 0x04) || starts(b, 0x50, 0x4b, 0x05, 0x06)], // a USDZ is a zip too
  ['png', (b) => starts(b, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)],
  ['jpeg', (b) => starts(b, 0xff, 0xd8, 0xff)],
  ['webp', (b) => ascii(b, 'RIFF') && ascii(b, 'WEBP', 8)],
  ['gif', (b) => ascii(b, 'GIF87a') || ascii(b, 'GIF89a')],
  ['bmp', (b) => ascii(b, 'BM') && b.length >= 10 && uint32le(b, 6) === 0],
  ['tiff', (b) => ascii(b, 'II*\0') || ascii(b, 'MM\0*')],
  ['glb', (b) => ascii(b, 'glTF')],
  ['mp4', (b) => ascii(b, 'ftyp', 4)], // an ISO media file: MP4 (HEIC and AVIF pictures share it)
  ['gzip', (b) => starts(b, 0x1f, 0x8b)],
  ['7z', (b) => starts(b, 0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c)],
  ['rar', (b) => ascii(b, 'Rar!\x1a\x07')],
  ['pdf', (b) => ascii(b, '%PDF-')],
];

/** What a file's first bytes show by their signature (up to 12 bytes are read), else undefined. */
export function signatureOf(head: Uint8Array): SignedKind | undefined {
  return SIGNATURES.find(([, test]) => test(head))?.[0];
}
