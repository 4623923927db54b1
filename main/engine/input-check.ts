// Is an input what its session needs? An image (image-to-3D, spins), a 3D model (retopology: GLB or glTF as
// the service documents, and the OBJ, FBX and USDZ the engine itself makes), an
// FBX or a zip of FBX files (animation), a zip of images (styles). Judged by content, with the app's own
// file inspections (magic bytes, headers, zip safety); the answer says what the file is instead.
import { open } from 'node:fs/promises';
import yauzl, { type ZipFile } from 'yauzl';
import { InspectionError } from '../files/errors.ts';
import { checkDeclaredSize, ImageDecodeError } from '../images/decode-image.ts';
import { inspectFbx } from '../files/inspect-fbx.ts';
import { inspectImage } from '../files/inspect-image.ts';
import { inspectZip } from '../files/inspect-zip.ts';
import { FBX_READ_LIMITS, fileLimits } from '../files/limits.ts';
import { formatBytes } from '../../shared/format-bytes.ts';
import { describeContent, sniff, textStart } from '../files/sniff.ts';
import { openFile, readAt, type OpenedFile } from '../files/source.ts';

export type InputKind = 'image' | 'mesh' | 'animation-mesh' | 'style-zip';

/** What each kind of input must be, in words. */
export const INPUT_WHAT: Record<InputKind, string> = {
  image: 'an image (PNG, JPEG, WebP or GIF)',
  mesh: 'a 3D model (GLB, glTF, OBJ, FBX or USDZ)',
  'animation-mesh': 'an FBX file or a zip of FBX files',
  'style-zip': 'a zip of training images',
};

/**
 * Largest image input, whatever the general cap: 50 MiB, as the app uploads at most (the service publishes no
 * size limit for pictures). Also the largest picture in a style zip.
 */
export const MAX_IMAGE_INPUT_BYTES = 50 * 2 ** 20;
/** Largest .gltf (JSON) read whole to check it. */
const MAX_GLTF_JSON_BYTES = 64 * 2 ** 20;
/**
 * Largest sum of the uncompressed sizes a zip input (a style's images, an animation's FBX files) declares:
 * 256 MiB, what the engine may hold of one input.
 */
export const MAX_ZIP_UNCOMPRESSED_BYTES = 256 * 2 ** 20;
const IMAGE_ENTRY = /\.(png|jpe?g|webp)$/i;
const USD_ENTRY = /\.usd[acz]?$/i;

/** Why an input cannot be used: `reason` completes "The input … ", e.g. `is not an image (it starts like a zip archive)`. */
export class InputProblem extends Error {
  readonly reason: string;
  constructor(reason: string) {
    super(reason);
    this.name = 'InputProblem';
    this.reason = reason;
  }
}

/** The file extension to store an input under, once it is known to be the right kind; throws an InputProblem otherwise. */
export async function checkInput(path: string, kind: InputKind, maxBytes: number): Promise<string> {
  let file: OpenedFile;
  try {
    file = await openFile(path);
  } catch (error) {
    throw problemOf(error);
  }
  const limits = fileLimits({
    maxFbxBytes: maxBytes,
    maxZipBytes: maxBytes,
    maxImageBytes: Math.min(maxBytes, MAX_IMAGE_INPUT_BYTES),
    maxZipUncompressedBytes: MAX_ZIP_UNCOMPRESSED_BYTES,
  });
  const content = sniff(file.head);
  const wrong = () => new InputProblem(`is not ${INPUT_WHAT[kind]} (it starts like ${describeContent(content)})`);
  try {
    switch (kind) {
      case 'image':
        if (content === 'png' || content === 'jpeg' || content === 'webp') {
          await inspectImage(file, limits);
          return content === 'jpeg' ? 'jpg' : content;
        }
        if (content === 'gif') {
          await checkGif(file, limits.maxImageBytes);
          return 'gif';
        }
        throw wrong();
      case 'mesh':
        if (content === 'glb') {
          checkGlbHeader(file.head, file.size);
          await checkGlbTextures(file);
          return 'glb';
        }
        if (content === 'text') {
          const json = gltfJson(await readText(path, file.size));
          if (json !== undefined) {
            await checkTextures(json);
            return 'gltf';
          }
        }
        if (content === 'obj') return 'obj';
        if (content === 'fbx') {
          await inspectFbx(file, limits);
          return 'fbx';
        }
        if (content === 'zip' && (await zipHolds(path, USD_ENTRY))) return 'usdz';
        throw wrong();
      case 'animation-mesh':
        if (content === 'fbx') {
          await inspectFbx(file, limits);
          return 'fbx';
        }
        if (content === 'zip') {
          await inspectZip(file, limits);
          return 'zip';
        }
        throw wrong();
      case 'style-zip':
        if (content !== 'zip') throw wrong();
        await checkImageZip(path);
        return 'zip';
    }
  } catch (error) {
    throw problemOf(error);
  } finally {
    await file.handle.close();
  }
}

