// Drag-and-drop batches against the real embedded engine: folders walked, files inspected, jobs
// submitted a few at a time through the journal; bad files and service errors stay on their item.
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { batchJobStates, runBatch, type BatchItem, type BatchItemState } from '../../main/app/batch.ts';
import { countJobs, describeJobs } from '../../shared/batch-counts.ts';
import { sha256File } from '../../main/files/inspect.ts';
import { realFixture } from '../fixtures.ts';
import { makeHarness, type Harness } from '../jobs/harness.ts';

let h: Harness;
let root: string;

beforeAll(async () => {
  h = await makeHarness();
  root = mkdtempSync(join(tmpdir(), 'asset-studio-batch-'));
});
afterAll(async () => {
  await h.dispose();
  rmSync(root, { recursive: true, force: true });
});

const REAL = [
  ['images', 'chair.png'],
  ['images', 'robot.png'],
  ['images', 'fox.jpg'],
  ['fbx', 'Male_Casual.fbx'],
  ['fbx', 'blender_282_suzanne_7400_binary.fbx'],
  ['fbx', 'max_transformed_skin_6100_binary.fbx'],
  ['fbx', 'max_transformed_skin_7500_ascii.fbx'],
  ['fbx', 'maya_kenney_character_7700_binary.fbx'],
  ['zip', 'Platformer Kit (1.0).zip'],
];

/** A dropped folder: the 9 real fixtures (some in a subfolder), one PNG renamed .fbx, and files to skip. */
function dropFolder(name: string): string {
  const folder = join(root, name);
  mkdirSync(join(folder, 'meshes'), { recursive: true });
  for (const [kind, file] of REAL)
    copyFileSync(realFixture(kind!, file!), join(folder, kind === 'fbx' ? 'meshes' : '', file!));
  copyFileSync(realFixture('images', 'chair.png'), join(folder, 'meshes', 'not-really.fbx'));
  writeFileSync(join(folder, '.DS_Store'), 'hidden');
  writeFileSync(join(folder, 'notes.txt'), 'to do');
  return folder;
}

