// Image-to-3D through the engine on the real pictures (../shared/fixtures/real/images): the meshes, spin views,
// previews and refines are made from the picture sent, and every output file is served and valid.
import yauzl from 'yauzl';
import { describe, expect, it } from 'vitest';
import { decodeImage } from '../../main/images/decode-image.ts';
import { renderModel } from '../../main/engine/generate/rasterize.ts';
import { segmentSubject } from '../../main/engine/generate/segment.ts';
import { quadShare } from '../../main/engine/outputs/polygon-mesh.ts';
import { bounds } from '../../main/formats/glb.ts';
import { alphaMask, iou, maskBox, picture, pictureBytes, readGlbModel, type Picture } from './generate/fixtures.ts';
import { call, download, expectSuccess, KEY, pollUntil, useTestEngine } from './helpers.ts';
import { validator } from '../gltf-validator.ts';

const engine = useTestEngine();

const dataUri = (name: Picture) =>
  `data:image/${name.endsWith('.png') ? 'png' : 'jpeg'};base64,${pictureBytes(name).toString('base64')}`;
const LIMIT = 60_000;

async function finished(
  code: string,
  done: (s: any) => boolean = (s) => s.session_status === 'complete' || s.session_status === 'failed',
) {
  return pollUntil(
    async () => expectSuccess('getImageTo3d', await call(engine, 'getImageTo3d', { params: { session_code: code } })),
    done,
    LIMIT,
  );
}

async function createAndFinish(json: Record<string, unknown>) {
  const created = expectSuccess('createImageTo3d', await call(engine, 'createImageTo3d', { json }));
  return finished(created.session_code);
}

async function ok(url: string): Promise<Buffer> {
  const file = await download(url);
  expect(file.status, url).toBe(200);
  return file.bytes;
}

/** Coverage of the model seen from the front, laid on the picture's pixels (its box on the subject's box). */
function frontCoverage(
  mesh: ReturnType<typeof readGlbModel>['mesh'],
  width: number,
  height: number,
  box: { x0: number; y0: number; x1: number; y1: number },
): Uint8Array {
  const { min, max } = bounds(mesh.positions);
  const scale = (box.x1 - box.x0) / (max[0] - min[0]);
  const rgba = renderModel(mesh, undefined, [1, 1, 1], {
    width,
    height,
    flat: true,
    background: [0, 0, 0, 0],
    view: { scale, ox: box.x0 - min[0] * scale, oy: box.y0 + max[1] * scale },
  });
  return Uint8Array.from({ length: width * height }, (_, i) => (rgba[i * 4 + 3]! > 0 ? 1 : 0));
}

async function zipNames(zip: Buffer): Promise<string[]> {
  const file = await yauzl.fromBufferPromise(zip, { lazyEntries: true });
  const names: string[] = [];
  for await (const entry of file.eachEntry()) names.push(entry.fileName);
  return names;
}

