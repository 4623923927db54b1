// Issue 22: a /v3 multiview_to_3d session (`input: {images: [front, side], model, settings}`) makes a mesh whose
// front silhouette is the first picture's subject and whose side silhouette (seen from its right) is the
// second's: the produced GLB's triangles are drawn from the front and from the right, and compared with the
// subjects the engine finds in the two pictures, both normalised to their boxes. Two pairs: real pictures, and
// synthetic shapes whose silhouettes differ clearly between the views.
import { describe, expect, it } from 'vitest';
import { segmentSubject } from '../../main/engine/generate/segment.ts';
import { buildHullModel } from '../../main/engine/generate/visual-hull.ts';
import { encodePng, readGlbJson } from '../../main/engine/outputs/index.ts';
import { readGltf } from '../../main/mesh/read-gltf.ts';
import { decodeImage } from '../../main/images/decode-image.ts';
import { iou, pictureBytes } from './generate/fixtures.ts';
import { KEY, pollUntil, useTestEngine } from './helpers.ts';
import { validator } from '../gltf-validator.ts';

const engine = useTestEngine();

const headers = { 'x-api-key': KEY, 'Content-Type': 'application/json' };
const GRID = 48;

const dataUri = (bytes: Buffer, mime = 'image/png') => `data:${mime};base64,${bytes.toString('base64')}`;

/** A white picture with the pixels where `inside(x, y)` (in [0, 1], y down) painted blue. */
function shape(inside: (x: number, y: number) => boolean, size = 160): Buffer {
  const data = new Uint8Array(size * size * 4).fill(255);
  for (let y = 0; y < size; y++)
    for (let x = 0; x < size; x++) {
      if (!inside((x + 0.5) / size, (y + 0.5) / size)) continue;
      const o = (y * size + x) * 4;
      data[o] = 30;
      data[o + 1] = 60;
      data[o + 2] = 200;
    }
  return encodePng(size, size, data);
}

/** The subject the engine finds in a picture, sampled on a GRID × GRID grid over its box (rows top to bottom). */
function subjectMask(bytes: Buffer): Uint8Array {
  const { mask, box } = segmentSubject(decodeImage(bytes));
  const out = new Uint8Array(GRID * GRID);
  for (let j = 0; j < GRID; j++)
    for (let i = 0; i < GRID; i++) {
      const x = Math.floor(box.x0 + ((i + 0.5) / GRID) * (box.x1 - box.x0));
      const y = Math.floor(box.y0 + ((j + 0.5) / GRID) * (box.y1 - box.y0));
      out[j * GRID + i] = mask.data[y * mask.width + x]!;
    }
  return out;
}

/**
 * The mesh's triangles drawn on a GRID × GRID grid over its box, projected by `project` (a vertex to (u, v) in
 * [0, 1], v down); a cell is covered when its centre is inside a triangle.
 */
function silhouette(
  positions: Float32Array,
  indices: Uint32Array,
  project: (p: number[]) => [number, number],
): Uint8Array {
  const out = new Uint8Array(GRID * GRID);
  const uv = (v: number): [number, number] => {
    const [u, w] = project([positions[v * 3]!, positions[v * 3 + 1]!, positions[v * 3 + 2]!]);
    return [u * GRID, w * GRID];
  };
  for (let t = 0; t < indices.length; t += 3) {
    const a = uv(indices[t]!);
    const b = uv(indices[t + 1]!);
    const c = uv(indices[t + 2]!);
    const area = (b[0] - a[0]) * (c[1] - a[1]) - (c[0] - a[0]) * (b[1] - a[1]);
    if (Math.abs(area) < 1e-12) continue;
    const i0 = Math.max(0, Math.floor(Math.min(a[0], b[0], c[0])));
    const i1 = Math.min(GRID - 1, Math.ceil(Math.max(a[0], b[0], c[0])));
    const j0 = Math.max(0, Math.floor(Math.min(a[1], b[1], c[1])));
    const j1 = Math.min(GRID - 1, Math.ceil(Math.max(a[1], b[1], c[1])));
    for (let j = j0; j <= j1; j++)
      for (let i = i0; i <= i1; i++) {
        const [px, py] = [i + 0.5, j + 0.5];
        const w0 = ((b[0] - px) * (c[1] - py) - (c[0] - px) * (b[1] - py)) / area;
        const w1 = ((c[0] - px) * (a[1] - py) - (a[0] - px) * (c[1] - py)) / area;
        const w2 = 1 - w0 - w1;
        if (w0 >= -1e-9 && w1 >= -1e-9 && w2 >= -1e-9) out[j * GRID + i] = 1;
      }
  }
  return out;
}

async function makeFromViews(front: string, side: string, settings: object = {}): Promise<any> {
  const res = await fetch(`${engine.url}/v3/sessions/`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ type: 'multiview_to_3d', input: { images: [front, side], model: 'sculpt', settings } }),
  });
  const created = (await res.json()) as any;
  expect(res.status, JSON.stringify(created)).toBe(201);
  expect(created).toMatchObject({ type: 'multiview_to_3d', status: 'incomplete' });
  expect(created.input.images).toHaveLength(2);
  for (const image of created.input.images)
    expect(image).toMatchObject({ _id: expect.stringMatching(/^ASSET_/), type: 'image' });
  return pollUntil(
    async () =>
      (
        await fetch(`${engine.url}/v3/sessions/${created._id}`, { headers: { 'x-api-key': KEY } })
      ).json() as Promise<any>,
    (s) => s.status !== 'incomplete',
    30_000,
  );
}

