// A tracker wired to a real engine and a real database in a temp folder, with polling scaled to the
// engine's speed factor (the same scaling the polling benchmark uses).
import { afterEach } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ServiceClient } from '../../main/api/client.ts';
import { RequestBudget } from '../../main/jobs/budget.ts';
import { DEFAULT_TIMING, scaleTiming } from '../../main/jobs/schedule.ts';
import { type SubmitOutcome, Submitter } from '../../main/jobs/submit.ts';
import { JobTracker } from '../../main/jobs/tracker.ts';
import type { TrackerOptions } from '../../main/jobs/tracker-options.ts';
import { openDatabase, type Store } from '../../main/store/database.ts';
import { inputUrl, KEY, startTestEngine, type TestEngine } from '../engine/helpers.ts';
import type { LocalEngineOptions } from '../../main/engine/engine.ts';

/** Closing steps run after each test, the last registered first: `closing(() => thing.close())`. */
export function closeAfterEach(): (close: () => Promise<void>) => void {
  const steps: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of steps.splice(0).reverse()) await close();
  });
  return (close) => {
    steps.push(close);
  };
}

export interface Harness {
  engine: TestEngine;
  client: ServiceClient;
  store: Store;
  tracker: JobTracker;
  submitter: Submitter;
  dir: string;
  /** A fresh tracker on the same database (as after a restart). */
  restartTracker(options?: Partial<TrackerOptions>): JobTracker;
  dispose(): Promise<void>;
}

export async function makeHarness(
  options: { speed?: number; engine?: Partial<LocalEngineOptions>; tracker?: Partial<TrackerOptions> } = {},
): Promise<Harness> {
  const speed = options.speed ?? 200;
  const engine = await startTestEngine({ speed, ...options.engine });
  const dir = mkdtempSync(join(tmpdir(), 'asset-studio-jobs-'));
  const client = new ServiceClient({ baseUrl: engine.url, legacyBaseUrl: engine.legacyUrl, apiKey: KEY });
  const store = openDatabase(join(dir, 'asset-studio.db'));
  const make = (extra: Partial<TrackerOptions> = {}) =>
    new JobTracker({
      store,
      client,
      timing: scaleTiming(DEFAULT_TIMING, speed),
      budget: new RequestBudget({ maxConcurrent: 8, maxPerSecond: 1000 }),
      ...options.tracker,
      ...extra,
    });
  let tracker = make();
  const h: Harness = {
    engine,
    client,
    store,
    tracker,
    submitter: new Submitter({ store, client, tracker }),
    dir,
    restartTracker(extra) {
      tracker = make(extra);
      h.tracker = tracker;
      h.submitter = new Submitter({ store, client, tracker });
      return tracker;
    },
    async dispose() {
      await h.tracker.stop();
      await client.close();
      store.close();
      await engine.dispose();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return h;
}

export const PNG = `data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAYAAABytg0kAAAADklEQVR4nGM4AQUMMAYAcJIMgTrOzewAAAAASUVORK5CYII=`;

/**
 * One job of each resource type, submitted in this order: an image-to-3D job 'chair', a text-to-image job
 * 'lamp', a retopology job 'retopo' and an animation upload 'hero'.
 */
export async function submitOneOfEachType(submitter: Submitter): Promise<SubmitOutcome[]> {
  return [
    await submitter.submit('createImageTo3d', { body: { image_url: PNG } }, { label: 'chair' }),
    await submitter.submit('createTextToImage', { body: { prompt: 'a lamp' } }, { label: 'lamp' }),
    await submitter.submit(
      'createRetopology',
      { body: { type: 'retopology', input: { mesh: inputUrl('a.glb') } } },
      { label: 'retopo' },
    ),
    await submitter.submit('uploadAnimationMesh', { body: { mesh_url: inputUrl('hero.fbx') } }, { label: 'hero' }),
  ];
}
