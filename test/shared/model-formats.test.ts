import { describe, expect, it } from 'vitest';
import { modelFormatOfKind } from '../../shared/model-formats.ts';

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
});
