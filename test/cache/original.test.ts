// findOriginal: the library job whose cached output is a retopology job's input mesh, matched by URL
// without the signature query; partial downloads, unknown assets and other kinds of jobs said in words.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findOriginal, inputMeshOf, NOT_CACHED } from '../../main/cache/original.ts';
import { openDatabase } from '../../main/store/database.ts';

const dir = mkdtempSync(join(tmpdir(), 'original-'));
const store = openDatabase(join(dir, 'asset-studio.db'));
afterAll(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

const now = 1_700_000_000_000;
const GLB = 'https://cdn.example.com/sessions/SESSION_A/mesh.glb';

function cacheEntry(sessionId: string, jobId: string | null, kind: string, url: string, complete: boolean) {
  const entry = store.cache.upsert({ sessionId, jobId, kind, urlKey: url.split('?')[0]!, now });
  if (complete)
    store.cache.markComplete(entry.id, {
      etag: null,
      size: 10,
      sha256: 'a'.repeat(64),
      blobPath: `blobs/aa/${'a'.repeat(64)}`,
      now,
    });
}

/** A finished image-to-3D job of the library. */
const finishedModel = (label: string, remoteId: string) =>
  store.jobs.insert({ kind: 'image_to_3d', label, remoteId, state: 'succeeded', final: true, now });

const original = finishedModel('chair.png', 'SESSION_A');
cacheEntry('SESSION_A', original.id, 'glb', `${GLB}?expires=1&sig=old`, true);

function retopo(remoteId: string, mesh: unknown) {
  const job = store.jobs.insert({
    kind: 'v3_session',
    label: 'Retopology',
    remoteId,
    state: 'succeeded',
    final: true,
    result: { _id: remoteId, type: 'retopology', input: { mesh, model: 'swift' } },
    now,
  });
  cacheEntry(remoteId, job.id, 'retopo_obj', `https://cdn.example.com/${remoteId}/retopology.obj`, true);
  return job;
}

describe('findOriginal', () => {
  it("matches the input asset's signed GLB URL to the cached output, whatever its signature", () => {
    const job = retopo('V3_1', {
      _id: 'ASSET_1',
      name: 'mesh.glb',
      status: 'complete',
      data: { glb_url: `${GLB}?expires=2&sig=new` },
    });
    expect(findOriginal(store, job)).toEqual({
      mesh: GLB,
      original: { jobId: original.id, sessionId: 'SESSION_A', kind: 'glb', label: 'chair.png' },
      kind: 'retopo_obj',
      reason: null,
    });
  });

  it('reads a plain URL string, and follows an ASSET_ id to the session that created it', () => {
    expect(findOriginal(store, retopo('V3_2', GLB)).original?.jobId).toBe(original.id);
    const byAsset = retopo('V3_3', { _id: 'ASSET_1', name: 'mesh.glb', status: 'complete', data: {} });
    expect(inputMeshOf(byAsset, store)).toEqual({ assetId: 'ASSET_1' });
    expect(findOriginal(store, byAsset).original?.jobId).toBe(original.id);
    const unknown = findOriginal(store, retopo('V3_4', 'ASSET_unknown'));
    expect(unknown).toMatchObject({ mesh: 'ASSET_unknown', original: null });
    expect(unknown.reason).toContain('the asset ASSET_unknown of an earlier session that is not in this library');
  });

  it('says the original is not fully downloaded, or not in the cache at all', () => {
    const other = finishedModel('robot.png', 'SESSION_B');
    cacheEntry('SESSION_B', other.id, 'glb', 'https://cdn.example.com/sessions/SESSION_B/mesh.glb?sig=x', false);
    const partial = findOriginal(store, retopo('V3_5', 'https://cdn.example.com/sessions/SESSION_B/mesh.glb?sig=y'));
    expect(partial.original).toBeNull();
    expect(partial.reason).toBe(
      'The original mesh (the glb output of "robot.png") is not fully downloaded yet (pending): download that job\'s files, then compare.',
    );
    const elsewhere = findOriginal(store, retopo('V3_6', 'https://elsewhere.example.com/m.glb?sig=z'));
    expect(elsewhere).toMatchObject({
      mesh: 'https://elsewhere.example.com/m.glb',
      original: null,
      kind: 'retopo_obj',
      reason: NOT_CACHED,
    });
  });

  it('has no original for other kinds of jobs', () => {
    expect(findOriginal(store, original)).toMatchObject({
      original: null,
      reason: 'Only a retopology job has an original mesh to compare with.',
    });
  });
});