describe('image-to-3D from the picture (current form)', () => {
  it('chair.png: a validator-clean GLB whose front view is the chair, quads in the OBJ, the texture in every format', async () => {
    const done = await createAndFinish({
      image_url: dataUri('chair.png'),
      texture_model: 'baked',
      topology: 'quads',
      resolution: 'low_poly',
    });
    expect(done.session_status).toBe('complete');
    const glb = await ok(done.mesh_url_glb);
    const report = await validator.validateBytes(new Uint8Array(glb));
    expect(report.issues.numErrors + report.issues.numWarnings, JSON.stringify(report.issues.messages)).toBe(0);
    const { mesh, images } = readGlbModel(glb);
    expect(images).toHaveLength(1);
    // The silhouette: the model's front view over the picture's alpha mask.
    const image = picture('chair.png');
    const mask = alphaMask(image);
    expect(iou(frontCoverage(mesh, image.width, image.height, maskBox(mask, image.width)), mask)).toBeGreaterThan(0.93);
    // The texture is the chair's: its front half averages the chair's colour (brown wood, cream cushions).
    const texture = images[0]!;
    let r = 0;
    let b = 0;
    for (let y = 0; y < texture.height; y++)
      for (let x = 0; x < texture.height; x++)
        (r += texture.data[(y * texture.width + x) * 4]!), (b += texture.data[(y * texture.width + x) * 4 + 2]!);
    expect(r).toBeGreaterThan(b * 1.1);

    const obj = (await ok(done.mesh_url_obj)).toString('utf8');
    const faces = obj.split('\n').filter((line) => line.startsWith('f '));
    expect(faces.length).toBeLessThanOrEqual(2_000);
    expect(faces.length).toBeGreaterThan(1_800);
    expect(faces.filter((line) => line.split(' ').length === 5).length / faces.length).toBeGreaterThan(0.85);
    // The MTL and texture it names are served beside it.
    const base = done.mesh_url_obj.slice(0, done.mesh_url_obj.lastIndexOf('/') + 1);
    expect((await ok(`${base}mesh.mtl`)).toString('utf8')).toMatch(/^map_Kd mesh\.png$/m);
    expect(decodeImage(await ok(`${base}mesh.png`)).width).toBe(1024);
    expect(await zipNames(await ok(done.mesh_url_zip))).toEqual([
      `${done.session_code}/mesh.obj`,
      `${done.session_code}/mesh.mtl`,
      `${done.session_code}/mesh.png`,
    ]);
    const fbx = await ok(done.mesh_url_fbx);
    expect(fbx.subarray(0, 18).toString('latin1')).toBe('Kaydara FBX Binary');
    expect(fbx.includes(Buffer.from('Content'))).toBe(true); // the texture, embedded
    expect(await zipNames(await ok(done.mesh_url_usdz))).toEqual(['model.usda', 'textures/base_color.png']);
  });

  it('fox.jpg with pbr at high_poly: three textures, at most 20,000 triangles, the fox found on its backdrop', async () => {
    const done = await createAndFinish({
      image_url: dataUri('fox.jpg'),
      texture_model: 'pbr',
      resolution: 'high_poly',
    });
    const glb = await ok(done.mesh_url_glb);
    const report = await validator.validateBytes(new Uint8Array(glb));
    expect(report.issues.numErrors + report.issues.numWarnings, JSON.stringify(report.issues.messages)).toBe(0);
    const { mesh, images, gltf } = readGlbModel(glb);
    expect(images).toHaveLength(3);
    expect(gltf.materials[0].normalTexture).toBeDefined();
    expect(mesh.sizes.length).toBeLessThanOrEqual(20_000);
    expect(mesh.sizes.length).toBeGreaterThan(18_000);
    const image = picture('fox.jpg');
    const mask = segmentSubject(image).mask.data;
    expect(iou(frontCoverage(mesh, image.width, image.height, maskBox(mask, image.width)), mask)).toBeGreaterThan(0.95);
    const base = done.mesh_url_obj.slice(0, done.mesh_url_obj.lastIndexOf('/') + 1);
    for (const name of ['mesh.mtl', 'mesh.png', 'mesh_metallic_roughness.png', 'mesh_normal.png'])
      await ok(`${base}${name}`);
  });

  it('robot.png: scaled_bbox filled exactly, or kept in proportion with preserve_aspect_ratio; texture none has no image', async () => {
    const exact = await createAndFinish({
      image_url: dataUri('robot.png'),
      resolution: 'low_poly',
      scaled_bbox: [2, 1, 0.5],
    });
    const kept = await createAndFinish({
      image_url: dataUri('robot.png'),
      resolution: 'low_poly',
      scaled_bbox: [2, 1, 0.5],
      preserve_aspect_ratio: true,
    });
    const size = (positions: Float32Array) => {
      const { min, max } = bounds(positions);
      return max.map((v, k) => v - min[k]!);
    };
    const a = readGlbModel(await ok(exact.mesh_url_glb));
    expect(a.images).toHaveLength(0);
    for (const [k, v] of size(a.mesh.positions).entries()) expect(v).toBeCloseTo([2, 1, 0.5][k]!, 4);
    const b = size(readGlbModel(await ok(kept.mesh_url_glb)).mesh.positions);
    for (const [k, v] of b.entries()) expect(v).toBeLessThanOrEqual([2, 1, 0.5][k]! + 1e-4);
    expect(b.some((v, k) => Math.abs(v - [2, 1, 0.5][k]!) < 1e-4)).toBe(true);
    // The robot is about as wide as tall: kept in proportion it is limited by the 1 m height.
    expect(b[1]).toBeCloseTo(1, 4);
  });

  it('a WebP picture fails the session, saying to send PNG or JPEG', async () => {
    const webp = Buffer.concat([
      Buffer.from('RIFF'),
      Buffer.from([0x1a, 0, 0, 0]),
      Buffer.from('WEBPVP8L'),
      Buffer.from([0x0d, 0, 0, 0, 0x2f, 0, 0, 0, 0x10, 0x07, 0x10, 0x11, 0x11, 0x88, 0x88, 0xfe, 0x07, 0]),
    ]);
    const done = await createAndFinish({ image_url: `data:image/webp;base64,${webp.toString('base64')}` });
    expect(done.session_status).toBe('failed');
    expect(done.error).toMatch(/WebP image, which the local engine does not decode.*send it as PNG or JPEG/);
    expect(done.mesh_url_glb).toBe('');
  });
});

