// Which cached outputs an export of a job takes: one file per export kind, the job's own step first.
import { describe, expect, it } from 'vitest';
import type { DownloadCache } from '../../main/cache/download-cache.ts';
import { exportSourcesOf } from '../../main/export/from-job.ts';

/** The two calls exportSourcesOf makes, over a fixed list of complete entries of one session. */
function cacheOf(kinds: string[]): DownloadCache {
  const entries = kinds.map((kind) => ({ sessionId: 'SESSION_a', kind, state: 'complete' }));
  return { list: () => entries, open: (_s: string, kind: string) => `/cache/${kind}` } as unknown as DownloadCache;
}

describe('export sources of a job', () => {
  const kinds = ['spin_0', 'preview_glb', 'preview_usdz', 'glb', 'obj', 'fbx', 'usdz', 'zip', 'polished_glb'];

  it("takes one file per export kind, the job's model first (shared/kinds/job-model.ts) then by key, for a one-step job", () => {
    const oneStep = kinds.filter((k) => k !== 'polished_glb');
    const files = exportSourcesOf({ remoteId: 'SESSION_a', step: null }, cacheOf(oneStep));
    expect(files.map((f) => [f.kind, f.path])).toEqual([
      ['glb', '/cache/glb'],
      ['fbx', '/cache/fbx'],
      ['obj', '/cache/obj'],
      ['usdz', '/cache/usdz'],
      ['zip', '/cache/zip'],
    ]);
    // Named as the service names its files (the cache's blobs have none), in an order that does not depend on use.
    expect(files.map((f) => f.name)).toEqual(['model.glb', 'model.fbx', 'model.obj', 'model.usdz', 'model.zip']);
  });

  it('a session of the older flow listed whole (no step) exports its refined mesh, as its thumbnail and page show', () => {
    expect(
      exportSourcesOf({ remoteId: 'SESSION_a', step: null }, cacheOf(kinds)).find((f) => f.kind === 'glb')!.path,
    ).toBe('/cache/polished_glb');
    // The final zip, not the preview's (by key the preview's came first).
    expect(
      exportSourcesOf({ remoteId: 'SESSION_a', step: null }, cacheOf([...kinds, 'preview_zip'])).find(
        (f) => f.kind === 'zip',
      )!.path,
    ).toBe('/cache/zip');
  });

  it('a refine job exports the refined mesh, a preview job its preview', () => {
    expect(
      exportSourcesOf({ remoteId: 'SESSION_a', step: 'refine' }, cacheOf(kinds)).find((f) => f.kind === 'glb')!.path,
    ).toBe('/cache/polished_glb');
    expect(
      exportSourcesOf({ remoteId: 'SESSION_a', step: 'preview' }, cacheOf(kinds)).find((f) => f.kind === 'glb')!.path,
    ).toBe('/cache/preview_glb');
  });

  it('nothing for a job without a session, or outputs of another session', () => {
    expect(exportSourcesOf({ remoteId: null, step: null }, cacheOf(kinds))).toEqual([]);
    expect(exportSourcesOf({ remoteId: 'SESSION_b', step: null }, cacheOf(kinds))).toEqual([]);
  });
});
