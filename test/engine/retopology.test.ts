import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Document, NodeIO } from '@gltf-transform/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildFbxBinary } from '../../main/engine/outputs/index.ts';
import { retopologySession } from '../../shared/contract/index.ts';
import { compressedGlb } from '../renderer/compressed-fixtures.ts';
import {
  createRetopology,
  download,
  endedImageTo3d,
  endedV3Session,
  expectPng,
  inputUrl,
  PNG_DATA_URI,
  useServedFiles,
  useTestEngine,
} from './helpers.ts';

const engine = useTestEngine({ speed: 10_000, initialCredits: 100_000 }); // precision takes 30 minutes at speed 1

const create = (input: Record<string, unknown>) => createRetopology(engine, input);
const ended = (id: string, limitMs?: number) => endedV3Session(engine, id, limitMs);

describe('v3 retopology', () => {
  it('creates an incomplete bare session and completes with an OBJ and a PNG', async () => {
    const created = await create({ mesh: inputUrl('models/statue.glb'), model: 'swift' });
    retopologySession.parse(created);
    expect(created).toMatchObject({
      status: 'incomplete',
      type: 'retopology',
      input: {
        mesh: { name: 'statue.glb', status: 'complete', data: { glb_url: inputUrl('models/statue.glb') } },
        model: 'swift',
        quads: true,
      },
      output: { meshes: [{ status: 'incomplete', data: { obj_url: '', image_url: '' } }] },
    });
    expect(created._id).toMatch(/^SESSION_/);
    expect(created.input.mesh._id).toMatch(/^ASSET_/);
    expect(created.output.meshes[0]._id).toMatch(/^ASSET_/);
    expect(typeof created.user_id).toBe('string');

    const done = await ended(created._id);
    retopologySession.parse(done);
    expect(done.status).toBe('complete');
    const [mesh] = done.output.meshes;
    expect(mesh.status).toBe('complete');
    const obj = (await download(mesh.data.obj_url)).bytes.toString('utf8');
    expect(obj).toMatch(/\nf \S+ \S+ \S+ \S+\n/);
    expectPng((await download(mesh.data.image_url)).bytes);

    // The input asset can be reused by id; triangles when quads is false.
    const again = await create({ mesh: created.input.mesh._id, model: 'precision', quads: false });
    expect(again.input.mesh).toEqual(created.input.mesh);
    const dense = await ended(again._id);
    const triangles = (await download(dense.output.meshes[0].data.obj_url)).bytes.toString('utf8');
    expect(triangles).toMatch(/\nf \S+ \S+ \S+\n/);
    expect(triangles.split('\nf ').length).toBeGreaterThan(obj.split('\nf ').length);
  });

  it("remeshes the engine's own output: the same shape, size and origin, other faces", async () => {
    // An image-to-3D job of this engine with a size of its own (2.4 × 0.6 × 1.2 m, not the natural ~1 m),
    // then a retopology of its GLB by URL: its box is the GLB's (same size, same place around the origin).
    const { done: job } = await endedImageTo3d(engine, {
      image_url: PNG_DATA_URI,
      scaled_bbox: [2.4, 0.6, 1.2],
      preserve_aspect_ratio: false,
    });
    expect(job.session_status, JSON.stringify(job)).toBe('complete');
    const glb = (await download(job.mesh_url_glb)).bytes;
    const glbJson = JSON.parse(glb.subarray(20, 20 + glb.readUInt32LE(12)).toString('utf8'));
    const position = glbJson.accessors[glbJson.meshes[0].primitives[0].attributes.POSITION];
    const created = await create({ mesh: job.mesh_url_glb, model: 'swift', quads: true });
    const done = await ended(created._id);
    const obj = (await download(done.output.meshes[0].data.obj_url)).bytes.toString('utf8');
    const { min, max } = objBounds(obj);
    for (let axis = 0; axis < 3; axis++) {
      expect(max[axis]! - min[axis]!).toBeCloseTo([2.4, 0.6, 1.2][axis]!, 2);
      expect(min[axis]).toBeCloseTo(position.min[axis], 2);
      expect(max[axis]).toBeCloseTo(position.max[axis], 2);
    }
    // Quad-dominant (mixed topology: quads where two triangles make a good one), within swift's 8,000 faces.
    const corners = obj
      .split('\n')
      .filter((line) => line.startsWith('f '))
      .map((line) => line.trim().split(/\s+/).length - 1);
    expect(corners.every((n) => n === 3 || n === 4)).toBe(true);
    expect(corners.filter((n) => n === 4).length).toBeGreaterThan(corners.length / 2);
    expect(corners.length).toBeLessThanOrEqual(8_000);

    // By the asset's id in a later session: the same shape again. Another server's GLB: read, at its own size.
    const byId = await create({ mesh: created.input.mesh._id, model: 'precision' });
    const again = await ended(byId._id);
    const dense = objBounds((await download(again.output.meshes[0].data.obj_url)).bytes.toString('utf8'));
    expect(dense.max[0]! - dense.min[0]!).toBeCloseTo(2.4, 2);
    const byUrl = await create({ mesh: inputUrl('models/other.glb'), model: 'swift' });
    const foreign = await ended(byUrl._id);
    const other = objBounds((await download(foreign.output.meshes[0].data.obj_url)).bytes.toString('utf8'));
    expect(other.max[0]! - other.min[0]!).toBeLessThan(1.5);
  });

  it('fails when a session-failure fault rule says so', async () => {
    engine.faults.add({ kind: 'session-failure', match: { endpoint: 'createRetopology' } });
    const created = await create({ mesh: inputUrl('in.glb'), model: 'swift' });
    const done = await ended(created._id);
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
    line
      .trim()
      .split(/\s+/)
      .slice(1, 4)
      .map(Number)
      .forEach((value, axis) => {
        min[axis] = Math.min(min[axis]!, value);
        max[axis] = Math.max(max[axis]!, value);
      });
  }
  return { min, max };
}

describe('v3 retopology of real models', () => {
  // A loopback server of real fixtures and of variants made here: the engine reads its inputs by URL.
  const FIXTURES = join(import.meta.dirname, '..', '..', '..', 'shared', 'fixtures', 'real', 'glb');
  const { served, url } = useServedFiles('application/octet-stream');
  beforeAll(async () => {
    served.set('/Fox.glb', await readFile(join(FIXTURES, 'Fox.glb')));
    served.set(
      '/engine-draco.glb',
      Buffer.from((await compressedGlb(join(FIXTURES, '2CylinderEngine.glb'), 'draco')).glb),
    );
    served.set('/points.glb', await pointsOnlyGlb());
    served.set('/hero.fbx', buildFbxBinary('foreign', { targetFaces: 200 }));
  });

  const finished = (id: string) => ended(id, 120_000); // a cap for a hung one: real models take longer

  it('retopologises a textured model given by URL: quads, its place and size, the MTL and texture beside the OBJ, a render', async () => {
    const created = await create({ mesh: url('/Fox.glb'), model: 'swift' });
    const done = await finished(created._id);
    expect(done.status).toBe('complete');
    const { obj_url: objUrl, image_url: imageUrl } = done.output.meshes[0].data;
    const obj = (await download(objUrl)).bytes.toString('utf8');
    const corners = obj
      .split('\n')
      .filter((line) => line.startsWith('f '))
      .map((line) => line.trim().split(/\s+/).length - 1);
    expect(corners.length).toBeLessThan(576); // the fox's 576 triangles, some paired into quads
    expect(corners.filter((n) => n === 4).length).toBeGreaterThan(100);
    const { min, max } = objBounds(obj);
    const fox = { min: [-12.5927, -0.1217, -88.095], max: [12.5927, 78.9072, 66.6249] }; // its rest pose
    for (let axis = 0; axis < 3; axis++) {
      expect(min[axis]).toBeCloseTo(fox.min[axis]!, 2);
      expect(max[axis]).toBeCloseTo(fox.max[axis]!, 2);
    }
    // mtllib and map_Kd resolve relative to the OBJ's URL, as a client loads them.
    expect(obj).toContain('mtllib mesh.mtl');
    const mtl = await download(new URL('mesh.mtl', objUrl).href);
    expect(mtl.status).toBe(200);
    expect(mtl.bytes.toString()).toContain('map_Kd mesh.png');
    const texture = await download(new URL('mesh.png', objUrl).href);
    const foxTexture = (await new NodeIO().readBinary(served.get('/Fox.glb')!))
      .getRoot()
      .listTextures()[0]!
      .getImage()!;
    expect(texture.bytes.equals(Buffer.from(foxTexture))).toBe(true);
    const image = (await download(imageUrl)).bytes;
    expectPng(image);
    expect([image.readUInt32BE(16), image.readUInt32BE(20)]).toEqual([512, 512]);
  });

  it('decodes a Draco-compressed model of 110K triangles: swift at most 8,000 faces, precision many more', async () => {
    const swift = await finished((await create({ mesh: url('/engine-draco.glb'), model: 'swift' }))._id);
    const precision = await finished(
      (await create({ mesh: swift.input.mesh._id, model: 'precision', quads: false }))._id,
    );
    const faces = async (session: typeof swift) =>
      (await download(session.output.meshes[0].data.obj_url)).bytes.toString('utf8').split('\nf ').length - 1;
    expect(swift.status).toBe('complete');
    expect(await faces(swift)).toBeLessThanOrEqual(8_000);
    expect(await faces(swift)).toBeGreaterThan(6_000);
    expect(precision.status).toBe('complete');
    expect(await faces(precision)).toBeGreaterThan(20_000);
  });

  it('fails saying why when the model cannot be retopologised: no triangles, a foreign FBX', async () => {
    const points = await finished((await create({ mesh: url('/points.glb'), model: 'swift' }))._id);
    expect(points.status).toBe('failed');
    expect(points.error).toBe(
      `The input mesh ${url('/points.glb')} holds no triangles (no mesh, or only points and lines): give a model with a triangle mesh.`,
    );
    expect(points.output.meshes[0].data.obj_url).toBe('');
    const fbx = await finished((await create({ mesh: url('/hero.fbx'), model: 'swift' }))._id);
    expect(fbx.status).toBe('failed');
    expect(fbx.error).toMatch(
      /^The input mesh http:\/\/127\.0\.0\.1:\d+\/hero\.fbx is an FBX file, which retopology does not read \(it reads GLB, glTF and OBJ\): convert it to GLB first\.$/,
    );
  });
});

/** A GLB whose only primitive is points. */
async function pointsOnlyGlb(): Promise<Buffer> {
  const doc = new Document();
  const buffer = doc.createBuffer();
  const position = doc
    .createAccessor()
    .setType('VEC3')
    .setArray(new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]))
    .setBuffer(buffer);
  doc
    .createScene()
    .addChild(
      doc
        .createNode()
        .setMesh(doc.createMesh().addPrimitive(doc.createPrimitive().setMode(0).setAttribute('POSITION', position))),
    );
  return Buffer.from(await new NodeIO().writeBinary(doc));
}
