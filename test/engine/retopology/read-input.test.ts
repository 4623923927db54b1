// Reading retopology inputs: real GLB fixtures (plain, Draco- and meshopt-compressed), glTF JSON, OBJ, and the
// inputs the engine refuses, with messages that say what to send instead.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Document, Format, getBounds, NodeIO } from '@gltf-transform/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boundsOf, type TriangleMesh } from '../../../main/mesh/mesh.ts';
import { readGltf } from '../../../main/mesh/read-gltf.ts';
import { readInputMesh } from '../../../main/engine/retopology/read-input.ts';
import { readObj } from '../../../main/mesh/read-obj.ts';
import { UnreadableMesh } from '../../../main/mesh/unreadable.ts';
import { compressedGlb } from '../../renderer/compressed-fixtures.ts';

const FIXTURES = join(import.meta.dirname, '..', '..', '..', '..', 'shared', 'fixtures', 'real', 'glb');
const fixture = (name: string) => join(FIXTURES, name);
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'retopology-read-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const triangles = (mesh: TriangleMesh) => mesh.indices.length / 3;

/** Signed volume of a closed mesh: positive when its triangles wind counter-clockwise seen from outside. */
function signedVolume(mesh: TriangleMesh): number {
  const p = mesh.positions;
  let volume = 0;
  for (let t = 0; t < mesh.indices.length; t += 3) {
    const [a, b, c] = [mesh.indices[t]! * 3, mesh.indices[t + 1]! * 3, mesh.indices[t + 2]! * 3];
    volume +=
      (p[a]! * (p[b + 1]! * p[c + 2]! - p[b + 2]! * p[c + 1]!) -
        p[a + 1]! * (p[b]! * p[c + 2]! - p[b + 2]! * p[c]!) +
        p[a + 2]! * (p[b]! * p[c + 1]! - p[b + 1]! * p[c]!)) /
      6;
  }
  return volume;
}

function expectBox(
  actual: { min: number[]; max: number[] },
  expected: { min: number[]; max: number[] },
  tolerance: number,
): void {
  for (let k = 0; k < 3; k++) {
    expect(actual.min[k]).toBeCloseTo(expected.min[k]!, tolerance);
    expect(actual.max[k]).toBeCloseTo(expected.max[k]!, tolerance);
  }
}

describe('readInputMesh on real GLB fixtures', () => {
  it('merges every node of 2CylinderEngine in world space: the scene bounds glTF Transform computes, 29 meshes placed by 82 nodes', async () => {
    const mesh = await readInputMesh(fixture('2CylinderEngine.glb'));
    const doc = await new NodeIO().read(fixture('2CylinderEngine.glb'));
    expectBox(boundsOf(mesh.positions, mesh.indices), getBounds(doc.getRoot().listScenes()[0]!), 3);
    // Meshes used by several nodes count once per node: more triangles than the meshes hold.
    let perMesh = 0;
    for (const m of doc.getRoot().listMeshes())
      for (const p of m.listPrimitives()) perMesh += p.getIndices()!.getCount() / 3;
    expect(triangles(mesh)).toBeGreaterThan(perMesh);
    expect(mesh.uvs).toBeUndefined();
    expect(new Set(mesh.materials.map((m) => m.name)).size).toBe(8);
    expect(mesh.materials.every((m) => m.texture === undefined)).toBe(true);
  });

  it('keeps the base-colour texture and texture coordinates (BoxTextured, Fox)', async () => {
    for (const name of ['BoxTextured.glb', 'Fox.glb']) {
      const mesh = await readInputMesh(fixture(name));
      const doc = await new NodeIO().read(fixture(name));
      const image = doc.getRoot().listTextures()[0]!.getImage()!;
      expect(mesh.uvs, name).toBeDefined();
      expect(mesh.materials).toHaveLength(1);
      expect(mesh.materials[0]!.texture?.extension).toBe('png');
      expect(Buffer.from(mesh.materials[0]!.texture!.bytes).equals(Buffer.from(image))).toBe(true);
    }
  });

  it('reads a skinned mesh in its rest pose (Fox: the bind pose, where its joints sit)', async () => {
    const mesh = await readInputMesh(fixture('Fox.glb'));
    expect(triangles(mesh)).toBe(576);
    expectBox(boundsOf(mesh.positions), { min: [-12.5927, -0.1217, -88.095], max: [12.5927, 78.9072, 66.6249] }, 2);
  });

  it('moves a skinned mesh with its joints, and keeps a mirrored node outward-facing', async () => {
    // BoxTextured skinned to one joint moved 2 m along +x (identity inverse bind matrix): the box moves too.
    const io = new NodeIO();
    const doc = await io.read(fixture('BoxTextured.glb'));
    const node = doc
      .getRoot()
      .listNodes()
      .find((n) => n.getMesh() !== null)!;
    const primitive = node.getMesh()!.listPrimitives()[0]!;
    const count = primitive.getAttribute('POSITION')!.getCount();
    const buffer = doc.getRoot().listBuffers()[0]!;
    primitive.setAttribute(
      'JOINTS_0',
      doc
        .createAccessor()
        .setType('VEC4')
        .setArray(new Uint16Array(count * 4))
        .setBuffer(buffer),
    );
    primitive.setAttribute(
      'WEIGHTS_0',
      doc
        .createAccessor()
        .setType('VEC4')
        .setArray(Float32Array.from({ length: count * 4 }, (_, i) => (i % 4 === 0 ? 1 : 0)))
        .setBuffer(buffer),
    );
    const joint = doc.createNode('joint').setTranslation([2, 0, 0]);
    doc.getRoot().listScenes()[0]!.addChild(joint);
    node.setSkin(doc.createSkin('skin').addJoint(joint));
    const skinned = await readGltf(await io.writeBinary(doc), 'glb');
    expectBox(boundsOf(skinned.positions), { min: [1.5, -0.5, -0.5], max: [2.5, 0.5, 0.5] }, 4);

    const plain = await readInputMesh(fixture('BoxTextured.glb'));
    const mirroredDoc = await io.read(fixture('BoxTextured.glb'));
    mirroredDoc
      .getRoot()
      .listNodes()
      .find((n) => n.getMesh() !== null)!
      .setScale([-1, 1, 1]);
    const mirrored = await readGltf(await io.writeBinary(mirroredDoc), 'glb');
    expect(signedVolume(plain)).toBeCloseTo(1, 4);
    expect(signedVolume(mirrored)).toBeCloseTo(1, 4);
  });

  it.each(['draco', 'meshopt'] as const)('decodes %s-compressed geometry to the same model', async (codec) => {
    const plain = await readInputMesh(fixture('2CylinderEngine.glb'));
    const { glb, triangles: held } = await compressedGlb(fixture('2CylinderEngine.glb'), codec);
    const path = join(dir, `engine-${codec}.glb`);
    await writeFile(path, glb);
    const decoded = await readInputMesh(path);
    // Every triangle the file holds (its encoder drops degenerate ones), placed as the plain file places them:
    // the same box within the quantization of positions.
    expect(triangles(decoded)).toBe(held);
    expect(triangles(decoded)).toBeGreaterThan(triangles(plain) * 0.85);
    const a = boundsOf(plain.positions, plain.indices);
    const b = boundsOf(decoded.positions, decoded.indices);
    for (let k = 0; k < 3; k++) {
      expect(Math.abs(a.min[k]! - b.min[k]!)).toBeLessThan(1);
      expect(Math.abs(a.max[k]! - b.max[k]!)).toBeLessThan(1); // the model is ~740 units long
    }
  });
});

