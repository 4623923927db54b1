// The viewer's warm-up GLB (renderer/viewer/warm-up.ts): loaded into a throwaway container when the viewer
// is made, so it must be a valid glTF the loader takes without complaint: one triangle, no material.
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { triangleGlb } from '../../renderer/viewer/warm-up.ts';

interface ValidationReport {
  info: { drawCallCount: number; totalVertexCount: number; materialCount: number };
  issues: { numErrors: number; numWarnings: number; messages: { code: string }[] };
}
const validator = createRequire(import.meta.url)('gltf-validator') as {
  validateBytes(
    data: Uint8Array,
    options?: { maxIssues?: number; writeTimestamp?: boolean },
  ): Promise<ValidationReport>;
};

describe('the warm-up GLB', () => {
  it('passes the Khronos validator: one triangle, one draw call, no material', async () => {
    const glb = triangleGlb();
    expect(glb.byteLength % 4).toBe(0);
    const report = await validator.validateBytes(glb, { maxIssues: 20, writeTimestamp: false });
    expect(report.issues.messages).toEqual([]);
    expect(report.info).toMatchObject({ drawCallCount: 1, totalVertexCount: 3, materialCount: 0 });
  });
});
