// The viewer's warm-up GLB (renderer/viewer/warm-up.ts): loaded into a throwaway container when the viewer
// is made, so it must be a valid glTF the loader takes without complaint: one triangle, no material.
import { describe, expect, it } from 'vitest';
import { triangleGlb } from '../../renderer/viewer/warm-up.ts';
import { validator } from '../gltf-validator.ts';

describe('the warm-up GLB', () => {
  it('passes the Khronos validator: one triangle, one draw call, no material', async () => {
    const glb = triangleGlb();
    expect(glb.byteLength % 4).toBe(0);
    const report = await validator.validateBytes(glb, { maxIssues: 20, writeTimestamp: false });
    expect(report.issues.messages).toEqual([]);
    expect(report.info).toMatchObject({ drawCallCount: 1, totalVertexCount: 3, materialCount: 0 });
  });
});
