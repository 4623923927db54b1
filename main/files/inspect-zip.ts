// Zip archives of FBX files, checked from the central directory without extracting anything: safe entry
// paths, no links or encryption, entry count and declared sizes within the limits (against zip bombs),
// at least one FBX, and each FBX entry's first bytes.
import type { Readable } from 'node:stream';
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import { damaged, InspectionError, type InspectionCode } from './errors.ts';
import { readFbxHead } from './inspect-fbx.ts';
import type { FileLimits } from './limits.ts';
import { formatBytes } from '../../shared/format-bytes.ts';
import { describeContent, sniff } from './sniff.ts';
import type { OpenedFile } from './source.ts';

export interface ZipFbxEntry {
  name: string;
  /** Declared uncompressed size. */
  size: number;
  format: 'binary' | 'ascii';
  version: string | null;
}

export interface ZipInfo {
  /** Entries in the archive, folders included. */
  entries: number;
  /** Sum of the declared uncompressed sizes. */
  uncompressedBytes: number;
  fbx: ZipFbxEntry[];
}

/** Entries smaller than this are not checked for their compression ratio: they cannot make a bomb. */
const RATIO_CHECK_FROM_BYTES = 2 ** 20;
/** Bytes read from each FBX entry: enough for a binary header or an ASCII header line. */
const ENTRY_HEAD_BYTES = 32;
const GENERAL_PURPOSE_ENCRYPTED = 0x1;
const MADE_BY_UNIX = 3;
const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;
const REZIP = 'Create the zip again from a folder of FBX files (e.g. "Compress" in your file manager).';

export async function inspectZip(file: OpenedFile, limits: FileLimits): Promise<ZipInfo> {
  const fail = (code: InspectionCode, reason: string, action = REZIP) =>
    new InspectionError({ code, file: file.path, reason, action });
  if (file.size > limits.maxZipBytes) {
    throw fail(
      'too-large',
      `is ${formatBytes(file.size)}, more than the ${formatBytes(limits.maxZipBytes)} allowed for a zip`,
      'Split it into smaller zips.',
    );
  }
  let zip: ZipFile;
  try {
    zip = await yauzl.openPromise(file.path, {
      lazyEntries: true,
      autoClose: false,
      decodeStrings: false,
      strictFileNames: true,
    });
  } catch (error) {
    throw damaged(file.path, `it is not a complete zip archive (${(error as Error).message})`, REZIP);
  }
  try {
    if (zip.entryCount > limits.maxZipEntries) {
      throw fail(
        'zip-too-many-entries',
        `has ${zip.entryCount} entries, more than the ${limits.maxZipEntries} allowed`,
        'Split it into smaller zips, or leave out files the animation does not need.',
      );
    }
    const fbxEntries: Entry[] = [];
    let uncompressedBytes = 0;
    for await (const entry of readEntries(zip, file.path)) {
      const name = entryName(entry);
      const problem = entryProblem(entry, name, limits);
      if (problem) throw fail(problem.code, `has an entry "${name}" that ${problem.why}`, problem.action ?? REZIP);
      uncompressedBytes += entry.uncompressedSize;
      if (uncompressedBytes > limits.maxZipUncompressedBytes) {
        throw fail(
          'zip-bomb',
          `would expand to more than the ${formatBytes(limits.maxZipUncompressedBytes)} allowed in total`,
          'Split it into smaller zips, or send the FBX files themselves.',
        );
      }
      if (isFbxEntry(name)) fbxEntries.push(entry);
    }
    if (fbxEntries.length === 0) {
      throw fail(
        'zip-no-fbx',
        'holds no FBX file (no entry ending in .fbx)',
        'Put the FBX files to animate in the zip, or send an FBX file itself.',
      );
    }
    const fbx: ZipFbxEntry[] = [];
    for (const entry of fbxEntries) fbx.push(await checkFbxEntry(zip, entry, file.path));
    return { entries: zip.entryCount, uncompressedBytes, fbx };
  } finally {
    zip.close();
  }
}

/** The entries one by one (the central directory is read lazily); yauzl's errors become InspectionErrors. */
async function* readEntries(zip: ZipFile, path: string): AsyncGenerator<Entry> {
  try {
    for await (const entry of zip.eachEntry()) yield entry;
  } catch (error) {
    if (error instanceof InspectionError) throw error;
    throw new InspectionError({
      code: 'zip-damaged',
      file: path,
      reason: `cannot be read as a zip archive (${(error as Error).message})`,
      action: REZIP,
    });
  }
}

