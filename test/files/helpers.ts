// Helpers of the upload tests, also used by bench/transfer-upload.ts.
import { readFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { FBX_BINARY_MAGIC } from '../../shared/file-signature.ts';
import { realFixture } from '../fixtures.ts';

/** The child process that uploads one file and reports its peak memory (see upload-child.ts). */
export const UPLOAD_CHILD = new URL('./upload-child.ts', import.meta.url).pathname;

export interface ChildReport {
  /** Peak resident set size of the child, in bytes. */
  maxRssBytes: number;
  /** The peak before the upload started (modules loaded, client made). */
  baseRssBytes: number;
  seconds: number;
  sent: number;
  /** The session made; null when the service refused the file once it had it all (`refused`: why). */
  sessionCode: string | null;
  refused?: string;
}

/**
 * A sparse file of `size` bytes that starts like a binary FBX 7.4 and holds a rigged character's objects (the
 * Kenney character's, so the embedded engine takes it for a character to animate); the rest reads as zeros.
 */
export async function sparseFbx(path: string, size: number): Promise<void> {
  const handle = await open(path, 'w');
  try {
    const version = Buffer.alloc(4);
    version.writeUInt32LE(7400);
    const character = readFileSync(realFixture('fbx', 'maya_kenney_character_7700_binary.fbx')).subarray(
      FBX_BINARY_MAGIC.length + 4,
    );
    await handle.write(Buffer.concat([FBX_BINARY_MAGIC, version, character]).subarray(0, size));
    await handle.truncate(size);
  } finally {
    await handle.close();
  }
}
