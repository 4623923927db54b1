// Helpers of the upload tests, also used by bench/transfer-upload.ts.
import { open } from 'node:fs/promises';
import { FBX_BINARY_MAGIC } from '../../main/files/sniff.ts';

/** The child process that uploads one file and reports its peak memory (see upload-child.ts). */
export const UPLOAD_CHILD = new URL('./upload-child.ts', import.meta.url).pathname;

export interface ChildReport {
  /** Peak resident set size of the child, in bytes. */
  maxRssBytes: number;
  seconds: number;
  sent: number;
  sessionCode: string;
}

/** A sparse file of `size` bytes that starts like a binary FBX 7.4 (the rest reads as zeros). */
export async function sparseFbx(path: string, size: number): Promise<void> {
  const handle = await open(path, 'w');
  try {
    const version = Buffer.alloc(4);
    version.writeUInt32LE(7400);
    await handle.write(Buffer.concat([FBX_BINARY_MAGIC, version]));
    await handle.truncate(size);
  } finally {
    await handle.close();
  }
}
