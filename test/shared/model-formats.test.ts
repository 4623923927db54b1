import { describe, expect, it } from 'vitest';
import { ANIMATION_KIND, modelFormatOfKind } from '../../shared/model-formats.ts';

describe('modelFormatOfKind', () => {
  it.each([
    ['glb', 'glb'],
    ['preview_glb', 'glb'],
    ['polished_usdz', 'usdz'],
    ['retopo_obj_1', 'obj'],
    ['retopo_obj_12', 'obj'],
    ['fbx', 'fbx'],
    ['prompt:abc123:usdz', 'usdz'],
    ['library:Walk:glb', 'glb'],
  ])('reads %s as %s', (kind, format) => {
    expect(modelFormatOfKind(kind)).toBe(format);
  });

  it.each(['zip', 'image', 'retopo_image_1', 'mp4', 'thumbnail', 'glbx', 'notglb'])('finds no model in %s', (kind) => {
    expect(modelFormatOfKind(kind)).toBeUndefined();
  });

  it('tells the animated GLBs of a mesh-animation session apart from its other files', () => {
    for (const kind of ['animation', 'library:5f3c', 'prompt:abc123']) expect(ANIMATION_KIND.test(kind), kind).toBe(true);
    for (const kind of ['prompt:abc123:usdz', 'render', 'rig', 'animations', 'library:']) expect(ANIMATION_KIND.test(kind), kind).toBe(false);
  });
});
