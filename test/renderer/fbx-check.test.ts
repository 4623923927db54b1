// The FBX check of the animation upload form (renderer/viewer/fbx-check.ts): the skeleton read from the
// picked file's bytes and matched to the 17 joints by the engine's own name table. A static mesh (Suzanne),
// a bone chain that is not a humanoid and a zip of static props are warned about; rigged humanoids are not.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkZip, skeletonWarnings } from '../../renderer/viewer/fbx-check.ts';
import { buildZip } from '../../main/engine/outputs/index.ts';
import { fbxBones } from '../../shared/fbx-bones.ts';
import { realFixture } from '../fixtures.ts';

const warningsOf = (name: string) => {
  const skeleton = fbxBones(readFileSync(realFixture('fbx', name)));
  return skeletonWarnings(skeleton.bones, skeleton.skinned);
};

describe('the FBX check', () => {
  it('warns that Suzanne has no bones (no green "stands up like the reference pose")', () => {
    expect(warningsOf('blender_282_suzanne_7400_binary.fbx')).toEqual([
      // What happens, said before sending: the local engine refuses it (no stand-in figure in its place).
      expect.stringMatching(
        /^It has no bones \(no skeleton\), so it cannot be animated as it is: the local engine refuses it \(it does not rig meshes/,
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
});
