// The engine's FBX carries the same material as its GLB (#16 item 3): a seeded mesh's FBX made with a texture
// embeds it and connects it to the material's diffuse colour, as Blender's importer follows it.
import { describe, expect, it } from 'vitest';
import { makeArtifact } from '../../main/engine/artifacts.ts';
import { buildFbxBinary } from '../../main/engine/outputs/index.ts';
import { child, expectTexturedFbx, readFbxNodes } from './fbx-nodes.ts';

describe('the engine FBX of a seeded mesh', () => {
  it('with a texture: Material <- Texture <- Video with the PNG, like the GLB of the same recipe', () => {
    expectTexturedFbx(buildFbxBinary('chair', {}, true));
    expectTexturedFbx(makeArtifact({ type: 'fbx', mesh: { seed: 'chair' }, texture: true }));
  });

  it('without one: a material of the mesh colour and no texture (an older recipe too)', () => {
    const objects = readFbxNodes(makeArtifact({ type: 'fbx', mesh: { seed: 'chair' } })).find(
      (n) => n.name === 'Objects',
    );
    expect(child(objects, 'Material')).toBeDefined();
    expect(child(objects, 'Texture')).toBeUndefined();
  });
});