describe('runBatch', () => {
  it('submits 9 real files as jobs and rejects the bad one, with the right counts and events', async () => {
    const folder = dropFolder('drop');
    const seen = new Map<string, BatchItemState[]>();
    let uploading = 0;
    let maxUploading = 0;
    const bytes = new Map<string, number>();
    const summary = await runBatch([folder], {
      submitter: h.submitter,
      imageOptions: { texture_model: 'pbr' },
      onItem: (item) => {
        const states = seen.get(item.name) ?? [];
        if (states.at(-1) !== item.state) {
          if (item.state === 'uploading') maxUploading = Math.max(maxUploading, ++uploading);
          if (states.at(-1) === 'uploading') uploading--;
          states.push(item.state);
        }
        seen.set(item.name, states);
        if (item.sent !== undefined) bytes.set(item.name, item.sent);
      },
    });

    // The engine refuses, at upload, the meshes it cannot animate: Suzanne (no bones), the two 5-bone chains
    // (not a humanoid) and the zip of static props; the other 5 are submitted.
    expect(summary).toMatchObject({ total: 10, submitted: 5, rejected: 1, failed: 4, cancelled: 0 });
    expect(
      summary.items
        .filter((i) => i.state === 'failed')
        .map((i) => i.name)
        .sort(),
    ).toEqual([
      'Platformer Kit (1.0).zip',
      'blender_282_suzanne_7400_binary.fbx',
      'max_transformed_skin_6100_binary.fbx',
      'max_transformed_skin_7500_ascii.fbx',
    ]);
    expect(summary.items.find((i) => i.name === 'blender_282_suzanne_7400_binary.fbx')!.error).toMatch(
      /has no skeleton/,
    );
    expect(summary.skipped.map((s) => [s.path.slice(folder.length + 1), s.reason])).toEqual([
      ['.DS_Store', 'hidden'],
      ['notes.txt', 'not an FBX, zip, PNG, JPEG or WebP file'],
    ]);
    const bad = summary.items.find((i) => i.state === 'rejected')!;
    expect(bad.name).toBe('not-really.fbx');
    expect(bad.error).toBe(
      `${bad.path} is not an FBX file (it starts like a PNG image). Export it again from your 3D tool as FBX binary or ASCII.`,
    );
    expect(seen.get('not-really.fbx')).toEqual(['inspecting', 'rejected']);

    const submitted = summary.items.filter((i) => i.state === 'submitted');
    for (const item of submitted) {
      expect(seen.get(item.name)).toEqual(['inspecting', 'queued', 'uploading', 'submitted']);
      const job = h.store.jobs.get(item.jobId!)!;
      expect(job.label).toBe(item.name);
      expect(job.kind).toBe(item.inspected!.kind === 'image' ? 'image_to_3d' : 'animation_session');
      expect(h.store.journal.get(item.operationId!)).toMatchObject({ state: 'answered', jobId: item.jobId });
    }
    expect(submitted.filter((i) => i.inspected!.kind === 'image')).toHaveLength(3);
    expect(maxUploading).toBeLessThanOrEqual(3);

    // Uploads: progress reached the file size, and the journal holds the file's path and hash.
    for (const item of submitted.filter((i) => i.inspected!.kind !== 'image')) {
      expect(bytes.get(item.name)).toBe(item.inspected!.size);
      expect(h.store.journal.get(item.operationId!)).toMatchObject({
        filePath: item.path,
        fileHash: await sha256File(item.path),
      });
    }
    // Images: sent as data URIs with the chosen options.
    const chair = submitted.find((i) => i.name === 'chair.png')!;
    const body = h.store.journal.get(chair.operationId!)!.body as { image_url: string; texture_model: string };
    expect(body.texture_model).toBe('pbr');
    expect(body.image_url.startsWith('data:image/png;base64,')).toBe(true);
  });

  it('records a service error on its item and goes on with the others', async () => {
    h.engine.faults.add({ kind: 'status', status: 503, match: { endpoint: 'createImageTo3d' }, times: 1 });
    const summary = await runBatch(
      [realFixture('images', 'chair.png'), realFixture('fbx', 'Male_Casual.fbx'), join(root, 'nowhere.png')],
      {
        submitter: h.submitter,
        concurrency: 1,
      },
    );
    expect(summary).toMatchObject({ total: 3, submitted: 1, rejected: 1, failed: 1 });
    const [image, fbx, missing] = summary.items as [BatchItem, BatchItem, BatchItem];
    expect(image).toMatchObject({ state: 'failed', error: expect.stringContaining('the service answered HTTP 503') });
    expect(fbx.state).toBe('submitted');
    expect(missing).toMatchObject({ state: 'rejected', error: expect.stringContaining('nowhere.png does not exist') });
  });

  it('cancels: items not started become cancelled', async () => {
    const folder = dropFolder('cancelled');
    const controller = new AbortController();
    const summary = await runBatch([folder], {
      submitter: h.submitter,
      concurrency: 1,
      signal: controller.signal,
      onItem: (item) => item.state === 'submitted' && controller.abort(),
    });
    // Meshes the engine refuses (no bones, not a humanoid) may come before the first one it takes: those fail.
    expect(summary).toMatchObject({ total: 10, submitted: 1, rejected: 1 });
    expect(summary.failed + summary.cancelled).toBe(8);
    expect(
      summary.items.filter((i) => i.state === 'failed').every((i) => /skeleton|static props/.test(i.error ?? '')),
    ).toBe(true);
    expect(
      summary.items.filter((i) => i.state === 'cancelled').every((i) => i.error === 'the batch was cancelled'),
    ).toBe(true);
  });

  it('takes each file once, even when it is dropped twice', async () => {
    const path = realFixture('images', 'robot.png');
    const summary = await runBatch([path, path], { submitter: h.submitter });
    expect(summary).toMatchObject({ total: 1, submitted: 1 });
  });
});

describe('batchJobStates', () => {
  it('reads a batch’s jobs at once: a job deleted from the library is removed, neither completed nor failed', async () => {
    const summary = await runBatch([realFixture('images', 'chair.png'), realFixture('images', 'fox.jpg')], {
      submitter: h.submitter,
    });
    const ids = summary.items.map((i) => i.jobId!);
    h.store.jobs.delete(ids[1]!);
    const states = batchJobStates(h.store, ids);
    expect(states.get(ids[0]!)).toMatchObject({ final: false });
    expect(states.get(ids[1]!)).toBeNull();
    const counts = countJobs(ids.map((id) => states.get(id)));
    expect(counts).toMatchObject({ total: 2, removed: 1, failed: 0 });
    expect(describeJobs(counts)).toMatch(/^2 jobs \(1 (queued|running), 1 removed\)$/);
  });
});
