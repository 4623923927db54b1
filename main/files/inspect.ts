// Inspection of a local file before it is sent: what it is by its content (not only its name), whether
// it is within the limits, and its details. Any problem with the file is an InspectionError.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { inputKindOfName } from '../../shared/input-names.ts';
import { wrongFormat, type Expected } from './errors.ts';
import { inspectFbx, type FbxInfo } from './inspect-fbx.ts';
import { inspectImage, type ImageInfo } from './inspect-image.ts';
import { inspectZip, type ZipInfo } from './inspect-zip.ts';
import { DEFAULT_LIMITS, type FileLimits } from './limits.ts';
import { describeContent, sniff, type ContentKind } from './sniff.ts';
import { openFile, unreadable } from './source.ts';

export { InspectionError, type InspectionCode } from './errors.ts';

interface FileFacts {
  path: string;
  /** Bytes. */
  size: number;
  /** Hex sha256 of the content, when asked for. */
  sha256?: string;
}

export type InspectedFbx = FileFacts & FbxInfo & { kind: 'fbx' };
export type InspectedZip = FileFacts & ZipInfo & { kind: 'zip' };
export type InspectedImage = FileFacts & ImageInfo & { kind: 'image' };
export type InspectedFile = InspectedFbx | InspectedZip | InspectedImage;

export interface InspectOptions {
  /** Also compute the sha256 of the whole file (reads it all). */
  hash?: boolean;
}

const BY_CONTENT: Partial<Record<ContentKind, Exclude<Expected, 'any'>>> = {
  fbx: 'fbx',
  zip: 'zip',
  png: 'image',
  jpeg: 'image',
  webp: 'image',
};

/** What a file's name says it is; `any` for other names. */
export function expectedKind(path: string): Expected {
  return inputKindOfName(path) ?? 'any';
}

/**
 * Recognises a file by its first bytes and checks it. A file whose name says FBX, zip or image must hold
 * that kind of content (images may be any of PNG/JPEG/WebP); other names are judged by content alone.
 */
export async function inspectFile(
  path: string,
  limits: FileLimits = DEFAULT_LIMITS,
  options: InspectOptions = {},
): Promise<InspectedFile> {
  const file = await openFile(path);
  let inspected: InspectedFile;
  try {
    const expected = expectedKind(path);
    const content = sniff(file.head);
    const kind = BY_CONTENT[content];
    if (kind === undefined || (expected !== 'any' && expected !== kind))
      throw wrongFormat(path, expected, describeContent(content));
    const facts = { path, size: file.size };
    if (kind === 'fbx') inspected = { kind, ...facts, ...(await inspectFbx(file, limits)) };
    else if (kind === 'zip') inspected = { kind, ...facts, ...(await inspectZip(file, limits)) };
    else inspected = { kind, ...facts, ...(await inspectImage(file, limits)) };
  } finally {
    await file.handle.close();
  }
  if (options.hash) inspected.sha256 = await sha256File(path);
  return inspected;
}

/** Hex sha256 of a file's content, streamed. Failing to read it is an InspectionError; an abort rethrows the AbortError. */
export async function sha256File(path: string, signal?: AbortSignal): Promise<string> {
  const hash = createHash('sha256');
  try {
    for await (const chunk of createReadStream(path, { highWaterMark: 2 ** 20, ...(signal && { signal }) }))
      hash.update(chunk as Buffer);
  } catch (error) {
    throw signal?.aborted ? error : unreadable(path, error);
  }
  return hash.digest('hex');
}
