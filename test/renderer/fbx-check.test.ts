// The FBX check of the animation upload form (renderer/viewer/fbx-check.ts): the skeleton read from the
// picked file's bytes and matched to the 17 joints by the engine's own name table. A static mesh (Suzanne),
// a bone chain that is not a humanoid and a zip of static props are warned about; rigged humanoids are not.
// The pose (lying down, facing sideways) is said of a humanoid character only: a real character turned to lie
// down is warned, a generated chair-like mesh with no skeleton is not told it lies down.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkZip, poseWarnings, skeletonWarnings } from '../../renderer/viewer/fbx-check.ts';
import type { ModelStats } from '../../renderer/viewer/types.ts';
import { buildFbxBinary, buildZip } from '../../main/engine/outputs/index.ts';
import { fbxBones } from '../../shared/fbx-bones.ts';
import { realFixture } from '../fixtures.ts';
import { lyingCharacter } from './lying-character.ts';

/** What the check's viewer measures of a model, as far as the pose needs: one mesh of this box. */
const statsOf = (size: [number, number, number]): ModelStats => ({
  triangles: 12,
  vertices: 8,
  meshes: 1,
  materials: 1,
  textures: 0,
  animations: 0,
  pbr: false,
  size,
  min: [-size[0] / 2, 0, -size[2] / 2],
  max: [size[0] / 2, size[1], size[2] / 2],
  warnings: [],
});

const warningsOf = (name: string) => {
  const skeleton = fbxBones(readFileSync(realFixture('fbx', name)));
  return skeletonWarnings(skeleton.bones, skeleton.skinned);
};

describe('the FBX check', () => {
  it('warns that Suzanne has no bones (no green "stands up like the reference pose")', () => {
    expect(warningsOf('blender_282_suzanne_7400_binary.fbx')).toEqual([
      // What happens, said before sending: it is rigged, or refused with why (no stand-in figure in its place).
      expect.stringMatching(
        /^It has no bones \(no skeleton\), so it is rigged before it is animated: the local engine rigs one humanoid standing upright/,
      ),
    ]);
  });

  it.each(['max_transformed_skin_6100_binary.fbx', 'max_transformed_skin_7500_ascii.fbx'])(
    'warns that the 5-bone chain of %s is not a humanoid',
    (name) => {
      expect(warningsOf(name)).toEqual([
        expect.stringMatching(/^Its skeleton \(5 bones\) is not a humanoid: no bone for Pelvis, R_Hip/),
      ]);
    },
  );

  it.each(['Male_Casual.fbx', 'maya_kenney_character_7700_binary.fbx'])('finds a humanoid in %s', (name) => {
    expect(warningsOf(name)).toEqual([]);
  });

  it('warns for a zip of static props, not for a zip holding a rigged character', async () => {
    const props = await checkZip(new Blob([readFileSync(realFixture('zip', 'Platformer Kit (1.0).zip'))]));
    expect(props.warnings).toEqual([
      expect.stringMatching(/^The zip holds 59 FBX files and none has bones: static props cannot be animated/),
    ]);
    const character = buildZip([
      { name: 'props/crate.fbx', data: readFileSync(realFixture('fbx', 'blender_282_suzanne_7400_binary.fbx')) },
      { name: 'hero/Male_Casual.fbx', data: readFileSync(realFixture('fbx', 'Male_Casual.fbx')) },
    ]);
    expect(await checkZip(new Blob([new Uint8Array(character)]))).toEqual({ bones: 42, warnings: [] });
  });

  it('does not tell a generated chair-like mesh (no skeleton, wider and deeper than tall) that it lies down', () => {
    const generated = fbxBones(buildFbxBinary('chair', { scale: [0.5, 0.3, 1.8] })); // the engine's generated mesh
    expect(generated.bones).toEqual([]);
    const stats = statsOf([0.5, 0.3, 1.8]);
    expect(poseWarnings(stats, generated.bones)).toEqual([]);
    // Its one warning says why it cannot be animated: no bones, not how it lies.
    expect([...skeletonWarnings(generated.bones, generated.skinned), ...poseWarnings(stats, generated.bones)]).toEqual([
      expect.stringMatching(/^It has no bones \(no skeleton\)/),
    ]);
    // Nor a rig that is not a humanoid (the 5-bone chain): its proportions say nothing of a pose.
    const chain = fbxBones(readFileSync(realFixture('fbx', 'max_transformed_skin_6100_binary.fbx')));
    expect(poseWarnings(stats, chain.bones)).toEqual([]);
  });

  it('tells a real character lying down that it lies down, and not the same character standing', async () => {
    const character = await lyingCharacter();
    const skeleton = fbxBones(character.fbx); // the bones as the check reads them from the file's bytes
    expect(skeletonWarnings(skeleton.bones, skeleton.skinned)).toEqual([]); // a rigged humanoid
    expect(poseWarnings(statsOf(character.lying), skeleton.bones)).toEqual([
      expect.stringMatching(/^This character is much (wider|deeper) than tall \(.*\): it probably lies down/),
    ]);
    expect(poseWarnings(statsOf(character.standing), skeleton.bones)).toEqual([]);
  });
});
