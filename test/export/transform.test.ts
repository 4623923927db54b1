import { readFileSync } from 'node:fs';
import { Document, getBounds, type Node } from '@gltf-transform/core';
import { describe, expect, it } from 'vitest';
import { buildGlb } from '../../main/engine/outputs/index.ts';
import { sceneBounds, type Bounds } from '../../main/export/bounds.ts';
import { transformGlb, type Transforms } from '../../main/export/transform.ts';
import { realFixture } from '../fixtures.ts';
import { io, validatorErrors } from './helpers.ts';

const fixture = (name: string) => new Uint8Array(readFileSync(realFixture('glb', name)));
const generated = new Uint8Array(buildGlb({ seed: 'rock', kind: 'rock', scale: [0.6, 1.4, 0.4] }));

/** The world box of the default scene as read back from the bytes: gltf-transform's own measure for static meshes. */
async function staticBounds(glb: Uint8Array): Promise<Bounds> {
  const doc = await io.readBinary(glb);
  const { min, max } = getBounds(doc.getRoot().getDefaultScene()!);
  return { min, max, size: [0, 1, 2].map((k) => max[k]! - min[k]!) } as Bounds;
}

/** Skinned meshes are measured as posed by their joints. */
async function skinnedBounds(glb: Uint8Array): Promise<Bounds> {
  return sceneBounds((await io.readBinary(glb)).getRoot().getDefaultScene()!)!;
}

function expectClose(actual: number[], expected: number[], digits = 5) {
  expect(actual).toHaveLength(expected.length);
  for (const [k, v] of actual.entries()) expect(v, `component ${k}`).toBeCloseTo(expected[k]!, digits);
}

