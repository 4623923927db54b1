// e2e: USDZ in the viewer (#/viewer), offline. The engine's own USDZ (main/engine/usdz.ts: a USDA layer)
// opens through the built-in reader (renderer/viewer/usd/) and renders visible pixels with the engine's
// triangle count; a USDZ holding a binary USDC layer shows the clear error and the viewer stays usable
// (a GLB opens next). With an OpenUSD importer runtime installed (a stand-in worker written into the
// served babylon/babylonUsdImporter/, as the build would copy it), Babylon's USD loader is pointed at those
// local files, never at its CDN, and the built-in reader takes over when it fails. No request leaves this
// machine. Screenshots go to test-results/viewer/.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildGlb, buildMesh, buildZip } from '../../main/engine/outputs/index.ts';
import { buildUsdz } from '../../main/engine/usdz.ts';
import { realFixture } from '../fixtures.ts';
import { openApp, poll, startHarness, textOf, type Harness } from './harness.ts';

// Browser globals used inside page.evaluate (this project type-checks tests without the DOM library).
declare const document: {
  querySelector(s: string): { width: number; height: number } | null;
  createElement(tag: 'canvas'): {
    width: number;
    height: number;
    getContext(kind: '2d'): { drawImage(c: unknown, x: number, y: number, w: number, h: number): void; getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray } };
  };
};

const SHOTS = resolve(import.meta.dirname, '..', '..', 'test-results', 'viewer');
const MESH = { seed: 'viewer-usdz', targetFaces: 2000 };
const USDC_MESSAGE =
  'This USDZ holds a binary USD (USDC) layer, which the built-in reader cannot open. Open the GLB of the same job instead, or install the OpenUSD importer runtime (see README).';
let h: Harness;
let dir: string;
const offHost: string[] = [];
const requested: string[] = [];

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  dir = mkdtempSync(join(tmpdir(), 'viewer-usdz-'));
  writeFileSync(join(dir, 'model.usdz'), buildUsdz(MESH));
  writeFileSync(join(dir, 'quads.usdz'), buildUsdz({ ...MESH, seed: 'viewer-usdz-quads', kind: 'character', quads: true, targetFaces: 1500 }));
  writeFileSync(join(dir, 'binary.usdz'), buildZip([{ name: 'model.usdc', data: Buffer.concat([Buffer.from('PXR-USDC'), Buffer.alloc(120)]) }], { method: 'store', align: 64 }));
  h = await startHarness({ webgl: true });
  h.page.on('request', (r) => {
    const url = new URL(r.url());
    requested.push(url.pathname);
    if (url.protocol === 'data:' || url.protocol === 'blob:') return;
    if (url.hostname !== '127.0.0.1' && url.hostname !== 'localhost') offHost.push(r.url());
  });
  await openApp(h, '#/viewer');
  await h.page.waitForSelector('#viewer-file');
}, 60_000);

