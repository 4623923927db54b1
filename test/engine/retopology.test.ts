import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { retopologySession } from '../../shared/contract/index.ts';
import { call, download, expectSuccess, inputUrl, PNG_DATA_URI, PNG_SIGNATURE, pollUntil, startTestEngine, type TestEngine } from './helpers.ts';

let engine: TestEngine;
beforeAll(async () => {
  engine = await startTestEngine({ speed: 10_000, initialCredits: 100_000 }); // precision takes 30 minutes at speed 1
});
afterAll(() => engine.dispose());

const read = async (id: string) => expectSuccess('getV3Session', await call(engine, 'getV3Session', { params: { session_id: id } }));
const create = async (input: Record<string, unknown>) => expectSuccess('createRetopology', await call(engine, 'createRetopology', { json: { type: 'retopology', input } }));

describe('v3 retopology', () => {
  it('creates an incomplete bare session and completes with an OBJ and a PNG', async () => {
    const created = await create({ mesh: inputUrl('models/statue.glb'), model: 'swift' });
    retopologySession.parse(created);
    expect(created).toMatchObject({
      status: 'incomplete',
      type: 'retopology',
      input: { mesh: { name: 'statue.glb', status: 'complete', data: { glb_url: inputUrl('models/statue.glb') } }, model: 'swift', quads: true },
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

  it("remeshes the engine's own output: the same shape, size and origin, other faces", async () => {
    // An image-to-3D job of this engine with a size of its own (2.4 × 0.6 × 1.2 m, not the natural ~1 m),
    // then a retopology of its GLB by URL: its box is the GLB's (same size, same place around the origin).
    const scaled = expectSuccess(
      'createImageTo3d',
      await call(engine, 'createImageTo3d', { json: { image_url: PNG_DATA_URI, scaled_bbox: [2.4, 0.6, 1.2], preserve_aspect_ratio: false } }),
    );
    const job = await pollUntil(
      async () => expectSuccess('getImageTo3d', await call(engine, 'getImageTo3d', { params: { session_code: scaled.session_code } })),
      (j) => j.session_status === 'complete',
    );
    const glb = (await download(job.mesh_url_glb)).bytes;
    const glbJson = JSON.parse(glb.subarray(20, 20 + glb.readUInt32LE(12)).toString('utf8'));
    const position = glbJson.accessors[glbJson.meshes[0].primitives[0].attributes.POSITION];
    const created = await create({ mesh: job.mesh_url_glb, model: 'swift', quads: true });
    const done = await pollUntil(() => read(created._id), (s) => s.status !== 'incomplete');
    const obj = (await download(done.output.meshes[0].data.obj_url)).bytes.toString('utf8');
    const { min, max } = objBounds(obj);
    for (let axis = 0; axis < 3; axis++) {
      expect(max[axis]! - min[axis]!).toBeCloseTo([2.4, 0.6, 1.2][axis]!, 2);
      expect(min[axis]).toBeCloseTo(position.min[axis], 2);
      expect(max[axis]).toBeCloseTo(position.max[axis], 2);
    }
    // Quads, and not the GLB's own faces (the swift model's face count).
    const faces = obj.split('\n').filter((line) => line.startsWith('f '));
    expect(faces.every((line) => line.trim().split(/\s+/).length === 5)).toBe(true);
    expect(faces.length).not.toBe(position.count);

    // By the asset's id in a later session: the same shape again. A foreign URL: a shape of the engine's own.
    const byId = await create({ mesh: created.input.mesh._id, model: 'precision' });
    const again = await pollUntil(() => read(byId._id), (s) => s.status !== 'incomplete');
    const dense = objBounds((await download(again.output.meshes[0].data.obj_url)).bytes.toString('utf8'));
    expect(dense.max[0]! - dense.min[0]!).toBeCloseTo(2.4, 2);
    const byUrl = await create({ mesh: inputUrl('models/other.glb'), model: 'swift' });
    const foreign = await pollUntil(() => read(byUrl._id), (s) => s.status !== 'incomplete');
    const other = objBounds((await download(foreign.output.meshes[0].data.obj_url)).bytes.toString('utf8'));
    expect(other.max[0]! - other.min[0]!).toBeLessThan(1.5);
  });

  it('fails when a session-failure fault rule says so', async () => {
    engine.faults.add({ kind: 'session-failure', match: { endpoint: 'createRetopology' } });
    const created = await create({ mesh: inputUrl('in.glb'), model: 'swift' });
    const done = await pollUntil(() => read(created._id), (s) => s.status !== 'incomplete');
    expect(done.status).toBe('failed');
    expect(done.output.meshes[0].data.obj_url).toBe('');
  });
});

/** The bounding box of an OBJ's vertices. */
function objBounds(obj: string): { min: number[]; max: number[] } {
  const min = [Infinity, Infinity, Infinity];
  const max = [-Infinity, -Infinity, -Infinity];
  for (const line of obj.split('\n')) {
    if (!line.startsWith('v ')) continue;
    line.trim().split(/\s+/).slice(1, 4).map(Number).forEach((value, axis) => {
      min[axis] = Math.min(min[axis]!, value);
      max[axis] = Math.max(max[axis]!, value);
    });
  }
  return { min, max };
}
