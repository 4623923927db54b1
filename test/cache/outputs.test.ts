// Which outputs of each resource type are downloaded, driven end to end: jobs of every type finish at
// the engine and the tracker's hook caches their files.
import { describe, expect, it } from 'vitest';
import { createDownloadHook, type OutputsReport } from '../../main/cache/auto-download.ts';
import { DownloadCache } from '../../main/cache/download-cache.ts';
import { outputsOf } from '../../main/cache/outputs.ts';
import type { JobRecord } from '../../main/store/jobs.ts';
import { closeAfterEach, makeHarness, PNG, submitOneOfEachType } from '../jobs/harness.ts';
import { join } from 'node:path';

const closing = closeAfterEach();

describe('outputs of finished jobs', () => {
  it('downloads the files of every resource type, GLB always and the other formats as enabled', async () => {
    const h = await makeHarness({ speed: 500 });
    closing(() => h.dispose());
    const cache = new DownloadCache({ store: h.store, dir: join(h.dir, 'cache') });
    closing(() => cache.close());
    const reports = new Map<string, OutputsReport>();
    const tracker = h.restartTracker({
      onFinished: createDownloadHook(cache, h.store, {
        formats: ['image', 'usdz'],
        onReport: (r) => reports.set(r.jobId, r),
      }),
    });
    tracker.start();
    const finish = async (...jobs: { job?: JobRecord }[]) => {
      const ids = jobs.map((j) => j.job!.id);
      await tracker.waitFor(ids, AbortSignal.timeout(20_000));
      await expect.poll(() => ids.every((id) => reports.has(id)), { timeout: 10_000 }).toBe(true);
      return ids.map((id) => {
        const report = reports.get(id)!;
        expect(report.failed).toEqual([]);
        return report.fetched.map((f) => f.kind);
      });
    };
    const s = h.submitter;
    const [current, image, retopo, animation] = await finish(...(await submitOneOfEachType(s)));
    expect(current).toEqual(['glb', 'usdz']); // obj, zip and fbx are not enabled
    expect(image).toEqual(['image']);
    expect(retopo).toEqual(['retopo_obj', 'retopo_image', 'retopo_obj:mesh.mtl']); // the OBJ's MTL is kept with it (#16 item 2)
    // animation_url is also the first library entry: downloaded once, as `animation`.
    expect(animation!.slice(0, 4)).toEqual(['mesh', 'animation', 'render', 'thumbnail']);
    expect(animation!.length).toBeGreaterThan(4);
    expect(animation!.slice(4).every((k) => k.startsWith('library:'))).toBe(true);

    const session = h.store.jobs.list({ kinds: ['animation_session'] })[0]!.remoteId!;
    const older = await s.submit('createImageTo3dLegacy', { body: { image_url: PNG } }, { label: 'older' });
    const [prompts, spin] = await finish(
      await s.submit('submitTextAnimations', { body: { session_code: session, texts: ['walk'] } }, { label: 'walk' }),
      older,
    );
    expect(prompts!.length).toBe(2);
    expect(prompts!.every((k) => /^prompt:\w+(:usdz)?$/.test(k))).toBe(true);
    expect(spin).toEqual(['spin_0', 'spin_1', 'spin_2', 'spin_3']); // the tracker reads them from the list endpoint
    const code = older.job!.remoteId!;
    const [preview] = await finish(
      await s.submit('preview', { params: { session_code: code }, body: {} }, { label: 'preview' }),
    );
    expect(preview).toEqual(['preview_glb', 'preview_usdz']); // mesh_url_glb is the preview's GLB: not twice
    const [refine] = await finish(await s.submit('refine', { params: { session_code: code } }, { label: 'refine' }));
    expect(refine).toEqual(['glb', 'usdz']);

    // The older form (list endpoint) names the spin images and the polished mesh.
    const listed = (await h.client.listImageTo3d({})).results.find((r) => r.session_code === code)!;
    expect(
      outputsOf({ kind: 'image_to_3d_older', step: 'spin', texts: null, result: listed }).map((o) => o.kind),
    ).toEqual(['spin_0', 'spin_1', 'spin_2', 'spin_3']);
    expect(
      outputsOf({ kind: 'image_to_3d_older', step: 'refine', texts: null, result: listed }, []).map((o) => o.kind),
    ).toEqual(['glb']);
  });
});
