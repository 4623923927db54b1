// What a batch will submit, known before its price is quoted: every file inspected as the batch will inspect
// it (main/files/inspect.ts: its content, not only its name; sizes, zip contents, image dimensions), so that the
// quote counts only the files that will be sent and says which are refused and why. A batch quoted by names
// alone charged less than it said (issue #33: 80 credits quoted, 65 spent: files refused at submission were counted).
// runBatch takes these inspections as they are (`checked`), so no file is read twice.
import { basename } from 'node:path';
import type { EndpointId } from '../../shared/contract/index.ts';
import { InspectionError, inspectFile, type InspectedFile } from '../files/inspect.ts';
import { DEFAULT_LIMITS, type FileLimits } from '../files/limits.ts';

/** A file of the batch and what it becomes, or why it is refused. */
export type CheckedFile =
  | { path: string; name: string; kind: 'image' | 'mesh'; inspected: InspectedFile }
  /** `refused`: why, a sentence naming the file by its name (never its folder, which may be the app's own). */
  | { path: string; name: string; refused: string };

export interface BatchCheck {
  /** Every file, in the batch's order. */
  files: CheckedFile[];
  /** Each file's inspection (or why it was refused), by path, for runBatch. */
  checked: ReadonlyMap<string, InspectedFile | Error>;
}

/** How many files are inspected at once. */
const CHECKS_AT_ONCE = 3;

/** Inspects every file of a batch (at most a few at once); a refused file never stops the others. */
export async function checkBatchFiles(
  paths: readonly string[],
  limits: FileLimits = DEFAULT_LIMITS,
  signal?: AbortSignal,
): Promise<BatchCheck> {
  const files: CheckedFile[] = new Array(paths.length);
  const checked = new Map<string, InspectedFile | Error>();
  let next = 0;
  const worker = async () => {
    while (next < paths.length) {
      const i = next++;
      const path = paths[i]!;
      const name = basename(path);
      signal?.throwIfAborted();
      try {
        const inspected = await inspectFile(path, limits);
        checked.set(path, inspected);
        files[i] = { path, name, kind: inspected.kind === 'image' ? 'image' : 'mesh', inspected };
      } catch (error) {
        const refusal = error instanceof Error ? error : new Error(String(error));
        checked.set(path, refusal);
        const why =
          refusal instanceof InspectionError
            ? `${name} ${refusal.reason}. ${refusal.action}`
            : `${name} cannot be read: ${refusal.message}`;
        files[i] = { path, name, refused: why };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(CHECKS_AT_ONCE, paths.length) }, worker));
  return { files, checked };
}

/**
 * The creates a checked batch will send, one per request: a picture's image-to-3D create, an FBX/zip's upload,
 * and with animation prompts, one prompt request per mesh. Refused files send nothing.
 */
export function batchCreates(check: Pick<BatchCheck, 'files'>, animationTexts: readonly string[] = []): EndpointId[] {
  return check.files.flatMap((f): EndpointId[] =>
    'refused' in f
      ? []
      : f.kind === 'image'
        ? ['createImageTo3d']
        : animationTexts.length > 0
          ? ['uploadAnimationMesh', 'submitTextAnimations']
          : ['uploadAnimationMesh'],
  );
}
