// The engine's CPU work as plain-data tasks: what a worker thread of the pool (pool.ts, worker.ts) runs, and what
// the pool runs on the calling thread when it has no workers (size 0). A task names its inputs by file path or
// carries them as bytes, and its result is plain data whose bytes travel back as transferred ArrayBuffers.
// The modules doing the work are imported when a task first needs them, so a worker loads Babylon.js (the FBX
// reader) only when it reads a character.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { threadId } from 'node:worker_threads';
import type { Recipe } from '../artifacts.ts';
import type { CharacterFiles, CharacterWork } from '../character/make-files.ts';
import type { FileStore } from '../file-store.ts';
import type { RetopologyFiles } from '../retopology/make-files.ts';
import { ownCopy } from '../../work/serve-tasks.ts';

/** Where a retopology's input mesh comes from: a stored file (GLB, glTF, OBJ), or the GLB of one of the engine's own models. */
export type RetopologySource = { path: string } | { recipe: Recipe; root: string };

export type Task =
  /** The bytes of an output file made from its recipe; `root` is the file store's folder (stored inputs are read there). */
  | { kind: 'artifact'; recipe: Recipe; root: string }
  | {
      kind: 'retopology';
      source: RetopologySource;
      faces: number;
      quads: boolean;
      name: string;
      imageSize: number;
    }
  /** An uploaded character read, rigged and rendered (character/make-files.ts); its files come back as bytes. */
  | { kind: 'character'; work: CharacterWork }
  /**
   * For tests and benches: busy for `spinMs`, and then until `gate[0]` (an Int32Array on a SharedArrayBuffer) is
   * not 0, then answers the thread it ran on; or crashes the way it says.
   */
  | { kind: 'probe'; spinMs?: number; gate?: Int32Array; crash?: 'throw-uncaught' | 'exit' | 'out-of-memory' };

export type RetopologyResult =
  | { unreadable: string }
  | { folder: RetopologyFiles['folder']; image: Uint8Array; glb: Uint8Array; stats: RetopologyFiles['stats'] };

export type CharacterResult = { error: string } | { made: CharacterFiles; files: { key: string; bytes: Uint8Array }[] };

export interface ResultOf {
  artifact: Uint8Array;
  retopology: RetopologyResult;
  character: CharacterResult;
  probe: { threadId: number };
}

/** Runs a task on this thread; `transfer` collects the ArrayBuffers its result can hand over without a copy. */
export async function runTask(task: Task, transfer: ArrayBuffer[] = []): Promise<unknown> {
  switch (task.kind) {
    case 'artifact': {
      const { makeArtifact } = await import('../artifacts.ts');
      return ownCopy(makeArtifact(task.recipe, storedReader(task.root)), transfer);
    }
    case 'retopology':
      return retopology(task, transfer);
    case 'character':
      return character(task.work, transfer);
    case 'probe':
      return probe(task);
  }
}

const storedReader = (root: string) => (key: string) => readFileSync(join(root, ...key.split('/')));

async function retopology(
  task: Extract<Task, { kind: 'retopology' }>,
  transfer: ArrayBuffer[],
): Promise<RetopologyResult> {
  const [{ makeRetopologyFiles }, { readInputMesh }, { readGltf }, { UnreadableMesh }, { decodeTexture }] =
    await Promise.all([
      import('../retopology/make-files.ts'),
      import('../retopology/read-input.ts'),
      import('../../mesh/read-gltf.ts'),
      import('../../mesh/unreadable.ts'),
      import('../../mesh/render.ts'),
    ]);
  let made: RetopologyFiles;
  try {
    let input: Awaited<ReturnType<typeof readGltf>>;
    if ('path' in task.source) input = await readInputMesh(task.source.path);
    else {
      const { makeArtifact } = await import('../artifacts.ts');
      input = await readGltf(makeArtifact(task.source.recipe, storedReader(task.source.root)), 'glb');
    }
    made = await makeRetopologyFiles(input, {
      faces: task.faces,
      quads: task.quads,
      name: task.name,
      imageSize: task.imageSize,
      // A texture for the preview, when the engine decodes its format (PNG, JPEG; not WebP).
      decodeTexture,
    });
  } catch (error) {
    if (error instanceof UnreadableMesh) return { unreadable: error.reason };
    throw error;
  }
  return {
    folder: made.folder.map((f) => ({ file: f.file, bytes: ownCopy(f.bytes, transfer) })),
    image: ownCopy(made.image, transfer),
    glb: ownCopy(made.glb, transfer),
    stats: made.stats,
  };
}

async function character(work: CharacterWork, transfer: ArrayBuffer[]): Promise<CharacterResult> {
  const { makeCharacterFiles } = await import('../character/make-files.ts');
  const files: { key: string; bytes: Uint8Array }[] = [];
  // makeCharacterFiles writes through the store's `put` only: here its files are collected, and the calling
  // thread stores them (FileStore.put) when they arrive.
  const collector = {
    put: async (key: string, bytes: Uint8Array) => void files.push({ key, bytes: ownCopy(bytes, transfer) }),
  } as unknown as FileStore;
  const made = await makeCharacterFiles(collector, work);
  return 'error' in made ? made : { made, files };
}

async function probe(task: Extract<Task, { kind: 'probe' }>): Promise<{ threadId: number }> {
  const until = performance.now() + (task.spinMs ?? 0);
  while (performance.now() < until || (task.gate !== undefined && Atomics.load(task.gate, 0) === 0)) {
    // busy: the thread is not given back until the time is up and the gate is open
  }
  if (task.crash === 'throw-uncaught')
    return new Promise(() =>
      setImmediate(() => {
        throw new Error('probe crash');
      }),
    );
  if (task.crash === 'exit') process.exit(3);
  if (task.crash === 'out-of-memory') {
    const hoard: unknown[] = [];
    for (;;) hoard.push(Array.from({ length: 1e5 }, (_, i) => ({ i })));
  }
  return { threadId };
}