/** A GIF's size and the size each of its frames declares (not only its logical screen), before any is decoded. */
async function checkGif(file: OpenedFile, maxBytes: number): Promise<void> {
  if (file.size > maxBytes)
    throw new InputProblem(`is ${formatBytes(file.size)}, more than the ${formatBytes(maxBytes)} allowed for an image`);
  try {
    checkDeclaredSize(await file.handle.readFile());
  } catch (error) {
    if (error instanceof ImageDecodeError) throw new InputProblem(error.reason);
    throw error;
  }
}

function problemOf(error: unknown): InputProblem {
  if (error instanceof InputProblem) return error;
  if (error instanceof InspectionError) return new InputProblem(error.reason);
  return new InputProblem(`cannot be read (${error instanceof Error ? error.message : String(error)})`);
}

function checkGlbHeader(head: Buffer, size: number): void {
  if (head.length < 20) throw new InputProblem('is cut off: a GLB file has a 20-byte header at least');
  const version = head.readUInt32LE(4);
  if (version !== 2) throw new InputProblem(`is a GLB of version ${version}; only glTF 2.0 (GLB version 2) is read`);
  const declared = head.readUInt32LE(8);
  if (declared !== size)
    throw new InputProblem(
      `is cut off or damaged: its header says ${formatBytes(declared)}, but it has ${formatBytes(size)}`,
    );
  if (head.toString('latin1', 16, 20) !== 'JSON')
    throw new InputProblem('is damaged: its first chunk is not the JSON chunk');
}

/** Bytes read from the start of each texture of a GLB: its PNG IHDR, or its JPEG segments up to the frame header. */
const TEXTURE_HEAD_BYTES = 256 * 1024;

/**
 * The size each texture of a GLB declares in its header bytes (PNG IHDR, JPEG SOF, GIF frames), read before
 * anything is decoded: a small picture declaring billions of pixels is refused naming the limit.
 */
async function checkGlbTextures(file: OpenedFile): Promise<void> {
  const jsonLength = file.head.readUInt32LE(12);
  if (jsonLength > MAX_GLTF_JSON_BYTES || 20 + jsonLength > file.size) return; // the mesh reader says what is wrong
  let json: GltfImages;
  try {
    json = JSON.parse((await readAt(file.handle, 20, jsonLength)).toString('utf8'));
  } catch {
    return;
  }
  const binStart = 20 + jsonLength + 8; // the BIN chunk's data, after its length and type
  await checkTextures(json, (offset, length) => readAt(file.handle, binStart + offset, length));
}

interface GltfImages {
  images?: { bufferView?: number; uri?: string }[];
  bufferViews?: { buffer?: number; byteOffset?: number; byteLength?: number }[];
  buffers?: { uri?: string }[];
}

/**
 * The size each image of a glTF declares, from its first bytes: an image in a buffer view (of the GLB's BIN chunk,
 * read by `readBin`, or of a buffer given as a data URI) or given as a data URI itself. Throws an InputProblem
 * naming the limit for one declaring more pixels than the engine reads.
 */
async function checkTextures(
  json: GltfImages,
  readBin?: (offset: number, length: number) => Promise<Buffer>,
): Promise<void> {
  for (const [index, image] of (json.images ?? []).entries()) {
    let head: Buffer | undefined;
    const view = image.bufferView === undefined ? undefined : json.bufferViews?.[image.bufferView];
    if (view !== undefined) {
      const offset = view.byteOffset ?? 0;
      const length = Math.min(view.byteLength ?? 0, TEXTURE_HEAD_BYTES);
      const buffer = json.buffers?.[view.buffer ?? 0];
      if (buffer?.uri === undefined) head = await readBin?.(offset, length);
      else if (buffer.uri.startsWith('data:')) head = dataUriBytes(buffer.uri, offset, length);
    } else if (image.uri?.startsWith('data:')) {
      head = dataUriBytes(image.uri, 0, TEXTURE_HEAD_BYTES);
    }
    if (head === undefined) continue;
    try {
      checkDeclaredSize(head);
    } catch (error) {
      if (error instanceof ImageDecodeError)
        throw new InputProblem(`has a texture (image ${index}) that ${error.reason}`);
      throw error;
    }
  }
}

