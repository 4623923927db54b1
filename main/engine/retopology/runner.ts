// Running retopologies in the engine's background: one at a time (a dense input takes a few seconds of CPU
// and a few hundred MB), each once per session, its files written into the file store. A session asks
// for its retopology when its input has been read, waits while it runs, and records the outcome; a
// retopology cut short by a stop of the engine is asked for again at the next read of its session. The work
// itself (reading the input, retopologizing, writing the files' bytes) runs on a worker thread of the engine's
// pool (work/pool.ts); closing the runner cancels it.
import type { Output } from '../artifacts.ts';
import type { FileStore } from '../file-store.ts';
import type { RetopologySource, RetopologyResult } from '../work/tasks.ts';
import type { RetopologyFiles } from './make-files.ts';
import { UnreadableMesh } from '../../mesh/unreadable.ts';

export interface RetopologyWork {
  /** Folder of the OBJ, its MTL and textures: `<owner>/<name>` (the OBJ is `<folder>/mesh.obj`). */
  folder: string;
  /** Key of the preview image (a PNG). */
  image: string;
  /** Key of the GLB of the result; undefined: none is written. */
  glb?: string;
  faces: number;
  quads: boolean;
  imageSize: number;
  /** Where the input mesh is read from (on the worker); throws an UnreadableMesh when it cannot be retopologised. */
  input: () => Promise<RetopologySource>;
  /** The input as messages name it: "The input mesh https://…/statue.glb". */
  describe: string;
}

export type RetopologyOutcome =
  | { obj: Output; image: Output; glb?: Output; stats: RetopologyFiles['stats'] }
  | { error: string };

/** Name of the OBJ's files in its folder (mesh.obj, mesh.mtl, mesh.png), as every OBJ of the engine. */
const NAME = 'mesh';

export class RetopologyRunner {
  private readonly files: FileStore;
  private readonly running = new Map<string, Promise<void>>();
  private tail: Promise<void> = Promise.resolve();
  private closing = false;
  private readonly stop = new AbortController();

  constructor(files: FileStore) {
    this.files = files;
  }

  /** Is the retopology `id` running (or waiting for its turn)? */
  has(id: string): boolean {
    return this.running.has(id);
  }

  /**
   * Starts the retopology `id` after those already asked for, unless it is running; `done` records its
   * outcome (and saves the state). Nothing starts once the runner is closing.
   */
  start(id: string, work: RetopologyWork, done: (outcome: RetopologyOutcome) => Promise<void>): void {
    if (this.running.has(id) || this.closing) return;
    const job = this.tail
      .then(async () => {
        if (this.closing) return;
        const outcome = await this.make(work);
        if (!this.closing) await done(outcome);
      })
      .catch(() => undefined) // `done` saves the state: a failed save is retried by the next change
      .finally(() => this.running.delete(id));
    this.running.set(id, job);
    this.tail = job;
  }

  /** Cancels the running retopology (its worker is stopped; its outcome is not recorded) and starts no other. */
  async close(): Promise<void> {
    this.closing = true;
    this.stop.abort(new Error('the engine stopped'));
    await Promise.allSettled([...this.running.values()]);
  }

  private async make(work: RetopologyWork): Promise<RetopologyOutcome> {
    let made: RetopologyResult;
    try {
      made = await this.files.work.run(
        {
          kind: 'retopology',
          source: await work.input(),
          faces: work.faces,
          quads: work.quads,
          name: NAME,
          imageSize: work.imageSize,
        },
        { signal: this.stop.signal },
      );
    } catch (error) {
      if (this.closing) return { error: 'the engine stopped' };
      if (error instanceof UnreadableMesh) return { error: `${work.describe} ${error.reason}.` };
      return {
        error: `${work.describe} could not be retopologised (${error instanceof Error ? error.message : String(error)}).`,
      };
    }
    if (this.closing) return { error: 'the engine stopped' };
    if ('unreadable' in made) return { error: `${work.describe} ${made.unreadable}.` };
    await Promise.all(made.folder.map((file) => this.files.put(`${work.folder}/${file.file}`, file.bytes)));
    await this.files.put(work.image, made.image);
    if (work.glb !== undefined) await this.files.put(work.glb, made.glb);
    return {
      obj: { key: `${work.folder}/${NAME}.obj`, recipe: { type: 'made' } },
      image: { key: work.image, recipe: { type: 'made' } },
      ...(work.glb !== undefined && { glb: { key: work.glb, recipe: { type: 'made' as const } } }),
      stats: made.stats,
    };
  }
}
