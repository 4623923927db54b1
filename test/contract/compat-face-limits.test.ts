// Issue 14, item 5: never exceed the limits the seed states. Swift retopology gives up to 8K faces (a quad
// and a triangle each count as one face), for the largest meshes the engine itself makes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { download, inputUrl, PNG_DATA_URI, startTestEngine, type TestEngine } from '../engine/helpers.ts';
import { pollData, pythonPost } from './third-party.ts';

let engine: TestEngine;
beforeAll(async () => {
  engine = await startTestEngine({ speed: 20_000, initialCredits: 100_000 }); // precision takes 30 minutes at speed 1
});
afterAll(() => engine.dispose());

const facesOf = (obj: string) => obj.split('\n').filter((line) => line.startsWith('f ')).length;

async function retopology(mesh: string, model: 'swift' | 'precision', quads: boolean): Promise<string> {
  const created = await pythonPost(`${engine.url}/v3/sessions`, { type: 'retopology', input: { mesh, model, quads } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const done = await pollData(
    `${engine.url}/v3/sessions/${created.body._id}`,
    (d) => d.status !== 'incomplete',
    60_000,
  );
  expect(done.status).toBe('complete');
  return done.output.meshes[0].data.obj_url;
}

describe('item 5: swift retopology stays within 8,000 faces', () => {
  it('for the densest image-to-3D mesh, a precision remesh and a foreign mesh, with quads and triangles', async () => {
    // The engine's densest meshes: a high-poly image-to-3D mesh in quads (GLB and FBX), and a precision remesh.
    const made = await pythonPost(`${engine.url}/image-to-3d-sessions`, {
      image_url: PNG_DATA_URI,
      topology: 'quads',
      resolution: 'high_poly',
      texture_model: 'pbr',
    });
    const session = await pollData(
      `${engine.url}/image-to-3d-sessions/${made.body.data.session_code}`,
      (d) => d.percent_done === 100 || d.session_status === 'failed',
    );
    expect(session.session_status).toBe('complete');
    const dense = await retopology(session.mesh_url_glb, 'precision', false);
    expect(facesOf((await download(dense)).bytes.toString('utf8'))).toBeGreaterThan(8_000);

    // Dense inputs (more faces than the limit) come back with most of the budget; a light one keeps its own
    // faces (a retopology adds none): the test server's GLB has 192 triangles.
    const inputs: [string, 'dense' | 'light'][] = [
      [session.mesh_url_glb, 'dense'],
      [session.mesh_url_fbx, 'dense'],
      [dense, 'dense'],
      [inputUrl('models/other.glb'), 'light'],
    ];
    for (const [input, kind] of inputs) {
      for (const quads of [true, false]) {
        const obj = (await download(await retopology(input, 'swift', quads))).bytes.toString('utf8');
        const faces = facesOf(obj);
        expect(faces, `${input} quads=${quads}`).toBeLessThanOrEqual(8_000);
        if (kind === 'dense')
          expect(faces, `${input} quads=${quads}`).toBeGreaterThan(6_000); // still the model's light mesh, not a token one
        else expect(faces, `${input} quads=${quads}`).toBeLessThanOrEqual(192);
        // Mixed topology with quads (a third or more of the faces), triangles only without.
        const corners = obj
          .split('\n')
          .filter((line) => line.startsWith('f '))
          .map((line) => line.trim().split(/\s+/).length - 1);
        if (quads) expect(corners.filter((n) => n === 4).length, `${input}`).toBeGreaterThan(corners.length / 3);
        expect(corners.every((n) => n === 3 || (quads && n === 4))).toBe(true);
      }
    }
  });
});