/** `length` bytes from `offset` of a base64 data URI, decoding only those. */
function dataUriBytes(uri: string, offset: number, length: number): Buffer {
  const data = uri.indexOf(',') + 1;
  const first = Math.floor(offset / 3) * 4;
  const chars = Math.ceil((length + (offset % 3)) / 3) * 4;
  return Buffer.from(uri.slice(data + first, data + first + chars), 'base64').subarray(
    offset % 3,
    (offset % 3) + length,
  );
}

async function readText(path: string, size: number): Promise<string> {
  if (size > MAX_GLTF_JSON_BYTES) return '';
  const handle = await open(path, 'r');
  try {
    return textStart(await handle.readFile());
  } finally {
    await handle.close();
  }
}

/** The glTF of a .gltf file's text, or undefined when it is not one. */
function gltfJson(text: string): GltfImages | undefined {
  if (!text.startsWith('{')) return undefined;
  try {
    const value = JSON.parse(text) as GltfImages & { asset?: { version?: unknown } };
    return typeof value.asset?.version === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A zip with at least one image in it, each image declaring at most MAX_IMAGE_INPUT_BYTES uncompressed and all
 * its entries MAX_ZIP_UNCOMPRESSED_BYTES in total (declared sizes, read before anything is inflated).
 */
async function checkImageZip(path: string): Promise<void> {
  if (!(await zipHolds(path, IMAGE_ENTRY, MAX_IMAGE_INPUT_BYTES)))
    throw new InputProblem('holds no image (no .png, .jpg or .webp file in it)');
}

/**
 * Does a zip hold an entry whose name matches (its central directory read, nothing extracted)? With
 * `maxEntryBytes`, every matching entry must declare at most that many uncompressed bytes, and all entries
 * MAX_ZIP_UNCOMPRESSED_BYTES in total (else an InputProblem naming the limit).
 */
async function zipHolds(path: string, name: RegExp, maxEntryBytes?: number): Promise<boolean> {
  let zip: ZipFile;
  try {
    zip = await yauzl.openPromise(path, { lazyEntries: true, autoClose: false });
  } catch (error) {
    throw new InputProblem(`is not a complete zip archive (${(error as Error).message})`);
  }
  try {
    let found = false;
    let total = 0;
    for await (const entry of zip.eachEntry()) {
      const matches = name.test(entry.fileName) && !entry.fileName.startsWith('__MACOSX/');
      if (maxEntryBytes === undefined) {
        if (matches) return true;
        continue;
      }
      if (matches && entry.uncompressedSize > maxEntryBytes)
        throw new InputProblem(
          `has an entry "${entry.fileName}" that declares ${formatBytes(entry.uncompressedSize)} uncompressed, more than the ${formatBytes(maxEntryBytes)} the local engine reads of one entry`,
        );
      total += entry.uncompressedSize;
      if (total > MAX_ZIP_UNCOMPRESSED_BYTES)
        throw new InputProblem(
          `declares more than the ${formatBytes(MAX_ZIP_UNCOMPRESSED_BYTES)} uncompressed in total that the local engine reads of a zip`,
        );
      found ||= matches;
    }
    return found;
  } catch (error) {
    if (error instanceof InputProblem) throw error;
    throw new InputProblem(`is a damaged zip archive (${(error as Error).message})`);
  } finally {
    zip.close();
  }
}

/**
 * Checks the uncompressed sizes a zip of FBX files declares, before any entry is inflated: each FBX entry at most
 * `maxEntryBytes` and never more than the FBX reader is given (FBX_READ_LIMITS.fileBytes: a 250 MiB FBX in a
 * 2.7 MB zip took 2.7 GB to read), all entries MAX_ZIP_UNCOMPRESSED_BYTES in total. Throws an InputProblem naming
 * the limit. (An entry inflating past what it declares is cut there by the zip reader.)
 */
export async function checkFbxZipSizes(path: string, maxEntryBytes: number): Promise<void> {
  await zipHolds(path, /\.fbx$/i, Math.min(maxEntryBytes, FBX_READ_LIMITS.fileBytes));
}
