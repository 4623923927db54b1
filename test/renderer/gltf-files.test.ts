// The check of a .gltf's own files before it is loaded (renderer/viewer/gltf-files.ts).
import { describe, expect, it } from 'vitest';
import { missingFiles, referencedFiles } from '../../renderer/viewer/gltf-files.ts';

const gltf = {
  buffers: [
    { uri: 'box.bin', byteLength: 8 },
    { uri: 'data:application/octet-stream;base64,AAAA', byteLength: 3 },
  ],
  images: [{ uri: './textures/Box%20Texture.png' }, { bufferView: 0, mimeType: 'image/png' }, { uri: 'box.bin' }],
};

describe('a .gltf and the files it names', () => {
  it('lists the buffers and images it refers to by file, decoded, once each (not data: URIs or buffer views)', () => {
    expect(referencedFiles(gltf)).toEqual(['box.bin', 'textures/Box Texture.png']);
    expect(referencedFiles(null)).toEqual([]);
    expect(referencedFiles({ buffers: 'nonsense', images: [null, { uri: 3 }] })).toEqual([]);
  });

  it('finds what was not picked with it, by file name in any case', () => {
    expect(missingFiles(gltf, ['box.gltf', 'BOX.BIN', 'box texture.png'])).toEqual([]);
    expect(missingFiles(gltf, ['box.gltf', 'box texture.png'])).toEqual(['box.bin']);
    expect(missingFiles(gltf, ['box.gltf'])).toEqual(['box.bin', 'textures/Box Texture.png']);
  });
});