/** The entry's name as stored (UTF-8 or CP437), backslashes kept so that they can be refused. */
function entryName(entry: Entry): string {
  return yauzl.getFileNameLowLevel(entry.generalPurposeBitFlag, entry.fileNameRaw, entry.extraFields, true);
}

function isFbxEntry(name: string): boolean {
  const base = name.slice(name.lastIndexOf('/') + 1);
  // macOS adds AppleDouble companions (__MACOSX/…/._name.fbx) that are not FBX files.
  return name.toLowerCase().endsWith('.fbx') && !name.startsWith('__MACOSX/') && !base.startsWith('._');
}

function entryProblem(
  entry: Entry,
  name: string,
  limits: FileLimits,
): { code: InspectionCode; why: string; action?: string } | undefined {
  const unsafe = unsafePath(name);
  if (unsafe)
    return {
      code: 'zip-unsafe-path',
      why: unsafe,
      action: 'Create the zip again from a folder, so that every entry has a plain relative path.',
    };
  if (entry.versionMadeBy >> 8 === MADE_BY_UNIX && ((entry.externalFileAttributes >>> 16) & S_IFMT) === S_IFLNK) {
    return {
      code: 'zip-symlink',
      why: 'is a symbolic link',
      action: 'Create the zip again without links (copy the linked files in instead).',
    };
  }
  if (entry.generalPurposeBitFlag & GENERAL_PURPOSE_ENCRYPTED) {
    return {
      code: 'zip-encrypted',
      why: 'is encrypted (password-protected)',
      action: 'Create the zip again without a password.',
    };
  }
  const { uncompressedSize: full, compressedSize: packed } = entry;
  if (full >= RATIO_CHECK_FROM_BYTES && full > packed * limits.maxZipEntryRatio) {
    const ratio = packed === 0 ? 'without limit' : `${Math.round(full / packed)}×`;
    return {
      code: 'zip-bomb',
      why: `would expand ${ratio} (${formatBytes(full)} from ${formatBytes(packed)}), more than the ${limits.maxZipEntryRatio}× allowed; it looks like a zip bomb`,
      action: 'Create the zip again with ordinary compression, or send the FBX files themselves.',
    };
  }
  if (!entry.canDecodeFileData() && isFbxEntry(name)) {
    return {
      code: 'zip-unsupported',
      why: `is compressed with method ${entry.compressionMethod}, which cannot be read`,
      action: 'Create the zip again with standard (deflate) compression.',
    };
  }
  return undefined;
}

/** Why an entry's path could land outside the folder it is extracted to, if it could. */
function unsafePath(name: string): string | undefined {
  if (name.includes('\\')) return 'has a backslash in its path (a Windows path that could point elsewhere)';
  if (/^[a-zA-Z]:/.test(name)) return 'starts with a drive letter (an absolute path)';
  if (name.startsWith('/')) return 'has an absolute path';
  if (name.split('/').includes('..')) return 'points outside the archive\'s folder with ".." (path traversal)';
  if (name.includes('\0')) return 'has a NUL character in its path';
  return undefined;
}

/** Reads the first bytes of an FBX entry (stopping there) and checks that it is one. */
async function checkFbxEntry(zip: ZipFile, entry: Entry, path: string): Promise<ZipFbxEntry> {
  const name = entryName(entry);
  let head: Buffer;
  try {
    head = await readHead(await zip.openReadStreamPromise(entry), ENTRY_HEAD_BYTES);
  } catch (error) {
    throw damaged(path, `its entry "${name}" cannot be read (${(error as Error).message})`, REZIP);
  }
  const info = readFbxHead(head);
  if (info === undefined) {
    throw new InspectionError({
      code: 'wrong-format',
      file: path,
      reason: `has an entry "${name}" that is not an FBX file (it starts like ${describeContent(sniff(head))})`,
      action: 'Export that model again from your 3D tool as FBX binary or ASCII, then zip again.',
    });
  }
  if (info === 'truncated') throw damaged(path, `its entry "${name}" has an incomplete binary FBX header`, REZIP);
  return { name, size: entry.uncompressedSize, ...info };
}

async function readHead(stream: Readable, bytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let got = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      chunks.push(chunk);
      got += chunk.length;
      if (got >= bytes) break;
    }
  } finally {
    stream.destroy();
  }
  return Buffer.concat(chunks).subarray(0, bytes);
}
