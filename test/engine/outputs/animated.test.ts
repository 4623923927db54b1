import { describe, expect, it } from 'vitest';
import { jointPositions } from '../../../main/engine/figure.ts';
import { ANIMATED_BONES, buildAnimatedGlb } from '../../../main/engine/outputs/animated.ts';
import { readGlbJson } from '../../../main/formats/glb.ts';
import { jointOfBone } from '../../../shared/joints.ts';
import { validator } from '../../gltf-validator.ts';

interface Gltf {
  nodes: { name?: string; mesh?: number; skin?: number; translation?: number[] }[];
  skins: { joints: number[]; inverseBindMatrices: number }[];
  meshes: { primitives: { attributes: Record<string, number> }[] }[];
  animations: { name: string; channels: { target: { node: number; path: string } }[] }[];
}

const build = (seed: string, clips: string[]) =>
  buildAnimatedGlb({ seed, joints: jointPositions(seed, 512), size: 512, clips });

describe('buildAnimatedGlb', () => {
  it.each([
    ['abc123', ['Idle', 'Walk', 'Run', 'Jump']],
    ['xyz', ['Walk']],
    ['prompt', ['wave both arms then spin around']],
  ])('passes the Khronos validator without errors or warnings (%s, %o)', async (seed, clips) => {
    const report = await validator.validateBytes(new Uint8Array(build(seed, clips)), {
      maxIssues: 20,
      writeTimestamp: false,
    });
    expect(report.issues.messages).toEqual([]);
    expect(report.issues.numErrors).toBe(0);
    expect(report.info.hasSkins).toBe(true);
    expect(report.info.animationCount).toBe(clips.length);
  });

  it('has a skin over Mixamo-named bones for every joint, and rotation channels per clip', () => {
    const gltf = readGlbJson(build('s', ['Idle', 'Walk', 'Run', 'Jump', 'a text'])) as Gltf;
    const skinned = gltf.nodes.find((n) => n.skin !== undefined)!;
    expect(skinned.mesh).toBe(0);
    expect(Object.keys(gltf.meshes[0]!.primitives[0]!.attributes).sort()).toEqual([
      'JOINTS_0',
      'NORMAL',
      'POSITION',
      'WEIGHTS_0',
    ]);
    const boneNames = gltf.skins[0]!.joints.map((j) => gltf.nodes[j]!.name!);
    expect(boneNames).toEqual(ANIMATED_BONES);
    expect(boneNames.every((b) => b.startsWith('mixamorig:'))).toBe(true);
    // Every joint but the nose (no bone in a Mixamo rig) has its bone.
    expect(new Set(boneNames.map(jointOfBone)).size).toBe(16);
    expect(gltf.animations.map((a) => a.name)).toEqual(['Idle', 'Walk', 'Run', 'Jump', 'a text']);
    for (const a of gltf.animations) {
      expect(a.channels.filter((c) => c.target.path === 'rotation').length).toBeGreaterThan(2);
      expect(
        a.channels.some((c) => c.target.path === 'translation' && gltf.nodes[c.target.node]!.name === 'mixamorig:Hips'),
      ).toBe(true);
    }
  });

  it('stands in the rest pose of the figure: hips at the pelvis, left on +x, head on top', () => {
    const gltf = readGlbJson(build('pose', ['Idle'])) as Gltf;
    const node = (name: string) => gltf.nodes.find((n) => n.name === `mixamorig:${name}`)!.translation!;
    const hips = node('Hips');
    expect(hips[0]).toBeCloseTo(0, 2);
    expect(hips[1]).toBeGreaterThan(0.7);
    expect(node('LeftUpLeg')[0]).toBeGreaterThan(0);
    expect(node('RightUpLeg')[0]).toBeLessThan(0);
    expect(node('Head')[1]).toBeGreaterThan(0);
  });

  it('derives a text prompt clip from the text', () => {
    expect(build('s', ['jump around']).equals(build('s', ['jump around']))).toBe(true);
    expect(build('s', ['jump around']).equals(build('s', ['dance slowly']))).toBe(false);
  });
});
