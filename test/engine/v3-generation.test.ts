// Item 10 of issue 14: /v3/sessions takes image_to_3d and image_to_kit with the input the vendor's public
// scripts send (`{image, model: "sculpt", settings: {geometry_model, texture_model, resolution}}`), answers
// assets (`ASSET_` ids) for the image and the meshes, and those mesh assets are valid retopology inputs.
// Requests are raw fetch calls shaped as such a Python script sends them (POST to `/v3/sessions/`).
import { describe, expect, it } from 'vitest';
import { ServiceClient } from '../../main/api/client.ts';
import { encodePng, readGlbJson } from '../../main/engine/outputs/index.ts';
import { imageTo3dV3Session, imageToKitV3Session, retopologySession } from '../../shared/contract/index.ts';
import { KEY, PNG_SIGNATURE, pollUntil, startTestEngine, useTestEngine } from './helpers.ts';

const engine = useTestEngine();

const headers = { 'x-api-key': KEY, 'Content-Type': 'application/json' };
const image = `data:image/png;base64,${encodePng(4, 4, new Uint8Array(64).fill(180)).toString('base64')}`;

async function create(body: unknown, base = engine.url): Promise<{ status: number; body: any }> {
  const res = await fetch(`${base}/v3/sessions/`, { method: 'POST', headers, body: JSON.stringify(body) });
  return { status: res.status, body: await res.json() };
}

async function finished(id: string, base = engine.url): Promise<any> {
  return pollUntil(
    async () => (await fetch(`${base}/v3/sessions/${id}`, { headers: { 'x-api-key': KEY } })).json() as Promise<any>,
    (s) => s.status === 'complete' || s.status === 'failed',
  );
}

async function expectGlb(url: string): Promise<Buffer> {
  const res = await fetch(url);
  expect(res.status, url).toBe(200);
  const bytes = Buffer.from(await res.arrayBuffer());
  expect(bytes.subarray(0, 4).toString('latin1')).toBe('glTF');
  return bytes;
}

const triangles = (glb: Buffer) => {
  const json = readGlbJson(glb) as { meshes: { primitives: { indices: number }[] }[]; accessors: { count: number }[] };
  return json.meshes.flatMap((m) => m.primitives).reduce((n, p) => n + json.accessors[p.indices]!.count / 3, 0);
};

describe('/v3/sessions of type image_to_3d and image_to_kit', () => {
  it('makes a mesh asset from an image, a kit from the same image asset, and retopologizes both by ASSET_ id', async () => {
    const created = await create({
      type: 'image_to_3d',
      input: { image, model: 'sculpt', settings: { geometry_model: 'base', texture_model: 'baked', resolution: 3000 } },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({
      type: 'image_to_3d',
      status: 'incomplete',
      input: { model: 'sculpt', settings: { resolution: 3000 } },
    });
    expect(created.body.input.image._id).toMatch(/^ASSET_/);
    expect(created.body.output.mesh).toMatchObject({ _id: expect.stringMatching(/^ASSET_/), status: 'incomplete' });

    const single = imageTo3dV3Session.parse(await finished(created.body._id));
    expect(single.status).toBe('complete');
    const mesh = single.output.mesh;
    expect(mesh.status).toBe('complete');
    for (const field of ['glb_url', 'obj_url', 'fbx_url', 'usdz_url', 'image_url'] as const)
      expect(mesh.data[field], field).toMatch(/^http/);
    const glb = await expectGlb(mesh.data.glb_url!);
    expect(Math.abs(triangles(glb) - 3000)).toBeLessThan(600);
    expect(readGlbJson(glb)).toHaveProperty('images'); // baked texture
    const preview = Buffer.from(await (await fetch(mesh.data.image_url!)).arrayBuffer());
    expect(preview.subarray(0, 8)).toEqual(PNG_SIGNATURE);

    // The image asset of the first session is given again, as the scripts do for the next jobs.
    const kitCreated = await create({
      type: 'image_to_kit',
      input: {
        image: single.input.image._id,
        model: 'sculpt',
        decomposition_model: 'pro',
        settings: { geometry_model: 'turbo', texture_model: 'baked', resolution: 2000 },
      },
    });
    expect(kitCreated.status, JSON.stringify(kitCreated.body)).toBe(201);
    expect(kitCreated.body.input.image._id).toBe(single.input.image._id);
    const kit = imageToKitV3Session.parse(await finished(kitCreated.body._id));
    expect(kit.status).toBe('complete');
    expect(kit.output.meshes).toHaveLength(1);
    expect(kit.output.part_meshes.length).toBeGreaterThanOrEqual(3);
    for (const part of [...kit.output.meshes, ...kit.output.part_meshes]) {
      expect(part.status).toBe('complete');
      await expectGlb(part.data.glb_url!);
    }

    for (const meshId of [mesh._id, kit.output.part_meshes[0]!._id]) {
      const retopo = await create({ type: 'retopology', input: { mesh: meshId, model: 'swift', quads: true } });
      expect(retopo.status, JSON.stringify(retopo.body)).toBe(201);
      expect(retopo.body.input.mesh._id).toBe(meshId);
      expect(retopo.body.input.mesh.data.glb_url).toMatch(/^http/);
      const done = retopologySession.parse(await finished(retopo.body._id));
      expect(done.status).toBe('complete');
      const obj = await (await fetch(done.output.meshes[0]!.data.obj_url!)).text();
      expect(obj).toContain('\nf ');
    }

    // Our own client reads these sessions too.
    const client = new ServiceClient({ baseUrl: engine.url, legacyBaseUrl: engine.legacyUrl, apiKey: KEY });
    try {
      expect((await client.getV3Session(kit._id)).type).toBe('image_to_kit');
    } finally {
      await client.close();
    }
  });

  it('refuses other types, an image that is a mesh asset, and a mesh that is an image asset or not made yet', async () => {
    const other = await create({ type: 'text_to_image', input: { images: [image] } });
    expect(other.status).toBe(400);
    expect(other.body.message).toMatch(/type.*"retopology", "image_to_3d", "image_to_kit", "multiview_to_3d"/);
    const oneView = await create({ type: 'multiview_to_3d', input: { images: [image] } });
    expect(oneView.status).toBe(400);
    expect(oneView.body.message).toContain('input.images');
    expect(oneView.body.message).toContain('at least 2');

    const badSettings = await create({ type: 'image_to_3d', input: { image, settings: { resolution: 'ultra' } } });
    expect(badSettings.status).toBe(400);
    expect(badSettings.body.message).toContain('input.settings.resolution');

    const slow = await startTestEngine({ speed: 1 });
    try {
      const made = await create({ type: 'image_to_3d', input: { image, model: 'sculpt', settings: {} } }, slow.url);
      expect(made.status).toBe(201);
      const notYet = await create(
        { type: 'retopology', input: { mesh: made.body.output.mesh._id, model: 'swift' } },
        slow.url,
      );
      expect(notYet.status).toBe(400);
      expect(notYet.body.message).toMatch(/input\.mesh: the mesh asset ASSET_\w+ is incomplete/);
      const imageAsMesh = await create(
        { type: 'retopology', input: { mesh: made.body.input.image._id, model: 'swift' } },
        slow.url,
      );
      expect(imageAsMesh.status).toBe(400);
      expect(imageAsMesh.body.message).toContain('is an image asset, not a mesh');
      const meshAsImage = await create({ type: 'image_to_3d', input: { image: made.body.output.mesh._id } }, slow.url);
      expect(meshAsImage.status).toBe(400);
      expect(meshAsImage.body.message).toContain('is a mesh asset, not an image');
    } finally {
      await slow.dispose();
    }
  });
});
