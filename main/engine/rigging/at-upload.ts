// An uploaded file with no skeleton is rigged before the upload is answered (on a worker of the engine's pool,
// work/character.ts), so a mesh that is not a humanoid standing upright is refused at once with why (400, no
// session made, nothing charged), as a file that cannot be animated is; a rigged one starts its session with
// its files made. A mesh given by URL is rigged when its session reads it, and fails the session with why.
import type { CharacterFiles, CharacterWork } from '../character/make-files.ts';
import type { FileStore } from '../file-store.ts';
import { PoolClosed } from '../../work/pool.ts';
import { makeCharacterFilesOffThread } from '../work/character.ts';

/** The rigged character's files, or why it cannot be rigged (completing "<the upload> …"). */
export async function rigUploadedMesh(
  files: FileStore,
  work: CharacterWork,
): Promise<{ made: CharacterFiles } | { reason: string }> {
  try {
    const made = await makeCharacterFilesOffThread(files, work);
    return 'error' in made ? { reason: made.error } : { made };
  } catch (error) {
    if (error instanceof PoolClosed) throw error;
    return { reason: `could not be read (${error instanceof Error ? error.message : String(error)})` };
  }
}
