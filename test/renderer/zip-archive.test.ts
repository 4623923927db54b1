// The page's one ZIP reader (renderer/viewer/zip-archive.ts), for a USDZ package and for a zip of FBX files
// (renderer/viewer/zip-fbx.ts): stored and deflated entries, and messages that name the archive as its caller
// calls it.
import { describe, expect, it } from 'vitest';
import { buildZip } from '../../main/engine/outputs/index.ts';
import { rootLayer } from '../../renderer/viewer/usd/usdz-archive.ts';
import { fbxFilesOfZip } from '../../renderer/viewer/zip-fbx.ts';
import { isZip, listEntries, readEntry } from '../../renderer/viewer/zip-archive.ts';

const bytes = (b: Buffer) => new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
const FBX = Buffer.from('Kaydara FBX Binary  \0'.repeat(40));

describe('zip archive', () => {
  it('lists stored and deflated entries in the directory order and reads each one back', async () => {
    for (const method of ['store', 'deflate'] as const) {
      const zip = bytes(
        buildZip(
          [
            { name: 'a.txt', data: Buffer.from('hello '.repeat(50)) },
            { name: 'b/c.fbx', data: FBX },
          ],
          { method },
        ),
      );
      expect(isZip(zip)).toBe(true);
      const entries = listEntries(zip);
      expect(entries.map((e) => [e.name, e.method])).toEqual([
        ['a.txt', method === 'store' ? 0 : 8],
        ['b/c.fbx', method === 'store' ? 0 : 8],
      ]);
      expect(Buffer.from(await readEntry(zip, entries[1]!)).equals(FBX)).toBe(true);
    }
  });

  it('names a cut archive as its caller calls it: a zip, or a USDZ package', async () => {
    const zip = bytes(buildZip([{ name: 'scene.usda', data: Buffer.from('#usda 1.0\n') }]));
    const cut = zip.subarray(0, zip.length - 30);
    expect(() => listEntries(cut)).toThrow(
      'This file is not a zip: no ZIP directory was found (the file may be cut short).',
    );
    await expect(rootLayer(cut)).rejects.toThrow('This file is not a USDZ package: no ZIP directory was found');
    await expect(fbxFilesOfZip(new Blob([Uint8Array.from(cut)]))).rejects.toThrow('This file is not a zip');
  });

  it("gives a zip's FBX files, deflated or stored, without macOS resource forks or other files", async () => {
    const zip = buildZip([
      { name: 'readme.txt', data: Buffer.from('not a model') },
      { name: 'Character.FBX', data: FBX },
      { name: '__MACOSX/._Character.FBX', data: Buffer.from('resource fork') },
      { name: 'props/crate.fbx', data: FBX.subarray(0, 100) },
    ]);
    const found = await fbxFilesOfZip(new Blob([new Uint8Array(zip)]));
    expect(found.map((f) => [f.name, f.bytes.length])).toEqual([
      ['Character.FBX', FBX.length],
      ['props/crate.fbx', 100],
    ]);
  });
});
