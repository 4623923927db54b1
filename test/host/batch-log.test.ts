// A batch of dropped files over the bridge (embedded engine): pictures with the image-to-3D options
// chosen, an FBX with animation prompts, a bad file and one the browser could not send; the batch is kept
// in the data folder, listed again by a new bridge on the same folder (a restart), and one cut off by a
// stop is shown with its unsent files marked.
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { BatchView } from '../../shared/bridge/contract.ts';
import { BatchLog, INTERRUPTED } from '../../main/host/batch-log.ts';
import type { BridgeService } from '../../main/host/bridge-service.ts';
import { realFixture } from '../fixtures.ts';
import { recordEvents, tempDir, until } from './helpers.ts';
import { openTestBridge } from './bridge.ts';

const dirs: { remove(): void }[] = [];
const bridges: BridgeService[] = [];
afterEach(async () => {
  for (const b of bridges.splice(0)) await b.close();
  for (const d of dirs.splice(0)) d.remove();
});

async function openBridge(dataDir: string): Promise<BridgeService> {
  const bridge = await openTestBridge(dataDir);
  bridges.push(bridge);
  return bridge;
}

describe('batches kept in the data folder', () => {
  it('runs a batch with its options and lists it again after a restart', async () => {
    const data = tempDir('batch-log');
    dirs.push(data);
    const files = join(data.path, 'drop');
    mkdirSync(files);
    copyFileSync(realFixture('images', 'chair.png'), join(files, 'chair.png'));
    copyFileSync(realFixture('images', 'fox.jpg'), join(files, 'fox.jpg'));
    copyFileSync(realFixture('fbx', 'Male_Casual.fbx'), join(files, 'Male_Casual.fbx'));
    writeFileSync(join(files, 'broken.png'), 'this is not an image at all');
    const paths = ['chair.png', 'fox.jpg', 'Male_Casual.fbx', 'broken.png'].map((n) => ({ path: join(files, n) }));

    const bridge = await openBridge(join(data.path, 'data'));
    const recorder = recordEvents(bridge);
    const { batchId } = (await bridge.call('batch.start', {
      files: paths,
      imageOptions: { geometry_model: 'turbo', texture_model: 'pbr' },
      animationTexts: ['walk forward'],
      notSent: [{ name: 'huge.png', size: 5, error: 'too large to send' }],
    })) as { batchId: string };
    await until(
      () =>
        recorder.events.find((e) => e.event === 'batch.done' && (e.payload as { batchId: string }).batchId === batchId),
      120_000,
      'the batch to finish',
    );
    const { batches } = (await bridge.call('batch.list', {})) as { batches: BatchView[] };
    const batch = batches.find((b) => b.batchId === batchId)!;
    expect(batch.finishedAt).toBeTypeOf('number');
    expect(batch.notSent).toEqual([{ name: 'huge.png', size: 5, error: 'too large to send' }]);
    expect(batch.items.map((i) => [i.name, i.state])).toEqual([
      ['chair.png', 'submitted'],
      ['fox.jpg', 'submitted'],
      ['Male_Casual.fbx', 'submitted'],
      ['broken.png', 'rejected'],
    ]);
    expect(batch.items[3]!.error).toMatch(/broken\.png/);
    expect(batch.items[3]!.error).not.toContain(files); // the name, never the path of an upload
    // The pictures were sent with the options chosen; the FBX got its prompts.
    const services = bridge.services;
    const chair = services.store.jobs.get(batch.items[0]!.jobId!)!;
    const entry = services.store.journal.get(chair.operationId!)!;
    expect(entry.body).toMatchObject({ geometry_model: 'turbo', texture_model: 'pbr' });
    const prompts = services.store.jobs.get(batch.items[2]!.promptsJobId!)!;
    expect(prompts).toMatchObject({ kind: 'animation_prompt', texts: ['walk forward'] });

    // A restart: a new bridge on the same folder lists the same batch.
    await bridge.close();
    bridges.splice(bridges.indexOf(bridge), 1);
    const again = await openBridge(join(data.path, 'data'));
    const after = (await again.call('batch.list', {})) as { batches: BatchView[] };
    expect(after.batches).toEqual(batches);
    // Clear finished forgets it, for good.
    expect(await again.call('batch.forget', { batchIds: [batchId] })).toEqual({ forgotten: 1 });
    expect(((await again.call('batch.list', {})) as { batches: BatchView[] }).batches).toEqual([]);
  });

  it('reads the states of a batch’s jobs in one call, leaving out a job deleted from the library', async () => {
    const data = tempDir('batch-jobs');
    dirs.push(data);
    const bridge = await openBridge(join(data.path, 'data'));
    const { jobs } = bridge.services.store;
    const now = Date.now();
    const done = jobs.insert({
      kind: 'image_to_3d',
      label: 'a.png',
      remoteId: 'SESSION_a',
      state: 'succeeded',
      final: true,
      now,
    });
    const going = jobs.insert({ kind: 'image_to_3d', label: 'b.png', remoteId: 'SESSION_b', now });
    const gone = jobs.insert({
      kind: 'image_to_3d',
      label: 'c.png',
      remoteId: 'SESSION_c',
      state: 'succeeded',
      final: true,
      now,
    });
    jobs.delete(gone.id);
    const answer = (await bridge.call('batch.jobs', { ids: [done.id, going.id, gone.id] })) as {
      jobs: { id: string; state: string; final: boolean }[];
    };
    expect(answer.jobs.sort((x, y) => x.id.localeCompare(y.id))).toEqual(
      [
        { id: done.id, state: 'succeeded', final: true, percent: null },
        { id: going.id, state: 'queued', final: false, percent: null },
      ].sort((x, y) => x.id.localeCompare(y.id)),
    );
    expect(await bridge.call('batch.jobs', { ids: [] })).toEqual({ jobs: [] });
  });

  it('offers files chosen in a native dialog to the UI, folders walked, without sending anything', async () => {
    const data = tempDir('batch-offer');
    dirs.push(data);
    const folder = join(data.path, 'picked');
    mkdirSync(join(folder, 'more'), { recursive: true });
    copyFileSync(realFixture('images', 'chair.png'), join(folder, 'chair.png'));
    copyFileSync(realFixture('fbx', 'Male_Casual.fbx'), join(folder, 'more', 'Male_Casual.fbx'));
    writeFileSync(join(folder, 'notes.txt'), 'not a model');
    const bridge = await openBridge(join(data.path, 'data'));
    const recorder = recordEvents(bridge);
    await bridge.offerFiles([folder]);
    const offer = recorder.events.find((e) => e.event === 'batch.offer')!.payload as {
      files: { path: string; name: string; size: number }[];
      skipped: number;
    };
    expect(offer.files.map((f) => f.name)).toEqual(['chair.png', 'Male_Casual.fbx']);
    expect(offer.files[0]).toEqual({
      path: join(folder, 'chair.png'),
      name: 'chair.png',
      size: readFileSync(join(folder, 'chair.png')).length,
    });
    expect(offer.skipped).toBe(1);
    // A folder dropped on the desktop app's window: the same walk, answered to the page.
    expect(await bridge.call('batch.expand', { files: [{ path: folder }] })).toEqual(offer);
    expect(((await bridge.call('batch.list', {})) as { batches: BatchView[] }).batches).toEqual([]);
    expect(bridge.services.store.jobs.list({})).toEqual([]);
  });

  it('writes the changes of a large batch together, not once per change', () => {
    const data = tempDir('batch-many');
    dirs.push(data);
    const log = new BatchLog(data.path);
    log.begin('batch_many', []);
    const saved = () =>
      (JSON.parse(readFileSync(log.path, 'utf8')) as { batches: BatchView[] }).batches[0]!.items.length;
    for (let index = 0; index < 2000; index++)
      log.item('batch_many', { index, path: `/drop/${index}.png`, name: `${index}.png`, state: 'queued' });
    expect(saved()).toBe(0); // not yet written: the changes wait for one write
    log.flush();
    expect(saved()).toBe(2000);
    log.finish('batch_many');
    expect(new BatchLog(data.path).list()[0]!.finishedAt).toBeTypeOf('number');
  });

  it('shows a batch cut off by a stop with its unsent files marked', async () => {
    const data = tempDir('batch-cut');
    dirs.push(data);
    mkdirSync(data.path, { recursive: true });
    const cut: BatchView = {
      batchId: 'batch_cut',
      createdAt: 1,
      notSent: [],
      items: [
        { index: 0, name: 'a.png', state: 'submitted', jobId: 'job_1' },
        { index: 1, name: 'b.png', state: 'uploading' },
        { index: 2, name: 'c.png', state: 'inspecting' },
      ],
    };
    writeFileSync(join(data.path, 'batches.json'), JSON.stringify({ version: 1, batches: [cut] }));
    const bridge = await openBridge(data.path);
    const { batches } = (await bridge.call('batch.list', {})) as { batches: BatchView[] };
    expect(batches[0]!.finishedAt).toBeTypeOf('number');
    expect(batches[0]!.items.map((i) => [i.state, i.error])).toEqual([
      ['submitted', undefined],
      ['cancelled', INTERRUPTED],
      ['cancelled', INTERRUPTED],
    ]);
  });
});
