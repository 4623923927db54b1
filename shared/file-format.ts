// What format a downloaded file is: the one place that says it, from the file's bytes (its magic) and from its
// URL's path (the extension, ignoring the query string: the service's files are Azure blobs with SAS signatures,
// `…/Male_Casual_animation.fbx?sp=r&st=…&sig=…`). Nothing else assumes a format from the field a URL came
// in: the service's mesh-animation prompts and `animation_url` are FBX, its `mesh_url` a zip, the local
// engine's GLB or FBX; the bytes, when they are at hand, have the last word.
import { isAsciiFbxStart, signatureOf, type SignedKind } from './file-signature.ts';
import { fileNameOf } from './url-name.ts';

export const FILE_FORMATS = ['glb', 'gltf', 'fbx', 'zip', 'usdz', 'obj', 'mtl', 'png', 'jpeg', 'webp', 'mp4'] as const;
export type FileFormat = (typeof FILE_FORMATS)[number];

/** The formats that hold an animated model (a session's animation, a clip). */
export const ANIMATED_FORMATS = ['glb', 'fbx'] as const;
export type AnimatedFormat = (typeof ANIMATED_FORMATS)[number];

const EXTENSIONS: Readonly<Record<string, FileFormat>> = {
  glb: 'glb',
  gltf: 'gltf',
  fbx: 'fbx',
  zip: 'zip',
  usdz: 'usdz',
  obj: 'obj',
  mtl: 'mtl',
  png: 'png',
  jpg: 'jpeg',
  jpeg: 'jpeg',
  webp: 'webp',
  mp4: 'mp4',
};

/**
 * The format a URL (or a plain path or file name) names by the extension of the file name it points at
 * (url-name.ts fileNameOf: a URL's query string and fragment ignored, `…/walk.fbx?sp=r&sig=…` is FBX); undefined
 * when it names none this app knows.
 */
export function formatOfUrl(url: string): FileFormat | undefined {
  const name = fileNameOf(url);
  const dot = name.lastIndexOf('.');
  return dot <= 0 ? undefined : EXTENSIONS[name.slice(dot + 1).toLowerCase()];
}

/** How many bytes of a file's start formatOfBytes needs. */
export const HEAD_BYTES = 32;

/** The formats of a download that a signature shows (shared/file-signature.ts). */
const SIGNED_FORMATS: Readonly<Partial<Record<SignedKind, FileFormat>>> = {
  fbx: 'fbx',
  glb: 'glb',
  zip: 'zip',
  png: 'png',
  jpeg: 'jpeg',
  webp: 'webp',
  mp4: 'mp4',
};

/**
 * The format a file's first bytes (HEAD_BYTES are enough) show: by their signature (shared/file-signature.ts:
 * binary FBX, GLB, zip (a USDZ is a zip too: formatOf tells them apart by the URL), PNG, JPEG, WebP, MP4), or an
 * ASCII FBX ("; FBX"); undefined for anything else (a glTF or OBJ is text and is known by its URL).
 */
export function formatOfBytes(head: Uint8Array): FileFormat | undefined {
  const signed = signatureOf(head);
  if (signed !== undefined) return SIGNED_FORMATS[signed];
  return isAsciiFbxStart(head.subarray(0, HEAD_BYTES)) ? 'fbx' : undefined;
}

/**
 * A file's format from what is known of it: its bytes first (they cannot lie), then its URL's extension. A
 * zip whose URL says USDZ is a USDZ. Undefined when neither tells.
 */
export function formatOf(file: { url?: string | undefined; head?: Uint8Array | undefined }): FileFormat | undefined {
  const byUrl = file.url === undefined ? undefined : formatOfUrl(file.url);
  const byBytes = file.head === undefined ? undefined : formatOfBytes(file.head);
  if (byBytes === 'zip' && byUrl === 'usdz') return 'usdz';
  return byBytes ?? byUrl;
}

/** The format of an animated model (GLB or FBX) from what is known of it, else undefined. */
export function animatedFormatOf(file: {
  url?: string | undefined;
  head?: Uint8Array | undefined;
}): AnimatedFormat | undefined {
  const format = formatOf(file);
  return format === 'glb' || format === 'fbx' ? format : undefined;
}