/** Front and side silhouettes of the session's GLB against the two pictures' subjects. */
async function compare(session: any, front: Buffer, side: Buffer): Promise<{ front: number; side: number }> {
  expect(session.status, JSON.stringify(session)).toBe('complete');
  const [mesh] = session.output.meshes;
  expect(mesh).toEqual(session.output.mesh);
  for (const field of ['glb_url', 'obj_url', 'fbx_url', 'usdz_url', 'image_url']) {
    expect(mesh.data[field], field).toMatch(/^http/);
    expect((await fetch(mesh.data[field])).status, field).toBe(200);
  }
  const glb = new Uint8Array(await (await fetch(mesh.data.glb_url)).arrayBuffer());
  const report = await validator.validateBytes(glb);
  expect(report.issues.numErrors, JSON.stringify(report.issues.messages)).toBe(0);
  const { positions, indices } = await readGltf(glb, 'glb');
  const min = [Infinity, Infinity, Infinity];
  const max = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < positions.length; i++) {
    min[i % 3] = Math.min(min[i % 3]!, positions[i]!);
    max[i % 3] = Math.max(max[i % 3]!, positions[i]!);
  }
  const t = (p: number[], k: number) => (p[k]! - min[k]!) / (max[k]! - min[k]!);
  // From the front (+Z): x across, y up. From the right (+X): the front (+Z) on the left, y up.
  const fromFront = silhouette(positions, indices, (p) => [t(p, 0), 1 - t(p, 1)]);
  const fromRight = silhouette(positions, indices, (p) => [1 - t(p, 2), 1 - t(p, 1)]);
  return { front: iou(fromFront, subjectMask(front)), side: iou(fromRight, subjectMask(side)) };
}

describe('/v3/sessions of type multiview_to_3d', () => {
  it('real pictures: the chair from the front, the robot from the side', async () => {
    const front = pictureBytes('chair.png');
    const side = pictureBytes('robot.png');
    const session = await makeFromViews(dataUri(front), dataUri(side), { texture_model: 'baked', resolution: 60000 });
    const match = await compare(session, front, side);
    expect(match.front).toBeGreaterThan(0.9);
    expect(match.side).toBeGreaterThan(0.9);
    // Textured from the front picture: the GLB embeds one texture.
    const glb = Buffer.from(await (await fetch(session.output.meshes[0].data.glb_url)).arrayBuffer());
    expect((readGlbJson(glb) as { images?: unknown[] }).images).toHaveLength(1);
  });

  it('synthetic shapes: a cross seen from the front, a wedge seen from the side, and each view is its own', async () => {
    const cross = shape(
      (x, y) => (Math.abs(x - 0.5) < 0.1 && y > 0.1 && y < 0.9) || (Math.abs(y - 0.4) < 0.1 && x > 0.15 && x < 0.85),
    );
    const inWedge = (x: number, y: number) => y > 0.1 && y < 0.9 && x > 0.3 && x < 0.3 + 0.4 * ((y - 0.1) / 0.8) + 0.05;
    const wedge = shape(inWedge);
    const session = await makeFromViews(dataUri(cross), dataUri(wedge), { texture_model: 'none', resolution: 20000 });
    const match = await compare(session, cross, wedge);
    expect(match.front).toBeGreaterThan(0.9);
    expect(match.side).toBeGreaterThan(0.9);
    // The views are not interchangeable: the front silhouette is not the wedge.
    const swapped = await compare(session, wedge, cross);
    expect(swapped.front).toBeLessThan(0.7);
    // The side picture is the object seen from its right (the picture's left is the front): not its mirror image.
    const mirrored = await compare(
      session,
      cross,
      shape((x, y) => inWedge(1 - x, y)),
    );
    expect(mirrored.side).toBeLessThan(0.8);

    // The mesh asset is a retopology input by its id, as image_to_3d's.
    const retopology = await fetch(`${engine.url}/v3/sessions`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ type: 'retopology', input: { mesh: session.output.meshes[0]._id, model: 'swift' } }),
    });
    expect(retopology.status).toBe(201);
    const created = (await retopology.json()) as any;
    const done = await pollUntil(
      async () =>
        (
          await fetch(`${engine.url}/v3/sessions/${created._id}`, { headers: { 'x-api-key': KEY } })
        ).json() as Promise<any>,
      (s) => s.status !== 'incomplete',
      30_000,
    );
    expect(done.status, JSON.stringify(done)).toBe('complete');
    expect(done.output.meshes[0].data.glb_url).toMatch(/^http/);
  });

  it('a very wide and deep subject keeps the grid within its bounds (in process)', () => {
    const band = (w: number, h: number) => {
      const data = new Uint8Array(w * h * 4).fill(255);
      for (let y = 4; y < h - 4; y++) for (let x = 4; x < w - 4; x++) data.set([20, 120, 60, 255], (y * w + x) * 4);
      return { width: w, height: h, data };
    };
    const started = Date.now();
    const model = buildHullModel(
      { front: 'f', side: 's', faces: 200_000, quads: true, texture: 'baked' },
      band(600, 24),
      band(600, 24),
    );
    expect(Math.max(...model.grid)).toBeLessThanOrEqual(192);
    expect(model.mesh.sizes.length).toBeGreaterThan(0);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('refuses fewer than two images, naming the field', async () => {
    const res = await fetch(`${engine.url}/v3/sessions`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        type: 'multiview_to_3d',
        input: { images: [dataUri(pictureBytes('fox.jpg'), 'image/jpeg')] },
      }),
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as any;
    expect(body.message).toContain('input.images');
    expect(body.message).toContain('at least 2');
  });
});
