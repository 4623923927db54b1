// The CLI's default pivot (exportJob/planJob with pivotByDefault): a game project gets the bottom centre for a
// static model with a GLB, decided with the project that the export detects, so the project is detected once.
import { basename } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { DownloadCache } from '../../main/cache/download-cache.ts';
import { exportJob, type JobExportDeps } from '../../main/export/from-job.ts';
import { readManifest } from '../../main/export/manifest.ts';
import type { JobRecord } from '../../main/store/jobs.ts';
import { generatedSources, makeProject, tempDir } from './helpers.ts';

/**
 * The export's modules loaded afresh with a counting detectProject. (The fast tier shares modules between test
 * files, so a hoisted vi.mock would not reach an export module another file loaded first: these are new copies.)
 */
async function exportWithCountedDetect() {
  vi.resetModules();
  vi.doMock('../../main/export/detect.ts', async (original) => {
    const real = await original<typeof import('../../main/export/detect.ts')>();
    return { ...real, detectProject: vi.fn(real.detectProject) };
  });
  const { detectProject } = await import('../../main/export/detect.ts');
  const fromJob = await import('../../main/export/from-job.ts');
  return { detectProject: vi.mocked(detectProject), ...fromJob };
}

afterEach(() => {
  vi.doUnmock('../../main/export/detect.ts');
  vi.resetModules();
});

/** A finished image-to-3D job whose GLB is in a cache that holds only it (no download, no store rows). */
function cachedGlbJob(): { job: JobRecord; deps: JobExportDeps } {
  const { glb } = generatedSources();
  const entries = [{ sessionId: 'SESSION_p', kind: 'glb', state: 'complete' }];
  const cache = { list: () => entries, open: () => glb.path } as unknown as DownloadCache;
  const store = { jobs: { findByRemoteId: () => undefined }, journal: { get: () => undefined } };
  const job = {
    id: 'job_p',
    kind: 'image_to_3d',
    remoteId: 'SESSION_p',
    step: null,
    operationId: null,
    label: 'create-3d chair.png',
    name: null,
    state: 'succeeded',
    rawStatus: 'complete',
    result: {},
  } as unknown as JobRecord;
  return { job, deps: { cache, store, refresh: async () => job } as unknown as JobExportDeps };
}

describe('the default pivot of an export of a job', () => {
  it('a game project gets the bottom centre, its project detected once per plan and once per export', async () => {
    const { detectProject, planJob, exportJob } = await exportWithCountedDetect();
    const { job, deps } = cachedGlbJob();
    const projectDir = makeProject('godot');
    detectProject.mockClear();
    const plan = await planJob(deps, job, { projectDir, pivotByDefault: true });
    expect(detectProject).toHaveBeenCalledTimes(1);
    expect(plan.write.map((w) => [basename(w.name), w.transformed])).toEqual([['chair.glb', true]]);
    expect(plan.bbox!.min[1]).toBeCloseTo(0, 5);

    detectProject.mockClear();
    const result = await exportJob(deps, job, { projectDir, pivotByDefault: true });
    expect(detectProject).toHaveBeenCalledTimes(1);
    expect((await readManifest(result.manifestPath)).transforms).toEqual({ pivot: 'bottom-center' });
    expect(result.bbox!.min[1]).toBeCloseTo(0, 5);
  });

  it('a pivot asked for, a plain folder, or no default asked for: no default pivot', async () => {
    const { job, deps } = cachedGlbJob();
    const asked = await exportJob(deps, job, {
      projectDir: makeProject('godot'),
      transforms: { pivot: 'center' },
      pivotByDefault: true,
    });
    expect((await readManifest(asked.manifestPath)).transforms).toEqual({ pivot: 'center' });
    const folder = await exportJob(deps, job, { projectDir: tempDir(), pivotByDefault: true });
    expect((await readManifest(folder.manifestPath)).transforms).toBeUndefined();
    const none = await exportJob(deps, job, { projectDir: makeProject('godot') });
    expect((await readManifest(none.manifestPath)).transforms).toBeUndefined();
  });
});
