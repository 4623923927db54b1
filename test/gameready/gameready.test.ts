// The game-ready model of a profile (main/gameready): LOD0 within the budget, LOD1..n of strictly decreasing
// triangles with the simplifier's error, MSFT_lod as the Khronos validator accepts it, maps within the largest
// size (data maps lossless), a skinned model's skin and clip on every level, and the work on a worker thread.
import { NodeIO } from '@gltf-transform/core';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { gameReadyIo, makeGameReady } from '../../main/gameready/gameready.ts';
import { lodsOf } from '../../main/gameready/msft-lod.ts';
import { metallicSmoothnessPng } from '../../main/gameready/textures.ts';
import { closeGameReadyThread, makeGameReadyOffThread } from '../../main/gameready/thread.ts';
import { resolveProfile } from '../../shared/target-profiles.ts';
import { validator } from '../gltf-validator.ts';
import { sphereGlb } from './model.ts';

const profile = (name: string) => resolveProfile(name)!;

afterAll(() => closeGameReadyThread());

describe('makeGameReady', () => {
  it('brings LOD0 within the budget, makes strictly smaller LODs with their error, and attaches them by MSFT_lod', async () => {
    const glb = await sphereGlb({ triangles: 40_000, mapSize: 2048 });
    const { glb: out, report } = await makeGameReady(glb, profile('unity-mobile'), { lods: true });
    expect(report.original).toBeGreaterThan(39_000);
    const counts = report.levels.map((l) => l.triangles);
    expect(counts).toHaveLength(3);
    expect(counts[0]).toBeLessThanOrEqual(10_000);
    expect(counts[0]).toBeGreaterThan(9_000);
    for (let i = 1; i < counts.length; i++) expect(counts[i]).toBeLessThan(counts[i - 1]!);
    expect(counts[1]).toBeLessThanOrEqual(5_000);
    expect(counts[2]).toBeLessThanOrEqual(2_500);
    for (const l of report.levels) expect(l.error).toBeGreaterThan(0);
    expect(report.levels[2]!.error).toBeGreaterThanOrEqual(report.levels[1]!.error);
    expect(report.fixed[0]).toMatch(/^LOD0: 40,\d{3} → \d{1,2},\d{3} triangles \(budget 10,000\)$/);

    const doc = await gameReadyIo().readBinary(out);
    const node = doc.getRoot().getDefaultScene()!.listChildren()[0]!;
    const lods = lodsOf(doc, node);
    expect(lods).toHaveLength(2);
    expect(lods.map((n) => n.getMesh()!.listPrimitives()[0]!.getIndices()!.getCount() / 3)).toEqual(counts.slice(1));
    expect(node.getExtras()).toEqual({ MSFT_screencoverage: [0.6, 0.3, 0.1] });
    // Every map at most 1024 px, PNG (the profile's format), the normal map kept.
    const textures = doc.getRoot().listTextures();
    expect(textures).toHaveLength(3);
    for (const t of textures) {
      expect(t.getMimeType()).toBe('image/png');
      const meta = await sharp(t.getImage()!).metadata();
      expect([meta.width, meta.height]).toEqual([1024, 1024]);
    }
    expect(doc.getRoot().listMaterials()[0]!.getNormalTexture()).not.toBeNull();
    expect(report.textures.map((t) => t.to)).toEqual([
      [1024, 1024],
      [1024, 1024],
      [1024, 1024],
    ]);

    const validation = await validator.validateBytes(out, { maxIssues: 50, writeTimestamp: false });
    expect(validation.issues.numErrors).toBe(0);
    // The fixture's normal map has no TANGENT (the source's own warning, on every level): nothing else.
    const warnings = validation.issues.messages.filter((m) => m.severity <= 1);
    expect(warnings.filter((m) => m.code !== 'MESH_PRIMITIVE_GENERATED_TANGENT_SPACE')).toEqual([]);
    const json = JSON.parse(
      new TextDecoder().decode(out.subarray(20, 20 + new DataView(out.buffer, out.byteOffset).getUint32(12, true))),
    );
    expect(json.extensionsUsed).toContain('MSFT_lod');
    expect(json.nodes[0].extensions.MSFT_lod.ids).toHaveLength(2);
    expect(json.scenes[0].nodes).toEqual([0]);
  });

  it('writes the base mesh only when the target makes its own LODs (Godot), and leaves a model within budget as it is', async () => {
    const glb = await sphereGlb({ triangles: 8_000 });
    const { glb: out, report } = await makeGameReady(glb, profile('godot-desktop'), { lods: false });
    expect(report.levels).toHaveLength(1);
    expect(report.levels[0]).toMatchObject({ triangles: report.original, error: 0 });
    expect(report.fixed).toEqual([]);
    const doc = await new NodeIO().readBinary(out);
    expect(doc.getRoot().listNodes()).toHaveLength(1);
    expect(doc.getRoot().listExtensionsUsed()).toEqual([]);
  });

  it("keeps a skinned mesh's joints, weights and clip on every level", async () => {
    const glb = await sphereGlb({ triangles: 30_000, skinned: true });
    const { glb: out, report } = await makeGameReady(glb, profile('web'), { lods: true });
    expect(report.levels.map((l) => l.triangles)[0]).toBeLessThanOrEqual(20_000);
    const doc = await gameReadyIo().readBinary(out);
    const node = doc
      .getRoot()
      .listNodes()
      .find((n) => n.getName() === 'sphere')!;
    const levels = [node, ...lodsOf(doc, node)];
    expect(levels).toHaveLength(3);
    for (const n of levels) {
      expect(n.getSkin()).toBe(node.getSkin());
      const prim = n.getMesh()!.listPrimitives()[0]!;
      expect(prim.getAttribute('JOINTS_0')!.getCount()).toBe(prim.getAttribute('POSITION')!.getCount());
      expect(prim.getAttribute('WEIGHTS_0')!.getCount()).toBe(prim.getAttribute('POSITION')!.getCount());
    }
    expect(
      doc
        .getRoot()
        .listAnimations()
        .map((a) => a.getName()),
    ).toEqual(['stretch']);
    const validation = await validator.validateBytes(out, { maxIssues: 50, writeTimestamp: false });
    expect(validation.issues.numErrors).toBe(0);
  });

  it('runs on a worker thread, with the same result', async () => {
    const glb = await sphereGlb({ triangles: 20_000 });
    const here = await makeGameReady(glb, profile('unity-mobile'), { lods: true });
    const there = await makeGameReadyOffThread(glb, profile('unity-mobile'), { lods: true });
    expect(there.report).toEqual(here.report);
    expect(there.glb.byteLength).toBe(here.glb.byteLength);
  });
});

describe('metallicSmoothnessPng', () => {
  it("puts glTF's metallic (B) in R, G, B and 1 − roughness (G) in alpha, as Unity's Standard and URP Lit read it", async () => {
    const mr = await sharp({ create: { width: 4, height: 2, channels: 3, background: { r: 0, g: 51, b: 204 } } })
      .png()
      .toBuffer();
    const png = await metallicSmoothnessPng(mr);
    const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height, info.channels]).toEqual([4, 2, 4]);
    expect([...data.subarray(0, 4)]).toEqual([204, 204, 204, 204]);
  });
});
