// The one skinned-character GLB writer (main/formats/skinned-glb.ts), which writes both the engine's animated
// character and the export's GLB of FBX clips, from the plain data of main/formats/character.ts.
import { NodeIO } from '@gltf-transform/core';
import { describe, expect, it } from 'vitest';
import type { SkinnedCharacter } from '../../main/formats/character.ts';
import { writeSkinnedGlb } from '../../main/formats/skinned-glb.ts';
import { validator } from '../gltf-validator.ts';

/** Two bones (a root and a child 1 m above it), one triangle skinned to them, one take. */
function twoBones(over: Partial<SkinnedCharacter> = {}): SkinnedCharacter {
  const s = Math.SQRT1_2;
  return {
    name: 'stick',
    bones: [
      { name: 'hips', parent: -1, t: [0, 1, 0], r: [0, 0, 0, 1] },
      { name: 'head', parent: 0, t: [0, 2, 0], r: [0, 0, s, s] },
    ],
    positions: [0, 1, 0, 1, 1, 0, 0, 2, 0],
    normals: [0, 0, 1, 0, 0, 1, 0, 0, 1],
    joints: [0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0],
    weights: [1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0],
    parts: [{ name: 'skin', color: [1.2, 0.5, -0.1], indices: [0, 1, 2] }],
    takes: [
      {
        name: 'nod',
        times: [0, 0.55, 1.1],
        tracks: [
          { bone: 1, rotations: [0, 0, 0, 1, 0.1, 0, 0, 0.995, 0, 0, 0, 1] },
          { bone: 0, translations: [0, 1, 0, 0, 1.1, 0, 0, 1, 0] },
          { bone: 7, rotations: [0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1] }, // no such bone: left out
        ],
      },
    ],
    ...over,
  };
}

const read = (glb: Uint8Array) => new NodeIO().readBinary(glb);

describe('writeSkinnedGlb', () => {
  it('writes a valid GLB naming its writer: the mesh skinned to every bone, at rest in the bind pose', async () => {
    const glb = writeSkinnedGlb(twoBones(), 'Asset Studio test');
    const report = await validator.validateBytes(glb, { maxIssues: 50, writeTimestamp: false });
    expect(report.issues.messages.filter((m) => m.severity === 0)).toEqual([]);
    expect(JSON.parse(glb.toString('utf8', 20, 20 + glb.readUInt32LE(12))).asset).toEqual({
      version: '2.0',
      generator: 'Asset Studio test',
    });
    const root = (await read(glb)).getRoot();
    const [holder, hips, head] = root.listNodes();
    expect([holder!.getName(), hips!.getName(), head!.getName()]).toEqual(['stick', 'hips', 'head']);
    expect(holder!.getMesh()?.getName()).toBe('stick');
    expect(hips!.listChildren()).toEqual([head]);
    expect(head!.getTranslation()).toEqual([0, 1, 0]); // in its parent
    expect(root.listSkins()[0]!.listJoints()).toEqual([hips, head]);
    expect(root.listSkins()[0]!.getSkeleton()).toBe(hips);
    const prim = root.listMeshes()[0]!.listPrimitives()[0]!;
    expect(prim.getAttribute('JOINTS_0')!.getArray()).toBeInstanceOf(Uint8Array); // 256 bones at most
    expect(prim.getAttribute('COLOR_0')).toBeNull();
    expect(prim.getMaterial()!.getBaseColorFactor()).toEqual([1, 0.5, 0, 1]); // clamped to [0, 1]
  });

  it("writes each take as a looping animation: every track's rotations, then positions, on bones that exist", async () => {
    const root = (await read(writeSkinnedGlb(twoBones(), 'test'))).getRoot();
    const [animation] = root.listAnimations();
    expect(animation!.getName()).toBe('nod');
    const channels = animation!.listChannels().map((c) => [c.getTargetNode()!.getName(), c.getTargetPath()]);
    expect(channels).toEqual([
      ['head', 'rotation'],
      ['hips', 'translation'],
    ]);
    const input = animation!.listSamplers()[0]!.getInput()!;
    expect(Array.from(input.getArray()!)).toEqual([0, 0.55, 1.1].map(Math.fround));
    expect(input.getMax([])).toEqual([Math.fround(1.1)]);
    expect(animation!.listSamplers().map((s) => s.getInterpolation())).toEqual(['LINEAR', 'LINEAR']);
  });

  it('keeps vertex colours, wide indices and 16-bit joints when the character needs them', async () => {
    const bones = Array.from({ length: 300 }, (_, i) => ({
      name: `b${i}`,
      parent: i - 1,
      t: [0, i, 0] as [number, number, number],
      r: [0, 0, 0, 1] as [number, number, number, number],
    }));
    const count = 70_000;
    const glb = writeSkinnedGlb(
      twoBones({
        bones,
        positions: Array.from({ length: count * 3 }, (_, i) => (i % 3 === 1 ? i / 3 / count : 0)),
        normals: Array.from({ length: count * 3 }, (_, i) => (i % 3 === 2 ? 1 : 0)),
        joints: Array.from({ length: count * 4 }, (_, i) => (i % 4 === 0 ? 299 : 0)),
        weights: Array.from({ length: count * 4 }, (_, i) => (i % 4 === 0 ? 1 : 0)),
        colors: Array.from({ length: count * 3 }, () => 0.25),
        parts: [{ name: 'skin', color: [1, 1, 1], indices: [0, 1, count - 1] }],
        takes: [],
      }),
      'test',
    );
    const root = (await read(glb)).getRoot();
    const prim = root.listMeshes()[0]!.listPrimitives()[0]!;
    expect(prim.getAttribute('JOINTS_0')!.getArray()).toBeInstanceOf(Uint16Array);
    expect(prim.getIndices()!.getArray()).toBeInstanceOf(Uint32Array);
    expect(prim.getAttribute('COLOR_0')!.getElement(5, [])).toEqual([0.25, 0.25, 0.25]);
    expect(root.listAnimations()).toEqual([]);
  });
});
