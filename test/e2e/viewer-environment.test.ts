// e2e: the viewer's environment lighting (image-based lighting) in Chromium with WebGL (SwiftShader). The
// generated studio environment (renderer/environment/studio-hdr.ts, written by the build as
// environment/studio.hdr) is read from the page's own origin and lights PBR models from the first still
// frame; None (lights only) gives a different picture; a user's own .hdr (made here with the same
// generator, tinted) changes it again; a corrupt .hdr shows why and the previous environment stays; the
// blurred background is off by default and can be shown; the render loop goes idle after every change;
// and nothing leaves this machine. Screenshots go to test-results/viewer/env-*.png.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeStudioHdr } from '../../renderer/environment/studio-hdr.ts';
import { realFixture } from '../fixtures.ts';
import { canvasRgb, difference, measure } from './canvas.ts';
import { poll, textOf } from './harness.ts';
import { changeView, modelShown, openFiles, useViewerHarness } from './viewer-page.ts';

let tmp: string;

beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'viewer-environment-'));
});

afterAll(() => {
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

const h = useViewerHarness();
const environmentRequests = () =>
  h.requests.filter((u) => /^https?:/.test(u) && /\.(hdr|env)$/.test(new URL(u).pathname));

const canvas = () => h.page.locator('.viewer-canvas');
const environment = () => h.page.locator('.viewer-environment');
const idle = () => poll(async () => (await canvas().getAttribute('data-rendering')) ?? '', 30_000).toBe('idle');

async function openModel(paths: string[], name: string) {
  await openFiles(h, paths);
  await modelShown(h, { name });
}

/**
 * A GLB of polished metal spheres side by side (roughness 0.1, 0.35 and 0.7): metals show nothing but
 * reflections, so without an environment they are nearly black, and with one they show it.
 */
function metalSpheresGlb(): Buffer {
  const positions: number[] = [];
  const normals: number[] = [];
  const indices: number[] = [];
  const rings = 24;
  const segments = 48;
  for (let r = 0; r <= rings; r++)
    for (let s = 0; s <= segments; s++) {
      const theta = (r / rings) * Math.PI;
      const phi = (s / segments) * 2 * Math.PI;
      const n = [Math.sin(theta) * Math.cos(phi), Math.cos(theta), Math.sin(theta) * Math.sin(phi)];
      normals.push(...n);
      positions.push(...n);
    }
  for (let r = 0; r < rings; r++)
    for (let s = 0; s < segments; s++) {
      const a = r * (segments + 1) + s;
      const b = a + segments + 1;
      indices.push(a, a + 1, b, b, a + 1, b + 1);
    }
  const vertexCount = positions.length / 3;
  const pos = Buffer.from(new Float32Array(positions).buffer);
  const nor = Buffer.from(new Float32Array(normals).buffer);
  const idx = Buffer.from(new Uint16Array(indices).buffer);
  const bin = Buffer.concat([pos, nor, idx, Buffer.alloc((4 - (idx.length % 4)) % 4)]);
  const roughness = [0.1, 0.35, 0.7];
  const gltf = {
    asset: { version: '2.0', generator: 'asset-studio e2e' },
    scene: 0,
    scenes: [{ nodes: roughness.map((_, i) => i) }],
    nodes: roughness.map((_, i) => ({ mesh: i, translation: [(i - 1) * 2.3, 1, 0] })),
    meshes: roughness.map((_, i) => ({
      primitives: [{ attributes: { POSITION: 0, NORMAL: 1 }, indices: 2, material: i }],
    })),
    materials: roughness.map((r) => ({
      name: `metal-${r}`,
      pbrMetallicRoughness: { baseColorFactor: [0.95, 0.93, 0.88, 1], metallicFactor: 1, roughnessFactor: r },
    })),
    accessors: [
      { bufferView: 0, componentType: 5126, count: vertexCount, type: 'VEC3', min: [-1, -1, -1], max: [1, 1, 1] },
      { bufferView: 1, componentType: 5126, count: vertexCount, type: 'VEC3' },
      { bufferView: 2, componentType: 5123, count: indices.length, type: 'SCALAR' },
    ],
    bufferViews: [
      { buffer: 0, byteOffset: 0, byteLength: pos.length, target: 34962 },
      { buffer: 0, byteOffset: pos.length, byteLength: nor.length, target: 34962 },
      { buffer: 0, byteOffset: pos.length + nor.length, byteLength: idx.length, target: 34963 },
    ],
    buffers: [{ byteLength: bin.length }],
  };
  let json = Buffer.from(JSON.stringify(gltf));
  json = Buffer.concat([json, Buffer.alloc((4 - (json.length % 4)) % 4, 0x20)]);
  const header = Buffer.alloc(12);
  header.write('glTF', 0, 'latin1');
  header.writeUInt32LE(2, 4);
  header.writeUInt32LE(12 + 8 + json.length + 8 + bin.length, 8);
  const chunk = (type: string, data: Buffer) => {
    const head = Buffer.alloc(8);
    head.writeUInt32LE(data.length, 0);
    head.write(type, 4, 'latin1');
    return Buffer.concat([head, data]);
  };
  return Buffer.concat([header, chunk('JSON', json), chunk('BIN\0', bin)]);
}

const shot = (name: string) => h.screenshot(name, h.page.locator('.viewer'));

describe('viewer environment lighting', () => {
  let studio: number[];

  it('lights a metallic glTF with the studio environment, read from this host, from the first still frame', async () => {
    await openModel([realFixture('glb', '2CylinderEngine.glb')], '2CylinderEngine.glb');
    const origin = new URL(h.page.url()).origin;
    expect(environmentRequests()).toContain(`${origin}/environment/studio.hdr`);
    expect(await environment().getAttribute('data-environment')).toBe('studio');
    expect(
      await h.page.locator('.viewer-environment button[data-environment="studio"]').getAttribute('aria-pressed'),
    ).toBe('true');
    expect(await textOf(environment().locator('legend'))()).toBe('Environment');
    // The background is off by default: the corner keeps the plain colour the other tests measure against.
    expect(await environment().locator('input[type="checkbox"]').isChecked()).toBe(false);
    studio = await canvasRgb(h.page);
    const m = measure(studio);
    expect(m.covered).toBeGreaterThan(0.05);
    expect(m.colours).toBeGreaterThan(40);
    await shot('env-studio-2CylinderEngine');
    // Still: no frames while nothing changes.
    const frames = await canvas().getAttribute('data-frames');
    await h.page.waitForTimeout(400);
    expect(await canvas().getAttribute('data-frames')).toBe(frames);
  });

  it('None (lights only) gives a different picture, and Studio gives back the same one', async () => {
    await changeView(h, () => h.page.click('.viewer-environment button[data-environment="none"]'));
    expect(await environment().getAttribute('data-environment')).toBe('none');
    const none = await canvasRgb(h.page);
    await shot('env-none-2CylinderEngine');
    // A rough, non-metallic model: the environment replaces the hemispheric light at about its brightness,
    // so the difference is modest (the metal spheres below show the reflections).
    expect(difference(none, studio), 'Studio and None differ').toBeGreaterThan(0.3);
    expect(measure(none).covered).toBeGreaterThan(0.05);
    await changeView(h, () => h.page.click('.viewer-environment button[data-environment="studio"]'));
    expect(await environment().getAttribute('data-environment')).toBe('studio');
    expect(difference(await canvasRgb(h.page), studio), 'back to Studio').toBeLessThan(0.5);
  });

  it("lights with the user's own .hdr file, and shows it as a blurred background on request", async () => {
    const warm = join(tmp, 'warm-sunset.hdr');
    await writeStudioHdr(warm, { width: 256, tint: [1.8, 0.8, 0.25] });
    await changeView(h, () => h.page.setInputFiles('.viewer-environment-file', warm));
    expect(await environment().getAttribute('data-environment')).toBe('file');
    expect(await textOf(environment().locator('.hint'))()).toBe('In use: warm-sunset.hdr');
    expect(
      await h.page.locator('.viewer-environment button[data-environment="file"]').getAttribute('aria-pressed'),
    ).toBe('true');
    const user = await canvasRgb(h.page);
    await shot('env-user-hdr-2CylinderEngine');
    expect(difference(user, studio), 'the user environment changes the picture').toBeGreaterThan(1.5);
    // Warmer: more red than blue over the picture than with the neutral studio.
    const redOverBlue = (rgb: number[]) => {
      let r = 0;
      let b = 0;
      for (let i = 0; i < rgb.length; i += 3) (r += rgb[i]!), (b += rgb[i + 2]!);
      return r / b;
    };
    expect(redOverBlue(user)).toBeGreaterThan(redOverBlue(studio) * 1.05);

    await changeView(h, () => h.page.check('.viewer-environment input[type="checkbox"]'));
    const withBackground = await canvasRgb(h.page);
    await shot('env-user-hdr-background');
    expect(difference(withBackground, user), 'the background shows').toBeGreaterThan(3);
    // The plain background colour is gone from the corner (the environment is behind the model).
    expect(
      Math.abs(withBackground[0]! - user[0]!) +
        Math.abs(withBackground[1]! - user[1]!) +
        Math.abs(withBackground[2]! - user[2]!),
    ).toBeGreaterThan(20);
    await changeView(h, () => h.page.uncheck('.viewer-environment input[type="checkbox"]'));
    expect(difference(await canvasRgb(h.page), user), 'background off again').toBeLessThan(0.5);
  });

  it('shows why a corrupt .hdr cannot be used, keeps the previous environment, and the viewer still works', async () => {
    const before = await canvasRgb(h.page);
    await h.page.setInputFiles('.viewer-environment-file', {
      name: 'broken.hdr',
      mimeType: 'application/octet-stream',
      buffer: Buffer.from('this is not a Radiance file at all, just text'),
    });
    await poll(textOf(h.page.locator('.viewer-environment-error')), 30_000).toContain('broken.hdr');
    expect(await textOf(h.page.locator('.viewer-environment-error'))()).toContain(
      'The previous environment is still in use',
    );
    expect(await h.page.locator('.viewer-environment-error').getAttribute('role')).toBe('alert');
    await idle();
    expect(await environment().getAttribute('data-environment')).toBe('file');
    expect(await textOf(environment().locator('.hint'))()).toBe('In use: warm-sunset.hdr');
    expect(difference(await canvasRgb(h.page), before), 'the picture is unchanged').toBeLessThan(0.5);
    await shot('env-corrupt-hdr');
    // A file that is not an environment at all is refused by name.
    await h.page.setInputFiles('.viewer-environment-file', {
      name: 'notes.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('hello'),
    });
    await poll(textOf(h.page.locator('.viewer-environment-error')), 10_000).toContain(
      'notes.txt is not an environment file',
    );
    // A corrupt .env (Babylon's prefiltered format) too.
    await h.page.setInputFiles('.viewer-environment-file', {
      name: 'broken.env',
      mimeType: 'application/octet-stream',
      buffer: Buffer.from('not a Babylon environment either'),
    });
    await poll(textOf(h.page.locator('.viewer-environment-error')), 30_000).toContain('broken.env');
    await idle();
    expect(await textOf(environment().locator('.hint'))()).toBe('In use: warm-sunset.hdr');
    expect(difference(await canvasRgb(h.page), before), 'still the picture from before').toBeLessThan(0.5);
    // Back to the studio: the error goes, the picture is the studio's again, and models still open.
    await changeView(h, () => h.page.click('.viewer-environment button[data-environment="studio"]'));
    expect(await h.page.locator('.viewer-environment-error').count()).toBe(0);
    expect(difference(await canvasRgb(h.page), studio)).toBeLessThan(0.5);
    await openModel([realFixture('glb', 'Fox.glb')], 'Fox.glb');
    expect(measure(await canvasRgb(h.page)).covered).toBeGreaterThan(0.02);
  });

  it('metal reflects the studio: polished spheres are lit with it and dark with the lights only', async () => {
    await h.page.setInputFiles('#viewer-file', {
      name: 'MetalSpheres.glb',
      mimeType: 'model/gltf-binary',
      buffer: metalSpheresGlb(),
    });
    await modelShown(h, { name: 'MetalSpheres.glb' });
    const lit = await canvasRgb(h.page);
    await shot('env-studio-metal-spheres');
    await changeView(h, () => h.page.click('.viewer-environment button[data-environment="none"]'));
    const dark = await canvasRgb(h.page);
    await shot('env-none-metal-spheres');
    expect(difference(lit, dark), 'metal with and without the environment').toBeGreaterThan(4);
    expect(measure(lit).mean, 'brighter with the environment').toBeGreaterThan(measure(dark).mean + 3);
    await changeView(h, () => h.page.click('.viewer-environment button[data-environment="studio"]'));
    await h.page.check('.viewer-environment input[type="checkbox"]');
    await idle();
    await shot('env-studio-metal-spheres-background');
    await changeView(h, () => h.page.uncheck('.viewer-environment input[type="checkbox"]'));
    expect(difference(await canvasRgb(h.page), lit)).toBeLessThan(0.5);
  });

  it.each([
    ['BoxTextured.glb', [realFixture('glb', 'BoxTextured.glb')]],
    ['Fox.glb', [realFixture('glb', 'Fox.glb')]],
    [
      'spider.obj',
      (() => {
        const dir = realFixture('obj', 'spider');
        return readdirSync(dir).map((f) => join(dir, f));
      })(),
    ],
  ] as const)('renders %s lit, neither black nor washed out, with Studio and None', async (name, paths) => {
    await openModel([...paths], name);
    const lit = measure(await canvasRgb(h.page));
    await shot(`env-studio-${name.replace(/\.\w+$/, '')}`);
    expect(lit.covered).toBeGreaterThan(0.02);
    expect(lit.colours).toBeGreaterThan(20);
    await changeView(h, () => h.page.click('.viewer-environment button[data-environment="none"]'));
    await shot(`env-none-${name.replace(/\.\w+$/, '')}`);
    await changeView(h, () => h.page.click('.viewer-environment button[data-environment="studio"]'));
  });

  it('made no request beyond this machine', () => {
    expect(h.offHost()).toEqual([]);
    expect(
      h.pageErrors.filter((e) => !/broken\.(hdr|env)|Bad HDR|Failed to parse|not a Babylon environment/i.test(e)),
    ).toEqual([]);
  });
});
