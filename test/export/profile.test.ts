// An export with a target profile (#31 items 2, 3, 5): the model made game-ready and written the way each engine
// imports LODs — Unity an FBX of `<Name>_LOD0..n` meshes with its PBR maps (base colour and normal map bound, the
// metallic/smoothness map made and written beside), Unreal an FBX with a LodGroup node, a plain folder a GLB with
// MSFT_lod, Godot the base mesh — and the plan listing the LODs, their error, the texture sizes and the fixes.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NodeIO } from '@gltf-transform/core';
import { exportAsset, planExport, type SourceFile } from '../../main/export/export.ts';
import { lodPreview } from '../../main/export/gameready-files.ts';
import { readManifest } from '../../main/export/manifest.ts';
import { gameReadyIo } from '../../main/gameready/gameready.ts';
import { lodsOf } from '../../main/gameready/msft-lod.ts';
import { closeGameReadyThread } from '../../main/gameready/thread.ts';
import { resolveProfile } from '../../shared/target-profiles.ts';
import { sphereGlb } from '../gameready/model.ts';
import { validator } from '../gltf-validator.ts';
import { readFbxNodes, type FbxRecord } from './fbx-nodes.ts';
import { makeProject, SOURCE, tempDir } from './helpers.ts';

let files: SourceFile[];

beforeAll(async () => {
  const dir = tempDir();
  writeFileSync(join(dir, 'mesh.glb'), await sphereGlb({ triangles: 30_000, mapSize: 2048 }));
  writeFileSync(
    join(dir, 'mesh_normal.png'),
    await sharp({ create: { width: 8, height: 8, channels: 3, background: '#8080ff' } })
      .png()
      .toBuffer(),
  );
  files = [
    { kind: 'glb', path: join(dir, 'mesh.glb') },
    { kind: 'texture', path: join(dir, 'mesh_normal.png') },
  ];
});
afterAll(() => closeGameReadyThread());

const objects = (fbx: Buffer) => readFbxNodes(fbx).find((n) => n.name === 'Objects')!.children;
const connections = (fbx: Buffer) => readFbxNodes(fbx).find((n) => n.name === 'Connections')!.children;
const nameOf = (n: FbxRecord) => String(n.props[1]).split('\x00')[0];

