// An uploaded character's files (character/make-files.ts) made on a worker thread of the engine's pool: the
// worker reads the FBX, rigs and renders it, and its files are stored here as they come back.
import type { CharacterFiles, CharacterWork } from '../character/make-files.ts';
import type { FileStore } from '../file-store.ts';

/** As makeCharacterFiles, off the event loop; rejects with PoolClosed when the engine stops first. */
export async function makeCharacterFilesOffThread(
  files: FileStore,
  work: CharacterWork,
): Promise<CharacterFiles | { error: string }> {
  // Its worker ends after it (recycle): Babylon's parse of an upload is the engine's largest allocation, and a
  // worker keeps what it allocated while it lives.
  const result = await files.work.run({ kind: 'character', work }, { recycle: true });
  if ('error' in result) return result;
  for (const file of result.files) await files.put(file.key, file.bytes);
  return result.made;
}
