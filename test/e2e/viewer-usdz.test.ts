// e2e: USDZ in the viewer (#/viewer), offline. The engine's own USDZ (main/engine/usdz.ts: a USDA layer)
// opens through the built-in reader (renderer/viewer/usd/) and renders visible pixels with the engine's
// triangle count; a USDZ holding a binary USDC layer shows the clear error and the viewer stays usable
// (a GLB opens next). With an OpenUSD importer runtime installed (a stand-in worker written into the
// served babylon/babylonUsdImporter/, as the build would copy it), Babylon's USD loader is pointed at those
// local files, never at its CDN, and the built-in reader takes over when it fails. No request leaves this
// machine. Screenshots go to test-results/viewer/.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildGlb, buildMesh, buildZip } from '../../main/engine/outputs/index.ts';
import { buildUsdz } from '../../main/engine/usdz.ts';
import { realFixture } from '../fixtures.ts';
import { canvasRgb } from './canvas.ts';
import { openApp, textOf } from './harness.ts';
import { expectRendered, stat, useViewerHarness } from './viewer-page.ts';

const MESH = { seed: 'viewer-usdz', targetFaces: 2000 };
const USDC_MESSAGE =
  'This USDZ holds a binary USD (USDC) layer, which the built-in reader cannot open. Open the GLB of the same job instead, or install the OpenUSD importer runtime (see README).';
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'viewer-usdz-'));
  writeFileSync(join(dir, 'model.usdz'), buildUsdz(MESH));
  writeFileSync(
    join(dir, 'quads.usdz'),
    buildUsdz({ ...MESH, seed: 'viewer-usdz-quads', kind: 'character', quads: true, targetFaces: 1500 }),
  );
  writeFileSync(
    join(dir, 'binary.usdz'),
    buildZip([{ name: 'model.usdc', data: Buffer.concat([Buffer.from('PXR-USDC'), Buffer.alloc(120)]) }], {
      method: 'store',
      align: 64,
    }),
  );
});

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const h = useViewerHarness('#/viewer', { ownRenderer: true }); // the last test installs a runtime in its build

describe('viewer: USDZ', () => {
  it("opens the engine's USDZ with the built-in reader: pixels, and the engine's triangle count", async () => {
    await h.page.setInputFiles('#viewer-file', join(dir, 'model.usdz'));
    await expectRendered(h, 'model.usdz', 'usdz-engine');
    const mesh = buildMesh(MESH);
    expect(await stat(h, 'triangles')).toBe(mesh.triangles.length / 3);
    expect(await stat(h, 'vertices')).toBe(mesh.positions.length / 3);
    expect(await h.page.locator('.viewer-error').count()).toBe(0);
    // The GLB of the same mesh looks the same: same place (the same axes and handedness), same shading.
    const usdz = { rgb: await canvasRgb(h.page), facts: await textOf(h.page.locator('.viewer-stats'))() };
    writeFileSync(join(dir, 'model.glb'), buildGlb(MESH));
    await h.page.setInputFiles('#viewer-file', join(dir, 'model.glb'));
    await expectRendered(h, 'model.glb', 'usdz-engine-as-glb');
    const glbFacts = await textOf(h.page.locator('.viewer-stats'))();
    // The same numbers, the files' own sizes apart.
    const numbers = (t: string) =>
      t
        .replace(/^.*?Triangles/, '')
        .replace(/model\.(usdz|glb)/g, '')
        .replace(/File size.*?Textures/, 'Textures');
    expect(numbers(usdz.facts)).toBe(numbers(glbFacts));
    const glb = await canvasRgb(h.page);
    let sum = 0;
    for (let i = 0; i < glb.length; i++) sum += Math.abs(glb[i]! - usdz.rgb[i]!);
    expect(sum / glb.length, 'mean difference per channel between the USDZ and the GLB').toBeLessThan(3);
  });

  it('opens a quad-topology USDZ (faces triangulated as fans)', async () => {
    await h.page.setInputFiles('#viewer-file', join(dir, 'quads.usdz'));
    await expectRendered(h, 'quads.usdz', 'usdz-quads');
    const mesh = buildMesh({ ...MESH, seed: 'viewer-usdz-quads', kind: 'character', quads: true, targetFaces: 1500 });
    expect(await stat(h, 'triangles')).toBe((mesh.quads.length / 4) * 2);
  });

  it('shows why a USDZ with a binary USDC layer fails, and a GLB still opens', async () => {
    await h.page.setInputFiles('#viewer-file', join(dir, 'binary.usdz'));
    await h.page.waitForSelector('.viewer-error');
    const error = await textOf(h.page.locator('.viewer-error'))();
    expect(error).toContain('Could not open binary.usdz');
    expect(error).toContain(USDC_MESSAGE);
    await h.screenshot('usdz-usdc-error', h.page.locator('.viewer'));
    await h.page.setInputFiles('#viewer-file', realFixture('glb', 'BoxTextured.glb'));
    await expectRendered(h, 'BoxTextured.glb', 'usdz-then-glb');
    expect(await h.page.locator('.viewer-error').count()).toBe(0);
  });

  it('uses an installed OpenUSD runtime from this host (never the CDN), the built-in reader when it fails', async () => {
    expect(h.requestedPaths().filter((p) => p.includes('babylonUsdImporter'))).toEqual([]);
    // What renderer/build.ts writes when assets/vendor/babylon-usd-importer/ is there, with a stand-in worker
    // that fails every extraction, naming the glue URL it was given.
    const babylon = join(h.rendererDir, 'babylon'); // this file's own copy of the build (ownRenderer)
    mkdirSync(join(babylon, 'babylonUsdImporter'), { recursive: true });
    for (const f of ['babylon-usd-importer.js', 'babylon-usd-importer.wasm', 'babylon-usd-importer.data'])
      writeFileSync(join(babylon, 'babylonUsdImporter', f), '');
    writeFileSync(
      join(babylon, 'babylonUsdImporter', 'babylon-usd-importer.worker.js'),
      "self.onmessage = (e) => self.postMessage({ type: 'error', requestId: e.data.requestId, message: 'stand-in runtime, glue ' + e.data.asset.glueUrl });\n",
    );
    writeFileSync(
      join(babylon, 'usd-runtime.json'),
      JSON.stringify({ available: true, folder: 'babylonUsdImporter/' }),
    );
    try {
      await openApp(h, '#/viewer'); // a fresh page reads the manifest again
      await h.page.waitForSelector('#viewer-file');
      await h.page.setInputFiles('#viewer-file', join(dir, 'model.usdz'));
      await expectRendered(h, 'model.usdz', 'usdz-runtime-fallback');
      expect(h.requestedPaths()).toContain('/babylon/babylonUsdImporter/babylon-usd-importer.worker.js');

      await h.page.setInputFiles('#viewer-file', join(dir, 'binary.usdz'));
      await h.page.waitForSelector('.viewer-error');
      const error = await textOf(h.page.locator('.viewer-error'))();
      expect(error).toMatch(
        /The OpenUSD importer failed \(stand-in runtime, glue http:\/\/127\.0\.0\.1:\d+\/babylon\/babylonUsdImporter\/babylon-usd-importer\.js\), and so did the built-in reader: This USDZ holds a binary USD \(USDC\) layer/,
      );
    } finally {
      writeFileSync(join(babylon, 'usd-runtime.json'), JSON.stringify({ available: false }));
    }
  });

  it('made no request beyond this machine', () => {
    expect(h.offHost()).toEqual([]);
    expect(h.pageErrors).toEqual([]);
  });
});