describe('readInputMesh on other inputs', () => {
  it('reads a glTF whose buffers and images are data URIs, and refuses one that names files beside it', async () => {
    const doc = await new NodeIO().read(fixture('BoxTextured.glb'));
    const json = await new NodeIO().writeJSON(doc, { format: Format.GLTF, basename: 'box' });
    // Embed every resource as a data URI.
    for (const item of [...(json.json.buffers ?? []), ...(json.json.images ?? [])]) {
      const data = json.resources[item.uri!]!;
      item.uri = `data:application/octet-stream;base64,${Buffer.from(data).toString('base64')}`;
    }
    const embedded = join(dir, 'embedded.gltf');
    await writeFile(embedded, JSON.stringify(json.json));
    const mesh = await readInputMesh(embedded);
    expect(triangles(mesh)).toBe(12);
    expect(mesh.materials[0]!.texture).toBeDefined();

    const external = await new NodeIO().writeJSON(doc, { format: Format.GLTF, basename: 'box' });
    const path = join(dir, 'external.gltf');
    await writeFile(path, JSON.stringify(external.json));
    await expect(readInputMesh(path)).rejects.toThrow(
      /names files beside it \(box\.bin.*send a GLB, or a glTF whose buffers and images are embedded/,
    );
  });

  it('refuses a model without triangles, and FBX or USDZ files, saying what to send', async () => {
    const doc = new Document();
    const buffer = doc.createBuffer();
    const points = doc
      .createPrimitive()
      .setMode(0)
      .setAttribute(
        'POSITION',
        doc
          .createAccessor()
          .setType('VEC3')
          .setArray(new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]))
          .setBuffer(buffer),
      );
    doc.createScene().addChild(doc.createNode().setMesh(doc.createMesh().addPrimitive(points)));
    const path = join(dir, 'points.glb');
    await writeFile(path, await new NodeIO().writeBinary(doc));
    await expect(readInputMesh(path)).rejects.toThrow(UnreadableMesh);
    await expect(readInputMesh(path)).rejects.toThrow(/holds no triangles .*give a model with a triangle mesh/);

    await writeFile(join(dir, 'model.fbx'), 'Kaydara FBX Binary  \0');
    await expect(readInputMesh(join(dir, 'model.fbx'))).rejects.toThrow(
      /is an FBX file, which retopology does not read \(it reads GLB, glTF and OBJ\): convert it to GLB first/,
    );
  });

  it('reads an OBJ: polygons fanned into triangles, negative indices, texture coordinates flipped to glTF, one material per usemtl', () => {
    const mesh = readObj(
      [
        'v 0 0 0',
        'v 1 0 0',
        'v 1 1 0',
        'v 0 1 0',
        'vt 0 0',
        'vt 1 0',
        'vt 1 1',
        'vt 0 1',
        'usemtl wood',
        'f 1/1 2/2 3/3 4/4',
        'usemtl metal',
        'f -4/-4 -2/-2 -1/-1',
      ].join('\n'),
    );
    expect(triangles(mesh)).toBe(3);
    expect(mesh.materials.map((m) => m.name)).toEqual(['wood', 'metal']);
    expect(Array.from(mesh.materialOf)).toEqual([0, 0, 0, 0, 0, 0, 1, 1, 1]);
    expect(Array.from(mesh.uvs!.subarray(0, 4))).toEqual([0, 1, 1, 1]); // v = 1 − vt
    expect(() => readObj('v 0 0 0\nf 1 2 3')).toThrow(/line 2 names vertex 2, which it does not have/);
  });
});