afterAll(async () => {
  await h?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Share of the canvas that differs from its corner (background) colour, and how many colours it has. */
async function canvasPixels(): Promise<{ covered: number; colours: number }> {
  return h.page.evaluate(() => {
    const src = document.querySelector('.viewer-canvas')!;
    const w = 160;
    const ht = Math.max(1, Math.round((src.height / src.width) * w));
    const c = document.createElement('canvas');
    c.width = w;
    c.height = ht;
    const ctx = c.getContext('2d');
    ctx.drawImage(src, 0, 0, w, ht);
    const d = ctx.getImageData(0, 0, w, ht).data;
    const bg = [d[0]!, d[1]!, d[2]!];
    let covered = 0;
    const colours = new Set<number>();
    for (let i = 0; i < d.length; i += 4) {
      const [r, g, b] = [d[i]!, d[i + 1]!, d[i + 2]!];
      colours.add((r >> 3) * 1024 + (g >> 3) * 32 + (b >> 3));
      if (Math.abs(r - bg[0]!) + Math.abs(g - bg[1]!) + Math.abs(b - bg[2]!) > 24) covered++;
    }
    return { covered: covered / (d.length / 4), colours: colours.size };
  });
}

/** The canvas scaled to 160 pixels wide, as RGB values (to compare two views). */
async function canvasRgb(): Promise<number[]> {
  return h.page.evaluate(() => {
    const src = document.querySelector('.viewer-canvas')!;
    const w = 160;
    const ht = Math.max(1, Math.round((src.height / src.width) * w));
    const c = document.createElement('canvas');
    c.width = w;
    c.height = ht;
    const ctx = c.getContext('2d');
    ctx.drawImage(src, 0, 0, w, ht);
    const d = ctx.getImageData(0, 0, w, ht).data;
    const rgb: number[] = [];
    for (let i = 0; i < d.length; i += 4) rgb.push(d[i]!, d[i + 1]!, d[i + 2]!);
    return rgb;
  });
}

const stat = async (name: string) => Number((await h.page.locator(`.viewer [data-stat="${name}"]`).innerText()).replace(/,/g, ''));

/** Waits until the model is shown and the render loop has stopped; checks the pixels; takes a screenshot. */
async function expectRendered(name: string, shot: string) {
  const viewer = h.page.locator('.viewer');
  await poll(async () => `${await viewer.getAttribute('data-state')} ${await viewer.getAttribute('data-name')}`, 20_000).toBe(`ready ${name}`);
  await poll(async () => (await h.page.locator('.viewer-canvas').getAttribute('data-rendering')) ?? '', 20_000).toBe('idle');
  const pixels = await canvasPixels();
  await viewer.screenshot({ path: join(SHOTS, `${shot}.png`) });
  expect(pixels.colours, `${name}: colours on the canvas`).toBeGreaterThan(20);
  expect(pixels.covered, `${name}: share of the canvas covered by the model`).toBeGreaterThan(0.02);
  expect(await stat('triangles')).toBeGreaterThan(0);
}

describe('viewer: USDZ', () => {
  it("opens the engine's USDZ with the built-in reader: pixels, and the engine's triangle count", async () => {
    await h.page.setInputFiles('#viewer-file', join(dir, 'model.usdz'));
    await expectRendered('model.usdz', 'usdz-engine');
    const mesh = buildMesh(MESH);
    expect(await stat('triangles')).toBe(mesh.triangles.length / 3);
    expect(await stat('vertices')).toBe(mesh.positions.length / 3);
    expect(await h.page.locator('.viewer-error').count()).toBe(0);
    // The GLB of the same mesh looks the same: same place (the same axes and handedness), same shading.
    const usdz = { rgb: await canvasRgb(), facts: await textOf(h.page.locator('.viewer-stats'))() };
    writeFileSync(join(dir, 'model.glb'), buildGlb(MESH));
    await h.page.setInputFiles('#viewer-file', join(dir, 'model.glb'));
    await expectRendered('model.glb', 'usdz-engine-as-glb');
    const glbFacts = await textOf(h.page.locator('.viewer-stats'))();
    // The same numbers, the files' own sizes apart.
    const numbers = (t: string) => t.replace(/^.*?Triangles/, '').replace(/model\.(usdz|glb)/g, '').replace(/File size.*?Textures/, 'Textures');
    expect(numbers(usdz.facts)).toBe(numbers(glbFacts));
    const glb = await canvasRgb();
    let sum = 0;
    for (let i = 0; i < glb.length; i++) sum += Math.abs(glb[i]! - usdz.rgb[i]!);
    expect(sum / glb.length, 'mean difference per channel between the USDZ and the GLB').toBeLessThan(3);
  });

  it('opens a quad-topology USDZ (faces triangulated as fans)', async () => {
    await h.page.setInputFiles('#viewer-file', join(dir, 'quads.usdz'));
    await expectRendered('quads.usdz', 'usdz-quads');
    const mesh = buildMesh({ ...MESH, seed: 'viewer-usdz-quads', kind: 'character', quads: true, targetFaces: 1500 });
    expect(await stat('triangles')).toBe((mesh.quads.length / 4) * 2);
  });

  it('shows why a USDZ with a binary USDC layer fails, and a GLB still opens', async () => {
    await h.page.setInputFiles('#viewer-file', join(dir, 'binary.usdz'));
    await h.page.waitForSelector('.viewer-error');
    const error = await textOf(h.page.locator('.viewer-error'))();
    expect(error).toContain('Could not open binary.usdz');
    expect(error).toContain(USDC_MESSAGE);
    await h.page.locator('.viewer').screenshot({ path: join(SHOTS, 'usdz-usdc-error.png') });
    await h.page.setInputFiles('#viewer-file', realFixture('glb', 'BoxTextured.glb'));
    await expectRendered('BoxTextured.glb', 'usdz-then-glb');
    expect(await h.page.locator('.viewer-error').count()).toBe(0);
  });

  it('uses an installed OpenUSD runtime from this host (never the CDN), the built-in reader when it fails', async () => {
    expect(requested.filter((p) => p.includes('babylonUsdImporter'))).toEqual([]);
    // What renderer/build.ts writes when assets/vendor/babylon-usd-importer/ is there, with a stand-in worker
    // that fails every extraction, naming the glue URL it was given.
    const babylon = join(dirname(h.dataDir), 'renderer', 'babylon');
    mkdirSync(join(babylon, 'babylonUsdImporter'), { recursive: true });
    for (const f of ['babylon-usd-importer.js', 'babylon-usd-importer.wasm', 'babylon-usd-importer.data']) writeFileSync(join(babylon, 'babylonUsdImporter', f), '');
    writeFileSync(
      join(babylon, 'babylonUsdImporter', 'babylon-usd-importer.worker.js'),
      "self.onmessage = (e) => self.postMessage({ type: 'error', requestId: e.data.requestId, message: 'stand-in runtime, glue ' + e.data.asset.glueUrl });\n",
    );
    writeFileSync(join(babylon, 'usd-runtime.json'), JSON.stringify({ available: true, folder: 'babylonUsdImporter/' }));
    try {
      await openApp(h, '#/viewer'); // a fresh page reads the manifest again
      await h.page.waitForSelector('#viewer-file');
      await h.page.setInputFiles('#viewer-file', join(dir, 'model.usdz'));
      await expectRendered('model.usdz', 'usdz-runtime-fallback');
      expect(requested).toContain('/babylon/babylonUsdImporter/babylon-usd-importer.worker.js');

      await h.page.setInputFiles('#viewer-file', join(dir, 'binary.usdz'));
      await h.page.waitForSelector('.viewer-error');
      const error = await textOf(h.page.locator('.viewer-error'))();
      expect(error).toMatch(/The OpenUSD importer failed \(stand-in runtime, glue http:\/\/127\.0\.0\.1:\d+\/babylon\/babylonUsdImporter\/babylon-usd-importer\.js\), and so did the built-in reader: This USDZ holds a binary USD \(USDC\) layer/);
    } finally {
      writeFileSync(join(babylon, 'usd-runtime.json'), JSON.stringify({ available: false }));
    }
  });

  it('made no request beyond this machine', () => {
    expect(offHost).toEqual([]);
    expect(h.pageErrors).toEqual([]);
  });
});