describe('transformGlb', () => {
  it('scales by a factor about the origin', async () => {
    const before = await staticBounds(generated);
    const out = await transformGlb(generated, { scale: { factor: 2.5 } }, 'rock.glb');
    const after = await staticBounds(out.glb);
    expectClose(
      after.min,
      before.min.map((v) => v * 2.5),
    );
    expectClose(
      after.max,
      before.max.map((v) => v * 2.5),
    );
    expectClose(out.bbox!.max, after.max);
  });

  it('fits the largest dimension or the height to a size in metres', async () => {
    const largest = await staticBounds((await transformGlb(generated, { scale: { largest: 3 } }, 'rock.glb')).glb);
    expect(Math.max(...largest.size)).toBeCloseTo(3, 5);
    const engine = await staticBounds(
      (await transformGlb(fixture('2CylinderEngine.glb'), { scale: { height: 0.5 } }, 'e.glb')).glb,
    );
    expect(engine.size[1]).toBeCloseTo(0.5, 5);
  });

  it('puts the pivot at the bottom centre: min y = 0, x and z centred (static meshes)', async () => {
    const out = await transformGlb(
      fixture('2CylinderEngine.glb'),
      { pivot: 'bottom-center', scale: { largest: 2 } },
      'e.glb',
    );
    const b = await staticBounds(out.glb);
    expect(b.min[1]).toBeCloseTo(0, 5);
    expect(b.min[0] + b.max[0]).toBeCloseTo(0, 5);
    expect(b.min[2] + b.max[2]).toBeCloseTo(0, 5);
    expect(Math.max(...b.size)).toBeCloseTo(2, 5);
    expectClose([...out.bbox!.min, ...out.bbox!.max], [...b.min, ...b.max]);
  });

  it('centres the box with pivot "center"', async () => {
    const b = await staticBounds(
      (await transformGlb(fixture('2CylinderEngine.glb'), { pivot: 'center' }, 'e.glb')).glb,
    );
    for (let k = 0; k < 3; k++) expect((b.min[k]! + b.max[k]!) / b.size[k]!).toBeCloseTo(0, 6);
  });

  it('stands a skinned, animated model (Fox) on the ground at a given height', async () => {
    const out = await transformGlb(fixture('Fox.glb'), { scale: { height: 0.6 }, pivot: 'bottom-center' }, 'Fox.glb');
    const b = await skinnedBounds(out.glb);
    expect(b.size[1]).toBeCloseTo(0.6, 5);
    expect(b.min[1]).toBeCloseTo(0, 6);
    expect(b.min[0] + b.max[0]).toBeCloseTo(0, 6);
    expect(b.min[2] + b.max[2]).toBeCloseTo(0, 6);
    expectClose(out.bbox!.size, b.size);
  });

  it('converts Y up to Z up by rotating the root a quarter turn about X, and back', async () => {
    const source = fixture('2CylinderEngine.glb');
    const before = await staticBounds(source);
    const zUp = await transformGlb(source, { upAxis: 'y-to-z' }, 'e.glb');
    const after = await staticBounds(zUp.glb);
    // (x, y, z) -> (x, -z, y): the old height is now along Z, the old front (+Z) points to -Y.
    expectClose(after.min, [before.min[0], -before.max[2], before.min[1]], 3);
    expectClose(after.max, [before.max[0], -before.min[2], before.max[1]], 3);
    const back = await staticBounds((await transformGlb(zUp.glb, { upAxis: 'z-to-y' }, 'e.glb')).glb);
    expectClose(back.min, before.min, 3);
    expectClose(back.max, before.max, 3);
  });

  it('with Z up, measures the height and the bottom along Z', async () => {
    const out = await transformGlb(
      fixture('Fox.glb'),
      { upAxis: 'y-to-z', scale: { height: 1 }, pivot: 'bottom-center' },
      'Fox.glb',
    );
    const b = await skinnedBounds(out.glb);
    expect(b.size[2]).toBeCloseTo(1, 5);
    expect(b.min[2]).toBeCloseTo(0, 6);
    expect(b.min[1] + b.max[1]).toBeCloseTo(0, 6);
  });

  it('bakes the transforms: no node added, identity roots, unit scales, a skinned Fox whose clips still play', async () => {
    const t: Transforms = { upAxis: 'y-to-z', scale: { factor: 0.01 }, pivot: 'bottom-center' };
    const source = await io.readBinary(fixture('Fox.glb'));
    const glb = (await transformGlb(fixture('Fox.glb'), t, 'Fox.glb')).glb;
    const out = await io.readBinary(glb);
    const names = (d: Document) =>
      d
        .getRoot()
        .listNodes()
        .map((n) => n.getName());
    expect(names(out)).toEqual(names(source));
    const roots = out.getRoot().getDefaultScene()!.listChildren();
    expect(roots.map((n) => n.getName()).sort()).toEqual(['fox', 'root']);
    for (const root of roots) {
      expect(root.getTranslation()).toEqual([0, 0, 0]);
      expect(root.getRotation()).toEqual([0, 0, 0, 1]);
      expect(root.getScale()).toEqual([1, 1, 1]);
    }
    for (const node of out.getRoot().listNodes()) expectClose(node.getScale(), [1, 1, 1]);
    expect(
      out
        .getRoot()
        .listAnimations()
        .map((a) => a.getName()),
    ).toEqual(['Survey', 'Walk', 'Run']);

    // A joint's world position, at rest and at a key of each clip, is the source's mapped by the same similarity.
    const map = (p: number[], offset: number[]) => [
      0.01 * p[0]! + offset[0]!,
      -0.01 * p[2]! + offset[1]!,
      0.01 * p[1]! + offset[2]!,
    ];
    const head = (d: Document) =>
      d
        .getRoot()
        .listNodes()
        .find((n) => n.getName() === 'b_Head_05')!;
    const rest = [worldPosition(head(source)), worldPosition(head(out))];
    const offset = [0, 1, 2].map((k) => rest[1]![k]! - map(rest[0]!, [0, 0, 0])[k]!);
    // The vertices are in the new frame, pivot included: (x, y, z) -> 0.01 (x, -z, y) + offset.
    const positions = (d: Document) =>
      Array.from(d.getRoot().listMeshes()[0]!.listPrimitives()[0]!.getAttribute('POSITION')!.getArray()!);
    const [before, after] = [positions(source), positions(out)];
    for (const i of [0, 3 * 100, 3 * 1000]) expectClose(after.slice(i, i + 3), map(before.slice(i, i + 3), offset));
    // Each joint's bind pose (the inverse of its inverse bind matrix, where importers such as Blender's take the
    // rest pose from) is where the joint is at rest, as in the source: the skin matrix Wj·IBMj stays the identity.
    for (const doc of [source, out]) {
      const skin = doc.getRoot().listSkins()[0]!;
      for (const [k, joint] of skin.listJoints().entries()) {
        const skinMatrix = multiply(
          joint.getWorldMatrix() as unknown as number[],
          skin.getInverseBindMatrices()!.getElement(k, []),
        );
        expectClose(skinMatrix, [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1], 4);
      }
    }
    for (const clip of ['Survey', 'Walk', 'Run']) {
      for (const key of [3, 11]) {
        const at = [pose(source, clip, key), pose(out, clip, key)];
        const [was, now] = [worldPosition(head(source)), worldPosition(head(out))];
        expect(at[0]).toBe(at[1]);
        expectClose(now, map(was, offset), 5);
        expect(Math.hypot(...was.map((v, k) => v - rest[0]![k]!))).toBeGreaterThan(0); // the clip moves the head
      }
    }
    const b = await skinnedBounds(glb); // at rest: on the ground (Z up), centred in X and Y
    expect(b.min[2]).toBeCloseTo(0, 6);
    expect(b.min[0] + b.max[0]).toBeCloseTo(0, 6);
    expect(await validatorErrors(glb)).toEqual([]);
  });

  it.each(['BoxTextured.glb', 'Fox.glb', '2CylinderEngine.glb', 'm2m-sample-rig.glb'])(
    'keeps %s free of Khronos validator errors',
    async (name) => {
      const source = fixture(name);
      expect(await validatorErrors(source)).toEqual([]);
      const all: Transforms = { upAxis: 'y-to-z', scale: { height: 1.8 }, pivot: 'bottom-center' };
      expect(await validatorErrors((await transformGlb(source, all, name)).glb)).toEqual([]);
      expect(await validatorErrors((await transformGlb(source, { scale: { factor: 100 } }, name)).glb)).toEqual([]);
    },
  );

  it('refuses what it cannot read or measure', async () => {
    await expect(transformGlb(new Uint8Array(64), { scale: { factor: 2 } }, 'broken.glb')).rejects.toMatchObject({
      code: 'unreadable-glb',
      file: 'broken.glb',
    });
    const empty = new Document();
    empty.createScene('s').addChild(empty.createNode('camera-only'));
    const glb = await io.writeBinary(empty);
    await expect(transformGlb(glb, { pivot: 'bottom-center' }, 'empty.glb')).rejects.toMatchObject({
      code: 'unsupported-glb',
    });
    expect((await transformGlb(glb, { scale: { factor: 2 } }, 'empty.glb')).bbox).toBeUndefined();
  });
});

