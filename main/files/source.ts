// A local file opened for inspection: its handle, size and first bytes. Failing to open it is an
// InspectionError like any other problem with the file.
import type { FileHandle } from 'node:fs/promises';
import { open } from 'node:fs/promises';
import { InspectionError } from './errors.ts';
import { SNIFF_BYTES } from './sniff.ts';

export interface OpenedFile {
  path: string;
  handle: FileHandle;
  size: number;
  /** The first bytes (up to SNIFF_BYTES). */
  head: Buffer;
}

const WHY: Record<string, string> = {
  ENOENT: 'does not exist',
  EACCES: 'cannot be read: permission denied',
  EPERM: 'cannot be read: permission denied',
  EISDIR: 'is a folder, not a file',
  ELOOP: 'is a link that points to itself',
};

/** Opens a regular, non-empty file and reads its head; the caller closes `handle`. */
export async function openFile(path: string): Promise<OpenedFile> {
  let handle: FileHandle;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    throw unreadable(path, error);
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) {
      const reason = stat.isDirectory() ? 'is a folder, not a file' : 'is not a regular file';
      throw new InspectionError({
        code: 'not-a-file',
        file: path,
        reason,
        action: 'Choose an FBX file, a zip of FBX files, or an image.',
      });
    }
    if (stat.size === 0) {
      throw new InspectionError({
        code: 'empty',
        file: path,
        reason: 'is empty (0 bytes)',
        action: 'Check that it was saved or copied completely, or export it again.',
      });
    }
    return { path, handle, size: stat.size, head: await readAt(handle, 0, Math.min(stat.size, SNIFF_BYTES)) };
  } catch (error) {
    await handle.close();
    throw error instanceof InspectionError ? error : unreadable(path, error);
  }
}

/** Reads up to `length` bytes at `position`; fewer at the end of the file. */
export async function readAt(handle: FileHandle, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  const { bytesRead } = await handle.read(buffer, 0, length, position);
  return bytesRead === length ? buffer : buffer.subarray(0, bytesRead);
}

export function unreadable(path: string, error: unknown): InspectionError {
  const code = (error as NodeJS.ErrnoException | undefined)?.code ?? '';
  const reason = WHY[code] ?? `cannot be read (${code || (error instanceof Error ? error.message : String(error))})`;
  return new InspectionError({
    code: code === 'EISDIR' ? 'not-a-file' : 'unreadable',
    file: path,
    reason,
    action: 'Check the path and that you are allowed to read the file.',
  });
}