describe('image-to-3D from the picture (older flow)', () => {
  it('robot.png: spin views are renders of its model, a preview from a side view is turned, refine is finer, pivots are exact; a new spin renders the new picture', async () => {
    const created = expectSuccess(
      'createImageTo3dLegacy',
      await call(engine, 'createImageTo3dLegacy', { json: { image_url: dataUri('robot.png') } }),
    );
    const code = created.session_code;
    const spun = await finished(code, (s) => s.status === 'spin_generate_done');
    expect(spun.spins).toHaveLength(4);
    const views = await Promise.all(
      spun.spins.map(async (spin: { image_url: string }) => decodeImage(await ok(spin.image_url))),
    );
    for (const view of views) expect([view.width, view.height]).toEqual([256, 256]);
    const covered = (v: { data: Uint8Array }) =>
      Uint8Array.from({ length: 256 * 256 }, (_, i) =>
        v.data[i * 4]! + v.data[i * 4 + 1]! + v.data[i * 4 + 2]! < 3 * 250 ? 1 : 0,
      );
    const width = (c: Uint8Array) =>
      new Set(
        Array.from(c.keys())
          .filter((i) => c[i] === 1)
          .map((i) => i % 256),
      ).size;
    // Front and back are as wide; the sides are narrow (a relief is thinner than it is wide).
    expect(width(covered(views[1]!))).toBeLessThan(0.6 * width(covered(views[0]!)));
    expect(Math.abs(width(covered(views[2]!)) - width(covered(views[0]!)))).toBeLessThanOrEqual(3);
    // The front view is the robot: its coverage overlaps the robot's alpha mask fitted the same way.
    const front = covered(views[0]!);
    const frontBox = maskBox(front, 256);
    const alpha = alphaMask(picture('robot.png'));
    const alphaBox = maskBox(alpha, 512);
    let agree = 0;
    let total = 0;
    for (let y = frontBox.y0; y < frontBox.y1; y++) {
      for (let x = frontBox.x0; x < frontBox.x1; x++) {
        const px = Math.floor(
          alphaBox.x0 + ((x + 0.5 - frontBox.x0) / (frontBox.x1 - frontBox.x0)) * (alphaBox.x1 - alphaBox.x0),
        );
        const py = Math.floor(
          alphaBox.y0 + ((y + 0.5 - frontBox.y0) / (frontBox.y1 - frontBox.y0)) * (alphaBox.y1 - alphaBox.y0),
        );
        if (front[y * 256 + x] === alpha[py * 512 + px]) agree++;
        total++;
      }
    }
    expect(agree / total).toBeGreaterThan(0.9);

    // Before a preview, get-mesh has no preview mesh yet.
    const before = expectSuccess('getMesh', await call(engine, 'getMesh', { params: { session_code: code } }));
    expect(before[0]).toMatchObject({ status: 'spin_generate_done', preview_mesh_url_glb: '', mesh_url_glb: '' });

    expectSuccess(
      'preview',
      await call(engine, 'preview', {
        params: { session_code: code },
        json: { selected_spin_index: 1, pivot_point: [0, -0.5, 0] },
      }),
    );
    const previewed = await finished(code, (s) => s.status === 'preview_done');
    const mesh = await pollUntil(
      async () => expectSuccess('getMesh', await call(engine, 'getMesh', { params: { session_code: code } })),
      (r) => r[0].status === 'preview_done',
      LIMIT,
    );
    expect(mesh[0].preview_mesh_url_glb).not.toBe('');
    const preview = readGlbModel(await ok(previewed.preview_mesh_url_glb)).mesh;
    const low = bounds(preview.positions);
    expect(low.min[1]).toBeCloseTo(0, 5); // the pivot [0, -0.5, 0]: bottom centre at the origin
    expect((low.min[0] + low.max[0]) / 2).toBeCloseTo(0, 5);
    // Turned a quarter: the side view's narrow depth is now its width.
    expect(low.max[0] - low.min[0]).toBeLessThan(0.6 * (low.max[2] - low.min[2]));
    expect(preview.sizes.length).toBeLessThanOrEqual(2_000);

    await call(engine, 'refine', { params: { session_code: code }, json: { pivot_point: [0.5, 0.5, 0.5] } });
    const refined = await finished(code, (s) => s.status === 'refine_done');
    const fine = readGlbModel(await ok(refined.mesh_url_glb)).mesh;
    expect(fine.sizes.length).toBeGreaterThan(5 * preview.sizes.length);
    expect(fine.sizes.length).toBeLessThanOrEqual(20_000);
    const high = bounds(fine.positions);
    for (let k = 0; k < 3; k++) expect(high.max[k]).toBeCloseTo(0, 5); // pivot at the top right front corner
    expect(quadShare(fine)).toBe(0); // the older flow makes triangles

    // Regenerating the spin from another picture renders that picture's model: the chair's front view is taller than wide.
    expectSuccess(
      'submitSpin',
      await call(engine, 'submitSpin', { json: { session_code: code, image_urls: [dataUri('chair.png')] } }),
    );
    const respun = await finished(code, (s) => s.status === 'spin_generate_done' && s.spins.length === 4);
    const chairFront = covered(decodeImage(await ok(respun.spins[0].image_url)));
    const box = maskBox(chairFront, 256);
    expect((box.y1 - box.y0) / (box.x1 - box.x0)).toBeGreaterThan(1.5);
    expect((frontBox.y1 - frontBox.y0) / (frontBox.x1 - frontBox.x0)).toBeLessThan(1.2); // the robot's was not
  });
});