describe('export with a profile', () => {
  it('Unity: one FBX of Chair_LOD0..2 meshes within the budget, the normal map bound and the metallic/smoothness map beside it', async () => {
    const projectDir = makeProject('unity');
    const options = { projectDir, name: 'chair', files, source: SOURCE, profile: resolveProfile('unity-mobile')! };
    const plan = await planExport(options);
    expect(plan.format).toBe('fbx');
    expect(plan.write.map((w) => w.name)).toEqual([
      'Chair.fbx',
      'Chair_BaseColor.png',
      'Chair_Normal.png',
      'Chair_MetallicSmoothness.png',
    ]);
    expect(plan.skip.map((s) => s.name)).toEqual(['mesh.glb', 'mesh_normal.png']);
    expect(plan.gameReady!.levels.map((l) => l.level)).toEqual([0, 1, 2]);
    expect(plan.gameReady!.levels[0]!.triangles).toBeLessThanOrEqual(10_000);
    expect(plan.gameReady!.fixed.join('\n')).toMatch(/LOD0: 30,\d{3} → .* triangles[\s\S]*2048×2048 → 1024×1024/);
    expect(plan.note).toMatch(/Chair_LOD0\.\.2: Unity builds the LOD Group on import/);

    const result = await exportAsset(options);
    const fbx = readFileSync(join(result.targetDir, 'Chair.fbx'));
    const models = objects(fbx).filter((n) => n.name === 'Model');
    expect(models.map(nameOf)).toEqual(['Chair_LOD0', 'Chair_LOD1', 'Chair_LOD2']);
    const counts = objects(fbx)
      .filter((n) => n.name === 'Geometry')
      .map((g) => (g.children.find((c) => c.name === 'PolygonVertexIndex')!.props[0] as number[]).length / 3);
    expect(counts[0]).toBeLessThanOrEqual(10_000);
    expect(counts[1]).toBeLessThan(counts[0]!);
    expect(counts[2]).toBeLessThan(counts[1]!);
    const slots = connections(fbx)
      .filter((c) => c.props[0] === 'OP')
      .map((c) => c.props[3]);
    expect(slots).toEqual(['DiffuseColor', 'NormalMap', 'ReflectionFactor']);
    for (const map of ['Chair_BaseColor.png', 'Chair_Normal.png', 'Chair_MetallicSmoothness.png']) {
      const meta = await sharp(readFileSync(join(result.targetDir, map))).metadata();
      expect([map, meta.width, meta.height]).toEqual([map, 1024, 1024]);
    }
    // metallic 255 (B), roughness 153 (G): R = 255, A = 255 − 153.
    const ms = await sharp(readFileSync(join(result.targetDir, 'Chair_MetallicSmoothness.png')))
      .raw()
      .toBuffer();
    expect([...ms.subarray(0, 4)]).toEqual([255, 255, 255, 102]);
    expect(result.gameReady?.profile).toBe('unity-mobile');
    // The manifest says which profile made the files, and what it made.
    const manifest = await readManifest(result.manifestPath);
    expect(manifest.gameReady).toEqual(result.gameReady);
  });

  it('Unreal: the LOD meshes under a node with a LodGroup attribute', async () => {
    const projectDir = makeProject('unreal');
    const result = await exportAsset({
      projectDir,
      name: 'chair',
      files,
      source: SOURCE,
      profile: resolveProfile('unreal-desktop')!,
    });
    const fbx = readFileSync(result.files.find((f) => f.kind === 'fbx')!.path);
    const objs = objects(fbx);
    const group = objs.find((n) => n.name === 'Model' && n.props[2] === 'LodGroup')!;
    expect(nameOf(group)).toBe('Chair_LODGroup');
    const attribute = objs.find((n) => n.name === 'NodeAttribute' && n.props[2] === 'LodGroup')!;
    expect(attribute.children.find((c) => c.name === 'TypeFlags')!.props).toEqual(['LodGroup']);
    const meshes = objs.filter((n) => n.name === 'Model' && n.props[2] === 'Mesh');
    expect(meshes.map(nameOf)).toEqual(['Chair_LOD0', 'Chair_LOD1', 'Chair_LOD2', 'Chair_LOD3']);
    const parentOf = new Map(
      connections(fbx)
        .filter((c) => c.props[0] === 'OO')
        .map((c) => [c.props[1], c.props[2]]),
    );
    for (const m of meshes) expect(parentOf.get(m.props[0])).toBe(group.props[0]);
    expect(parentOf.get(attribute.props[0])).toBe(group.props[0]);
    expect(result.files.map((f) => f.path.split('/').pop())).toContain('Chair_RoughnessMetallic.png');
  });

  it('a plain folder (web): one GLB with MSFT_lod that the Khronos validator passes, WebP maps within 1024 px', async () => {
    const projectDir = makeProject('folder');
    const result = await exportAsset({
      projectDir,
      name: 'chair',
      files,
      source: SOURCE,
      profile: resolveProfile('web')!,
    });
    expect(result.files.map((f) => f.kind)).toEqual(['glb']);
    const glb = readFileSync(result.files[0]!.path);
    const doc = await gameReadyIo().readBinary(glb);
    const node = doc.getRoot().getDefaultScene()!.listChildren()[0]!;
    expect(lodsOf(doc, node)).toHaveLength(2);
    for (const t of doc.getRoot().listTextures()) expect(t.getMimeType()).toBe('image/webp');
    const report = await validator.validateBytes(new Uint8Array(glb), { maxIssues: 50, writeTimestamp: false });
    expect(report.issues.numErrors).toBe(0);
  });

  it('Godot: the base mesh within the budget, no LOD nodes (Godot 4 makes its own), and the plan says so', async () => {
    const projectDir = makeProject('godot');
    const options = { projectDir, name: 'chair', files, source: SOURCE, profile: resolveProfile('godot-mobile')! };
    const plan = await planExport(options);
    expect(plan.note).toMatch(/Godot generates the LODs on import/);
    expect(plan.gameReady!.levels).toHaveLength(1);
    const result = await exportAsset(options);
    const doc = await gameReadyIo().readBinary(readFileSync(result.files[0]!.path));
    expect(doc.getRoot().listNodes()).toHaveLength(1);
    expect(doc.getRoot().listMeshes()[0]!.listPrimitives()[0]!.getIndices()!.getCount() / 3).toBeLessThanOrEqual(
      10_000,
    );
  });

  it("previews one LOD level as a GLB of its own (the viewer's LOD switch), and refuses a level there is not", async () => {
    const bytes = readFileSync(files[0]!.path);
    const profile = resolveProfile('unity-mobile')!;
    const one = await lodPreview(bytes, 'mesh.glb', profile, 1);
    expect(one.levels).toBe(3);
    const doc = await new NodeIO().readBinary(one.glb);
    expect(doc.getRoot().listNodes()).toHaveLength(1);
    expect(doc.getRoot().listExtensionsUsed()).toEqual([]);
    const triangles = doc.getRoot().listMeshes()[0]!.listPrimitives()[0]!.getIndices()!.getCount() / 3;
    expect(triangles).toBe(one.report.levels[1]!.triangles);
    const zero = await lodPreview(bytes, 'mesh.glb', profile, 0);
    expect(zero.report).toEqual(one.report);
    await expect(lodPreview(bytes, 'mesh.glb', profile, 3)).rejects.toMatchObject({
      code: 'bad-input',
      why: 'LOD3 does not exist: this model has LOD0..LOD2',
    });
  });

  it('without a profile the asset is written as it came', async () => {
    const projectDir = makeProject('folder');
    const result = await exportAsset({ projectDir, name: 'chair', files, source: SOURCE });
    expect(result.gameReady).toBeUndefined();
    expect(readFileSync(result.files.find((f) => f.kind === 'glb')!.path)).toEqual(readFileSync(files[0]!.path));
  });
});