/** A node's world position (its matrix's translation). */
function worldPosition(node: Node): number[] {
  const m = node.getWorldMatrix();
  return [m[12], m[13], m[14]];
}

/** Sets every node a clip animates to its value at the clip's key `index` (of its first channel's times); returns that time. */
function pose(doc: Document, clip: string, index: number): number {
  const animation = doc
    .getRoot()
    .listAnimations()
    .find((a) => a.getName() === clip)!;
  const time = animation.listChannels()[0]!.getSampler()!.getInput()!.getScalar(index);
  for (const channel of animation.listChannels()) {
    const sampler = channel.getSampler()!;
    const [input, output] = [sampler.getInput()!, sampler.getOutput()!];
    let k = 0;
    while (k + 1 < input.getCount() && input.getScalar(k + 1) <= time) k++;
    const next = Math.min(k + 1, input.getCount() - 1);
    const span = input.getScalar(next) - input.getScalar(k);
    const f = span > 0 ? Math.min(1, Math.max(0, (time - input.getScalar(k)) / span)) : 0;
    const a = output.getElement(k, []);
    const b = output.getElement(next, []);
    let v = a.map((x, i) => x + f * (b[i]! - x));
    const node = channel.getTargetNode()!;
    if (channel.getTargetPath() === 'rotation') {
      const n = Math.hypot(...v);
      v = v.map((x) => x / n);
      node.setRotation(v as [number, number, number, number]);
    } else if (channel.getTargetPath() === 'translation') node.setTranslation(v as [number, number, number]);
    else if (channel.getTargetPath() === 'scale') node.setScale(v as [number, number, number]);
  }
  return time;
}

/** Column-major 4x4 product a·b. */
function multiply(a: number[], b: number[]): number[] {
  const out = new Array<number>(16).fill(0);
  for (let c = 0; c < 4; c++)
    for (let r = 0; r < 4; r++) for (let k = 0; k < 4; k++) out[c * 4 + r]! += a[k * 4 + r]! * b[c * 4 + k]!;
  return out;
}