describe('/v3 image_to_3d from the picture', () => {
  it('chair.png: the mesh asset and its preview render are made from the picture', async () => {
    const headers = { 'x-api-key': KEY, 'Content-Type': 'application/json' };
    const body = {
      type: 'image_to_3d',
      input: { image: dataUri('chair.png'), model: 'sculpt', settings: { texture_model: 'baked', resolution: 3_000 } },
    };
    const created = (await (
      await fetch(`${engine.url}/v3/sessions/`, { method: 'POST', headers, body: JSON.stringify(body) })
    ).json()) as { _id: string };
    const done = await pollUntil(
      async () =>
        (
          await fetch(`${engine.url}/v3/sessions/${created._id}`, { headers: { 'x-api-key': KEY } })
        ).json() as Promise<any>,
      (s) => s.status === 'complete' || s.status === 'failed',
      LIMIT,
    );
    expect(done.status).toBe('complete');
    const { mesh } = readGlbModel(await ok(done.output.mesh.data.glb_url));
    expect(mesh.sizes.length).toBeLessThanOrEqual(3_000);
    expect(mesh.sizes.length).toBeGreaterThan(2_500);
    const image = picture('chair.png');
    const mask = alphaMask(image);
    expect(iou(frontCoverage(mesh, image.width, image.height, maskBox(mask, image.width)), mask)).toBeGreaterThan(0.93);
    const preview = decodeImage(await ok(done.output.mesh.data.image_url));
    expect([preview.width, preview.height]).toEqual([512, 512]);
  });
});
