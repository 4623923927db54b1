import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { retopologySession } from '../../shared/contract/index.ts';
import { call, download, expectSuccess, PNG_SIGNATURE, pollUntil, startTestEngine, type TestEngine } from './helpers.ts';

let engine: TestEngine;
beforeAll(async () => {
  engine = await startTestEngine({ speed: 10_000 }); // precision takes 30 minutes at speed 1
});
afterAll(() => engine.dispose());

const read = async (id: string) => expectSuccess('getV3Session', await call(engine, 'getV3Session', { params: { session_id: id } }));
const create = async (input: Record<string, unknown>) => expectSuccess('createRetopology', await call(engine, 'createRetopology', { json: { type: 'retopology', input } }));

describe('v3 retopology', () => {
  it('creates an incomplete bare session and completes with an OBJ and a PNG', async () => {
    const created = await create({ mesh: 'https://example.com/models/statue.glb', model: 'swift' });
    retopologySession.parse(created);
    expect(created).toMatchObject({
      status: 'incomplete',
      type: 'retopology',
      input: { mesh: { name: 'statue.glb', status: 'complete', data: { glb_url: 'https://example.com/models/statue.glb' } }, model: 'swift', quads: true },
      output: { meshes: [{ status: 'incomplete', data: { obj_url: '', image_url: '' } }] },
    });
    expect(created._id).toMatch(/^SESSION_/);
    expect(created.input.mesh._id).toMatch(/^ASSET_/);
    expect(created.output.meshes[0]._id).toMatch(/^ASSET_/);
    expect(typeof created.user_id).toBe('string');

    const done = await pollUntil(() => read(created._id), (s) => s.status !== 'incomplete');
    retopologySession.parse(done);
    expect(done.status).toBe('complete');
    const [mesh] = done.output.meshes;
    expect(mesh.status).toBe('complete');
    const obj = (await download(mesh.data.obj_url)).bytes.toString('utf8');
    expect(obj).toMatch(/\nf \S+ \S+ \S+ \S+\n/);
    expect((await download(mesh.data.image_url)).bytes.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);

    // The input asset can be reused by id; triangles when quads is false.
    const again = await create({ mesh: created.input.mesh._id, model: 'precision', quads: false });
    expect(again.input.mesh).toEqual(created.input.mesh);
    const dense = await pollUntil(() => read(again._id), (s) => s.status !== 'incomplete');
    const triangles = (await download(dense.output.meshes[0].data.obj_url)).bytes.toString('utf8');
    expect(triangles).toMatch(/\nf \S+ \S+ \S+\n/);
    expect(triangles.split('\nf ').length).toBeGreaterThan(obj.split('\nf ').length);
  });

  it('fails for a mesh URL that says fail', async () => {
    const created = await create({ mesh: 'https://example.com/fail.glb', model: 'swift' });
    const done = await pollUntil(() => read(created._id), (s) => s.status !== 'incomplete');
    expect(done.status).toBe('failed');
    expect(done.output.meshes[0].data.obj_url).toBe('');
  });
});
