import { describe, expect, it } from 'vitest';
import { buildFbxBinary } from '../../../main/engine/outputs/fbx.ts';
import { withLoadedFbx } from './babylon-fbx.ts';

/** Checks the header and footer, then walks the top-level node records (32-bit offsets) to the null record. */
function readFbxBinaryHeader(buf: Buffer): { version: number; nodes: string[] } {
  expect(buf.toString('latin1', 0, 23)).toBe('Kaydara FBX Binary  \x00\x1a\x00');
  const version = buf.readUInt32LE(23);
  const nodes: string[] = [];
  let at = 27;
  for (;;) {
    const end = buf.readUInt32LE(at);
    if (end === 0) {
      expect(buf.subarray(at, at + 13)).toEqual(Buffer.alloc(13));
      break;
    }
    expect(end).toBeGreaterThan(at);
    expect(end).toBeLessThanOrEqual(buf.length);
    nodes.push(buf.toString('latin1', at + 13, at + 13 + buf.readUInt8(at + 12)));
    at = end;
  }
  // footer: id, 4 zero bytes, padding to 16, version, 120 zero bytes, magic
  expect(buf.readUInt32LE(buf.length - 16 - 120 - 4)).toBe(version);
  expect((buf.length - 16 - 120 - 4) % 16).toBe(0);
  expect(buf.subarray(buf.length - 16).toString('hex')).toBe('f85a8c6adef5d97eece90ce3758f290b');
  return { version, nodes };
}

describe('buildFbxBinary', () => {
  it('writes an FBX 7.4 binary with the expected top-level records', () => {
    const { version, nodes } = readFbxBinaryHeader(buildFbxBinary('fbx-1'));
    expect(version).toBe(7400);
    expect(nodes).toEqual([
      'FBXHeaderExtension',
      'FileId',
      'CreationTime',
      'Creator',
      'GlobalSettings',
      'Objects',
      'Connections',
    ]);
  });

  it.each([{ quads: true }, { quads: false }])('loads in the Babylon.js FBX loader: %o', async ({ quads }) => {
    const fbx = buildFbxBinary('fbx-2', { kind: 'character', quads, targetFaces: 600 });
    await withLoadedFbx(fbx, (container, warnings) => {
      expect(warnings).toEqual([]);
      const meshes = container.meshes.filter((m) => m.getTotalVertices() > 0);
      expect(meshes).toHaveLength(1);
      const n = quads ? 10 : 7; // grid side: sqrt(600 / 6) for quads, round(sqrt(600 / 12)) for triangles
      expect(meshes[0]!.getTotalVertices()).toBe(6 * (n + 1) ** 2);
      expect(meshes[0]!.getTotalIndices()).toBe(6 * n * n * 6);
    });
  });

  it('is deterministic per seed', () => {
    expect(buildFbxBinary('a').equals(buildFbxBinary('a'))).toBe(true);
    expect(buildFbxBinary('a').equals(buildFbxBinary('b'))).toBe(false);
  });
});
