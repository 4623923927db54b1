// e2e: the Babylon.js viewer (#/viewer) in Chromium with WebGL (SwiftShader). Every real fixture (GLB,
// OBJ with MTL and textures, binary and ASCII FBX) opens from local files and renders visible pixels; the
// render loop stops once the view is still; a corrupt file shows its error and the next file still opens;
// and no request leaves this machine (Babylon's decoders and loaders come from the host). Screenshots go
// to test-results/viewer/.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatBytes } from '../../shared/format-bytes.ts';
import { buildGlb } from '../../main/engine/outputs/index.ts';
import { realFixture } from '../fixtures.ts';
import { NodeIO } from '@gltf-transform/core';
import { compressedGlb } from '../renderer/compressed-fixtures.ts';
import { basisuGlb, encodeKtx2, halves, pixels } from '../renderer/ktx2-fixtures.ts';
import { canvasRgb, difference } from './canvas.ts';
import { openApp, poll, textOf } from './harness.ts';
import { changeView, expectRendered, openFiles, useViewerHarness } from './viewer-page.ts';

// Browser globals used inside page.evaluate (this project type-checks tests without the DOM library).
declare const document: { querySelector(s: string): { width: number; height: number } | null };

const h = useViewerHarness();

describe('viewer', () => {
  const glbs = readdirSync(realFixture('glb')).filter((f) => f.endsWith('.glb'));

  it.each(glbs)('opens %s', async (file) => {
    await openFiles(h, [realFixture('glb', file)]);
    await expectRendered(h, file, `glb-${file.replace(/\.glb$/, '')}`);
  });

  it('opens the spider OBJ with its MTL and textures', async () => {
    const dir = realFixture('obj', 'spider');
    await openFiles(
      h,
      readdirSync(dir).map((f) => join(dir, f)),
    );
    await expectRendered(h, 'spider.obj', 'obj-spider');
    const textures = Number(await h.page.locator('[data-stat="textures"]').innerText());
    expect(textures).toBeGreaterThan(0);
    // Each texture with its resolution (known once loaded) and GPU memory; the file sizes of what was opened.
    const items = h.page.locator('.texture-list li');
    await poll(() => items.count()).toBe(textures);
    for (const li of await items.all()) expect(Number(await li.getAttribute('data-width'))).toBeGreaterThan(0);
    expect(await textOf(items.first())()).toMatch(/\.jpg \d+ × \d+, [\d.]+ (KiB|MiB)$/);
    const objSize = statSync(join(dir, 'spider.obj')).size;
    expect(await textOf(h.page.locator('[data-stat="file-size"]'))()).toMatch(
      new RegExp(`^${formatBytes(objSize).replace('.', '\\.')} \\(\\+ 6 beside it: `),
    );
  });

  it('opens an OBJ picked without its MTL, untextured, and says why', async () => {
    await openFiles(h, [realFixture('obj', 'spider', 'spider.obj')]);
    await expectRendered(h, 'spider.obj', 'obj-spider-without-mtl');
    expect(await textOf(h.page.locator('.viewer-warnings'))()).toBe(
      'spider.obj names the material library spider.mtl, which was not picked with it: shown without its materials. Pick the .obj together with its .mtl and textures.',
    );
    expect(await textOf(h.page.locator('[data-stat="textures"]'))()).toBe('0');
    // With its files the warning goes.
    const dir = realFixture('obj', 'spider');
    await openFiles(
      h,
      readdirSync(dir).map((f) => join(dir, f)),
    );
    await expectRendered(h, 'spider.obj', 'obj-spider-again');
    expect(await h.page.locator('.viewer-warnings').count()).toBe(0);
  });

  it('opens the suzanne OBJ', async () => {
    await openFiles(h, [realFixture('obj', 'suzanne', 'blender_282_suzanne.obj')]);
    await expectRendered(h, 'blender_282_suzanne.obj', 'obj-suzanne');
  });

  it.each(
    readdirSync(realFixture('fbx'))
      .filter((f) => f.endsWith('.fbx'))
      .sort(),
  )('opens the FBX %s', async (file) => {
    await openFiles(h, [realFixture('fbx', file)]);
    await expectRendered(h, file, `fbx-${file.replace(/\.fbx$/, '')}`);
    // In metres (the file's UnitScaleFactor applied): objects of a few metres at most, not hundreds of centimetres.
    const size = (await h.page.locator('[data-stat="size"]').innerText())
      .split('×')
      .map((t) => Number(t.trim().replace(/,/g, '')));
    expect(Math.max(...size)).toBeLessThan(10);
    expect(Math.max(...size)).toBeGreaterThan(0.05);
  });

  it('offers views: wireframe and the bounding box in metres; idle means no rendering', async () => {
    await openFiles(h, [realFixture('glb', 'BoxTextured.glb')]);
    await expectRendered(h, 'BoxTextured.glb', 'view-textured');
    const canvas = h.page.locator('.viewer-canvas');
    const frames = await canvas.getAttribute('data-frames');
    await h.page.waitForTimeout(400);
    expect(await canvas.getAttribute('data-frames')).toBe(frames);

    await h.page.click('button:has-text("Wireframe")');
    await h.page.click('button:has-text("Bounding box")');
    await poll(textOf(h.page.locator('.viewer-dims'))).toBe('1.00 × 1.00 × 1.00 m');
    await poll(async () => (await canvas.getAttribute('data-rendering')) ?? '').toBe('idle');
    expect(await canvas.getAttribute('data-frames')).not.toBe(frames);
    await h.screenshot('view-wireframe-bounds', h.page.locator('.viewer'));
    // Orbit with the mouse: the loop runs while dragging, then stops again.
    const box = (await canvas.boundingBox())!;
    await h.page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await h.page.mouse.down();
    await h.page.mouse.move(box.x + box.width / 2 + 120, box.y + box.height / 2 + 30, { steps: 5 });
    await h.page.mouse.up();
    await poll(async () => (await canvas.getAttribute('data-rendering')) ?? '', 10_000).toBe('idle');
    await h.page.click('button:has-text("Textured")');
    await h.page.click('button:has-text("Bounding box")');
  });

  it('shows normals, a UV checker and the PBR channels; Textured gives back the same pixels', async () => {
    await openFiles(h, [realFixture('glb', 'BoxTextured.glb')]);
    await expectRendered(h, 'BoxTextured.glb', 'view-textured-again');
    const textured = await canvasRgb(h.page);
    for (const mode of ['normals', 'uv', 'albedo', 'metallic', 'roughness', 'normalmap']) {
      const button = h.page.locator(`[data-mode="${mode}"]`);
      expect(await button.isEnabled(), `${mode} enabled for BoxTextured`).toBe(true);
      await changeView(h, () => h.page.click(`[data-mode="${mode}"]`));
      expect(await button.getAttribute('aria-pressed')).toBe('true');
      if (mode === 'normals' || mode === 'uv') await h.screenshot(`view-${mode}`, h.page.locator('.viewer'));
      expect(difference(await canvasRgb(h.page), textured), `${mode}: pixels differ from Textured`).toBeGreaterThan(2);
      await changeView(h, () => h.page.click('[data-mode="textured"]'));
      expect(difference(await canvasRgb(h.page), textured), `back to Textured from ${mode}`).toBeLessThan(0.5);
    }
  });

  it('offers the PBR channels only for models with PBR materials', async () => {
    const channels = ['albedo', 'metallic', 'roughness', 'normalmap'];
    await openFiles(h, [realFixture('obj', 'suzanne', 'blender_282_suzanne.obj')]);
    await expectRendered(h, 'blender_282_suzanne.obj', 'obj-suzanne-channels');
    for (const mode of channels) {
      const button = h.page.locator(`[data-mode="${mode}"]`);
      expect(await button.isDisabled(), `${mode} disabled for an OBJ`).toBe(true);
      expect(await button.getAttribute('title')).toContain('no PBR materials');
    }
    // The views that do not need PBR still work on it.
    const textured = await canvasRgb(h.page);
    await changeView(h, () => h.page.click('[data-mode="normals"]'));
    await h.screenshot('obj-suzanne-normals', h.page.locator('.viewer'));
    expect(difference(await canvasRgb(h.page), textured)).toBeGreaterThan(2);
    await changeView(h, () => h.page.click('[data-mode="textured"]'));
    expect(difference(await canvasRgb(h.page), textured)).toBeLessThan(0.5);

    await openFiles(h, [realFixture('glb', 'Fox.glb')]);
    await expectRendered(h, 'Fox.glb', 'glb-Fox-channels');
    for (const mode of channels)
      expect(await h.page.locator(`[data-mode="${mode}"]`).isEnabled(), `${mode} enabled for Fox`).toBe(true);
  });

  it('saves the view as a PNG the size of the canvas', async () => {
    await openFiles(h, [realFixture('glb', 'BoxTextured.glb')]);
    await expectRendered(h, 'BoxTextured.glb', 'view-before-screenshot');
    const [download] = await Promise.all([
      h.page.waitForEvent('download'),
      h.page.click('button:has-text("Screenshot")'),
    ]);
    expect(download.suggestedFilename()).toBe('BoxTextured.png');
    const png = readFileSync(await download.path());
    expect(png.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe(true);
    expect(png.subarray(12, 16).toString('latin1')).toBe('IHDR');
    const size = await h.page.evaluate(() => {
      const c = document.querySelector('.viewer-canvas')!;
      return [c.width, c.height];
    });
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual(size);
    expect(png.length).toBeGreaterThan(1000);
  });

  it('shows how much of a large file has been read while it opens', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'viewer-large-'));
    try {
      const file = join(dir, 'large.glb');
      writeFileSync(file, buildGlb({ seed: 'viewer-large', targetFaces: 400_000 }));
      await h.page.evaluate(() => {
        const g = globalThis as any;
        g.__shares = [] as string[];
        new g.MutationObserver(() => {
          const bar = g.document.querySelector('.viewer-overlay progress');
          if (bar) g.__shares.push(bar.getAttribute('value'));
        }).observe(g.document.querySelector('.viewer'), { childList: true, subtree: true, attributes: true });
      });
      await openFiles(h, [file]);
      await expectRendered(h, 'large.glb', 'glb-large');
      const shares: string[] = await h.page.evaluate(() => (globalThis as any).__shares);
      expect(shares.length).toBeGreaterThan(0);
      expect(shares.every((s) => Number(s) >= 0 && Number(s) <= 100)).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('shows why a corrupt file fails, and the next file still opens', async () => {
    await h.page.setInputFiles('#viewer-file', {
      name: 'broken.glb',
      mimeType: 'model/gltf-binary',
      buffer: Buffer.from('this is not a binary glTF file at all'),
    });
    await h.page.waitForSelector('.viewer-error');
    expect(await textOf(h.page.locator('.viewer-error'))()).toContain('Could not open broken.glb');
    await h.screenshot('corrupt', h.page.locator('.viewer'));
    await openFiles(h, [realFixture('glb', 'Fox.glb')]);
    await expectRendered(h, 'Fox.glb', 'after-corrupt-fox');
    expect(await h.page.locator('.viewer-error').count()).toBe(0);
  });

  it('validates the open glTF with the Khronos validator: counts and the first messages', async () => {
    await openFiles(h, [realFixture('glb', 'BoxTextured.glb')]);
    await expectRendered(h, 'BoxTextured.glb', 'validate-box');
    const panel = h.page.locator('.viewer-validation');
    await panel.locator('button:has-text("Validate")').click();
    await poll(async () => (await panel.getAttribute('data-state')) ?? '', 30_000).toBe('done');
    expect(await textOf(panel.locator('[data-count="errors"]'))()).toBe('0');
    for (const kind of ['warnings', 'infos', 'hints'])
      expect(await textOf(panel.locator(`[data-count="${kind}"]`))()).toMatch(/^\d+$/);
    expect(await textOf(panel.locator('.validation-counts'))()).toMatch(
      /^0 errors, \d+ warnings?, \d+ infos?, \d+ hints?$/,
    );

    // The same file with an accessor's count changed from 36 to 99 (same length: still a valid GLB and
    // JSON, but the accessor no longer fits its buffer view).
    const bytes = readFileSync(realFixture('glb', 'BoxTextured.glb'));
    const jsonLength = bytes.readUInt32LE(12);
    const json = bytes.subarray(20, 20 + jsonLength).toString('utf8');
    expect(json).toContain('"count":36');
    const broken = Buffer.from(bytes);
    broken.write(json.replace('"count":36', '"count":99'), 20, 'utf8');
    await h.page.setInputFiles('#viewer-file', {
      name: 'BadAccessor.glb',
      mimeType: 'model/gltf-binary',
      buffer: broken,
    });
    await poll(
      async () =>
        `${await h.page.locator('.viewer').getAttribute('data-name')} ${await h.page.locator('.viewer').getAttribute('data-state')}`,
      20_000,
    ).toMatch(/^BadAccessor\.glb (ready|error)$/);
    // Whether or not Babylon opens it, the panel offers the validator (a file that fails to open is one to check).
    expect(await panel.getAttribute('data-state'), 'a new file resets the report').toBe('idle');
    await panel.locator('button:has-text("Validate")').click();
    await poll(async () => (await panel.getAttribute('data-state')) ?? '', 30_000).toBe('done');
    expect(Number(await textOf(panel.locator('[data-count="errors"]'))())).toBeGreaterThan(0);
    expect(await panel.locator('.validation-messages li[data-severity="error"]').count()).toBeGreaterThan(0);
    expect(await panel.locator('.validation-messages li[data-severity]').count()).toBeLessThanOrEqual(20);
    expect(await textOf(panel.locator('.validation-messages'))()).toMatch(/ACCESSOR_\w+.*\/accessors\/0/);
    await h.screenshot('validate-bad-accessor', h.page.locator('.viewer'));
  });

  it('draws the model before it says ready, its PBR shader compiled once (for the lights it has) and kept for the next open', async () => {
    // A fresh page: a new engine, so that no model shader is compiled yet. Once the viewer has prepared its
    // glTF loader (warm-up.ts), the page's WebGL calls are watched for the programs linked, and the canvas
    // is read the moment the viewer says "ready".
    await openApp(h, '#/viewer');
    await h.page.waitForSelector('.viewer-canvas[data-loader="ready"]');
    await h.page.evaluate(() => {
      const g = globalThis as any;
      const proto = g.WebGL2RenderingContext.prototype;
      const sources = new WeakMap<object, string>();
      const attached = new WeakMap<object, object[]>();
      g.__linked = [] as string[];
      const shaderSource = proto.shaderSource;
      proto.shaderSource = function (this: unknown, shader: object, text: string) {
        sources.set(shader, text);
        return shaderSource.call(this, shader, text);
      };
      const attachShader = proto.attachShader;
      proto.attachShader = function (this: unknown, program: object, shader: object) {
        attached.set(program, [...(attached.get(program) ?? []), shader]);
        return attachShader.call(this, program, shader);
      };
      const linkProgram = proto.linkProgram;
      proto.linkProgram = function (this: unknown, program: object) {
        g.__linked.push((attached.get(program) ?? []).map((s) => sources.get(s) ?? '').join('\n'));
        return linkProgram.call(this, program);
      };
      const viewer = g.document.querySelector('.viewer');
      new g.MutationObserver(() => {
        if (viewer.dataset.state !== 'ready' || g.__atReady) return;
        const src = g.document.querySelector('.viewer-canvas');
        const c = g.document.createElement('canvas');
        c.width = 160;
        c.height = Math.round((src.height / src.width) * 160);
        const ctx = c.getContext('2d');
        ctx.drawImage(src, 0, 0, c.width, c.height);
        const d = ctx.getImageData(0, 0, c.width, c.height).data;
        let covered = 0;
        for (let i = 0; i < d.length; i += 4)
          if (Math.abs(d[i] - d[0]) + Math.abs(d[i + 1] - d[1]) + Math.abs(d[i + 2] - d[2]) > 24) covered++;
        g.__atReady = covered / (d.length / 4);
        g.__framesAtReady = Number(src.dataset.frames);
      }).observe(viewer, { attributes: true, attributeFilter: ['data-state'] });
    });
    await openFiles(h, [realFixture('glb', 'Fox.glb')]);
    await expectRendered(h, 'Fox.glb', 'glb-Fox-fresh-page');
    const { atReady, framesAtReady, linked } = await h.page.evaluate(() => {
      const g = globalThis as any;
      return {
        atReady: g.__atReady as number,
        framesAtReady: g.__framesAtReady as number,
        linked: g.__linked as string[],
      };
    });
    expect(atReady, 'share of the canvas showing the model when the viewer said ready').toBeGreaterThan(0.02);
    // The panels that appear with "ready" (animation, environment) change nothing in the view: no frame more.
    expect(Number(await h.page.locator('.viewer-canvas').getAttribute('data-frames'))).toBe(framesAtReady);
    const pbr = linked.filter((text) => text.includes('#define PBR_FRAGMENT_SHADER'));
    // With the studio environment the fox is lit by it and the sun; the sky light is for non-PBR materials.
    expect(pbr.length, 'PBR programs linked for the fox').toBe(1);
    expect(pbr[0]).toContain('#define DIRLIGHT0');
    expect(pbr[0]).not.toContain('HEMILIGHT');
    // The environment BRDF lookup texture was decoded by the warm-up, before the file came.
    const rgbdDecode = /vec4\(fromRGBD\(texture(2D)?\(textureSampler, ?vUV\)\), ?1\.0\)/;
    expect(linked.filter((text) => rgbdDecode.test(text)).length, 'BRDF decode programs linked for the fox').toBe(0);

    // Another model, then the fox again: its materials were disposed with it, but its program was kept
    // (nothing at all is compiled for the second fox: the grid's line shader was kept too).
    await openFiles(h, [realFixture('glb', 'BoxTextured.glb')]);
    await expectRendered(h, 'BoxTextured.glb', 'glb-BoxTextured-after-fox');
    await h.page.evaluate(() => ((globalThis as any).__linked.length = 0));
    await openFiles(h, [realFixture('glb', 'Fox.glb')]);
    await expectRendered(h, 'Fox.glb', 'glb-Fox-again');
    expect(
      await h.page.evaluate(() => (globalThis as any).__linked.length),
      'programs linked for the fox opened again',
    ).toBe(0);
  });

  it.each(['etc1s', 'uastc'] as const)(
    'opens a GLB with a KTX2 texture (KHR_texture_basisu, %s), decoded by the app from its own files',
    async (codec) => {
      // A 2 x 1 m quad whose texture is red on the left and blue on the right, as KTX2 (Basis Universal).
      const dir = mkdtempSync(join(tmpdir(), 'viewer-ktx2-'));
      try {
        const file = join(dir, `quad-${codec}.glb`);
        writeFileSync(file, await basisuGlb(await encodeKtx2(64, 32, pixels(64, 32, halves(64)), codec)));
        await openFiles(h, [file]);
        await expectRendered(h, `quad-${codec}.glb`, `glb-ktx2-${codec}`);
        await poll(() => h.page.locator('.texture-list li').count()).toBe(1);
        expect(await h.page.locator('.texture-list li').getAttribute('data-width')).toBe('64');
        // Both halves of the texture are on the canvas (a texture that failed would leave the quad one colour).
        const rgb = await canvasRgb(h.page);
        let red = 0;
        let blue = 0;
        for (let i = 0; i < rgb.length; i += 3) {
          const [r, g, b] = [rgb[i]!, rgb[i + 1]!, rgb[i + 2]!];
          if (r > b + 80 && r > g + 80) red++;
          if (b > r + 80) blue++;
        }
        red /= rgb.length / 3;
        blue /= rgb.length / 3;
        expect(red, 'share of red pixels').toBeGreaterThan(0.01);
        expect(blue, 'share of blue pixels').toBeGreaterThan(0.01);
        // Decoded by the app's worker with the transcoder it ships, both from this host.
        expect(h.requestedPaths()).toContain('/babylon/ktx2-worker.js');
        expect(h.requestedPaths()).toContain('/babylon/basisTranscoder/1/basis_transcoder.wasm');
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );

  it('says why a damaged KTX2 texture fails, and opens the next file', async () => {
    const ktx2 = await encodeKtx2(64, 32, pixels(64, 32, halves(64)), 'etc1s');
    const glb = await basisuGlb(ktx2.slice(0, Math.floor(ktx2.length * 0.6))); // the texture's level data cut off
    await h.page.setInputFiles('#viewer-file', {
      name: 'damaged-ktx2.glb',
      mimeType: 'model/gltf-binary',
      buffer: Buffer.from(glb),
    });
    const viewer = h.page.locator('.viewer');
    await poll(
      async () => `${await viewer.getAttribute('data-state')} ${await viewer.getAttribute('data-name')}`,
      20_000,
    ).toBe('error damaged-ktx2.glb');
    expect(await textOf(h.page.locator('.viewer-error'))()).toMatch(
      /KTX2 texture: The KTX2 texture (is damaged|could not be prepared|.*could not be decoded)/,
    );
    await openFiles(h, [realFixture('glb', 'BoxTextured.glb')]);
    await expectRendered(h, 'BoxTextured.glb', 'after-damaged-ktx2');
  });

  it.each([
    ['draco', '/babylon/draco_wasm_wrapper_gltf.js'],
    ['meshopt', '/babylon/meshopt_decoder.js'],
  ] as const)(
    "opens a GLB with %s-compressed geometry, decoded by Babylon from the app's own files",
    async (codec, decoder) => {
      const original = realFixture('glb', '2CylinderEngine.glb');
      await openFiles(h, [original]);
      await expectRendered(h, '2CylinderEngine.glb', `glb-2CylinderEngine-before-${codec}`);
      const stat = (name: string) => textOf(h.page.locator(`[data-stat="${name}"]`))();
      const [triangles, size] = [await stat('triangles'), await stat('size')];
      const dir = mkdtempSync(join(tmpdir(), `viewer-${codec}-`));
      try {
        const file = join(dir, `engine-${codec}.glb`);
        const compressed = await compressedGlb(original, codec);
        writeFileSync(file, compressed.glb);
        await openFiles(h, [file]);
        await expectRendered(h, `engine-${codec}.glb`, `glb-${codec}`);
        // The geometry the file holds (the reference decoder's count: the encoder may drop degenerate
        // triangles), at the original's size (to the quantisation's precision).
        expect(Number((await stat('triangles')).replace(/,/g, ''))).toBe(compressed.triangles);
        expect(compressed.triangles).toBeGreaterThan(0.9 * Number(triangles.replace(/,/g, '')));
        const metres = (text: string) => text.split('×').map((t) => Number(t.trim().replace(/,/g, '')));
        for (const [i, v] of metres(await stat('size')).entries()) expect(v).toBeCloseTo(metres(size)[i]!, 1);
        expect(h.requestedPaths()).toContain(decoder);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );

  it('opens a .gltf with its .bin and a texture in a folder, and says which file is missing when one is', async () => {
    // BoxTextured as glTF JSON + .bin + PNG in a textures/ folder (written by glTF Transform), all picked
    // together as a user does (the picked files carry no folder: the texture is found by its name).
    const dir = mkdtempSync(join(tmpdir(), 'viewer-gltf-'));
    try {
      const io = new NodeIO();
      const doc = await io.read(realFixture('glb', 'BoxTextured.glb'));
      for (const [i, t] of doc.getRoot().listTextures().entries()) t.setURI(`textures/box-${i}.png`);
      await io.write(join(dir, 'box.gltf'), doc);
      const files = readdirSync(dir, { recursive: true, encoding: 'utf8' })
        .filter((f) => statSync(join(dir, f)).isFile())
        .sort();
      expect(files).toEqual(['box.bin', 'box.gltf', join('textures', 'box-0.png')]);
      await openFiles(
        h,
        files.map((f) => join(dir, f)),
      );
      await expectRendered(h, 'box.gltf', 'gltf-separate-files');
      expect(await textOf(h.page.locator('[data-stat="textures"]'))()).toBe('1');
      await poll(() => h.page.locator('.texture-list li').count()).toBe(1);

      // Without its .bin: an error naming the problem, and the viewer still opens the next file.
      await openFiles(
        h,
        files.filter((f) => !f.endsWith('.bin')).map((f) => join(dir, f)),
      );
      const viewer = h.page.locator('.viewer');
      await poll(
        async () => `${await viewer.getAttribute('data-state')} ${await viewer.getAttribute('data-name')}`,
        20_000,
      ).toBe('error box.gltf');
      expect(await viewer.innerText()).toContain('box.gltf needs box.bin, which was not picked with it.');
      await openFiles(h, [realFixture('glb', 'BoxTextured.glb')]);
      await expectRendered(h, 'BoxTextured.glb', 'gltf-after-missing-bin');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('made no request beyond this machine', () => {
    expect(h.offHost()).toEqual([]);
    expect(h.pageErrors.filter((e) => !e.includes('broken.glb'))).toEqual([]);
  });
});
