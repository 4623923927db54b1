import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildManifest, readManifest } from '../../main/export/manifest.ts';
import { rewriteReferences } from '../../main/export/references.ts';
import { SOURCE, tempDir } from './helpers.ts';

describe('manifest', () => {
  const fields = {
    name: 'OakChair',
    engine: 'unity' as const,
    source: SOURCE,
    files: [
      {
        path: 'OakChair.glb',
        kind: 'glb' as const,
        size: 3,
        sha256: 'a'.repeat(64),
        from: 'model.glb',
        transformed: false,
      },
    ],
  };

  it('round-trips through the file and is validated on read', async () => {
    const path = join(tempDir(), 'OakChair.assetstudio.json');
    const manifest = buildManifest(fields, new Date('2026-01-02T03:04:05.678Z'));
    writeFileSync(path, JSON.stringify(manifest));
    expect(await readManifest(path)).toEqual(manifest);
    expect(manifest.exportedAt).toBe('2026-01-02T03:04:05.678Z');
  });

  it('names the field that is wrong, and says a non-JSON file is not JSON', async () => {
    const path = join(tempDir(), 'x.assetstudio.json');
    const manifest = buildManifest(fields);
    writeFileSync(path, JSON.stringify({ ...manifest, files: [{ ...manifest.files[0], sha256: 'nope' }] }));
    await expect(readManifest(path)).rejects.toMatchObject({
      code: 'bad-manifest',
      why: expect.stringContaining('files[0].sha256'),
    });
    writeFileSync(path, '{ not json');
    await expect(readManifest(path)).rejects.toMatchObject({
      code: 'bad-manifest',
      why: expect.stringMatching(/^is not JSON/),
    });
    await expect(readManifest(join(tempDir(), 'missing.json'))).rejects.toMatchObject({ code: 'io' });
  });

  it('refuses a source that is not plain JSON', () => {
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    expect(() => buildManifest({ ...fields, source: { ...SOURCE, result: circular } })).toThrow(
      /cannot be written as JSON/,
    );
  });
});

describe('rewriteReferences', () => {
  const renames = new Map([
    ['model.mtl', 'OakChair.mtl'],
    ['model.png', 'OakChair_Model.png'],
  ]);

  it('renames mtllib files in an OBJ, keeping spacing and CRLF line ends', () => {
    const obj = '# test\r\nmtllib model.mtl other.mtl\r\nv 0 0 0\r\nusemtl model.mtl\r\n';
    expect(rewriteReferences('obj', obj, renames)).toBe(
      '# test\r\nmtllib OakChair.mtl other.mtl\r\nv 0 0 0\r\nusemtl model.mtl\r\n',
    );
  });

  it('renames the file of texture statements in an MTL, after their options and through folders', () => {
    const mtl = [
      'newmtl m',
      'map_Kd model.png',
      '  map_Bump -bm 0.5 textures\\Model.PNG',
      'bump model.png',
      'Kd 1 1 1',
      'map_Ks unknown.png',
    ].join('\n');
    expect(rewriteReferences('mtl', mtl, renames).split('\n')).toEqual([
      'newmtl m',
      'map_Kd OakChair_Model.png',
      '  map_Bump -bm 0.5 OakChair_Model.png',
      'bump OakChair_Model.png',
      'Kd 1 1 1',
      'map_Ks unknown.png',
    ]);
  });
});
