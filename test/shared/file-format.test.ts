// The format of a downloaded file, from its URL's path (the query string of a signed URL ignored) and its bytes:
// the service's mesh-animation files are FBX behind Azure SAS URLs, never assumed GLB.
import { describe, expect, it } from 'vitest';
import { animatedFormatOf, formatOf, formatOfBytes, formatOfUrl } from '../../shared/file-format.ts';

const SAS = '?sp=r&st=2025-01-01T00:00:00Z&se=2025-01-02T00:00:00Z&spr=https&sv=2022-11-02&sr=b&sig=abc%2Fdef%3D';
const bytes = (text: string, ...extra: number[]) => Uint8Array.from([...Buffer.from(text, 'latin1'), ...extra]);

describe('formatOfUrl', () => {
  it.each([
    [`https://x.blob.core.windows.net/out/SESSION_1/Male_Casual_animation.fbx${SAS}`, 'fbx'],
    [`https://x.blob.core.windows.net/out/SESSION_1/Moon%20walk.fbx${SAS}`, 'fbx'],
    [`https://x.blob.core.windows.net/out/SESSION_1/Moon walk.FBX${SAS}`, 'fbx'],
    [`https://x.blob.core.windows.net/out/SESSION_1/mesh.zip${SAS}`, 'zip'],
    ['https://x/y/model.glb#frag', 'glb'],
    ['http://127.0.0.1:8080/files/SESSION_1/~123.sig/mesh.obj', 'obj'],
    ['https://x/y/render.png?v=.fbx', 'png'],
    ['C:\\models\\hero.fbx', 'fbx'],
    ['/home/me/models/hero #2.fbx', 'fbx'], // a path's name may hold `#` or `?`: only a URL has a fragment
  ])('%s is %s', (url, format) => {
    expect(formatOfUrl(url)).toBe(format);
  });

  it.each(['https://x/y/download?file=a.fbx', 'https://x/y/.fbx', 'https://x/y/model.blend', ''])(
    '%j names no format it knows',
    (url) => {
      expect(formatOfUrl(url)).toBeUndefined();
    },
  );
});

describe('formatOfBytes', () => {
  it('knows binary and ASCII FBX, GLB, zip, pictures and MP4 by their first bytes', () => {
    expect(formatOfBytes(bytes('Kaydara FBX Binary  \0', 0x1a, 0, 0xe8, 0x1c))).toBe('fbx');
    expect(formatOfBytes(Uint8Array.from([0xef, 0xbb, 0xbf, ...bytes('; FBX 7.4.0 project file')]))).toBe('fbx'); // a UTF-8 BOM first
    expect(formatOfBytes(bytes('  ; FBX 7.5.0 project file'))).toBe('fbx');
    expect(formatOfBytes(bytes('glTF', 2, 0, 0, 0))).toBe('glb');
    expect(formatOfBytes(Uint8Array.of(0x50, 0x4b, 3, 4, 20, 0))).toBe('zip');
    expect(formatOfBytes(Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 13, 10, 26, 10))).toBe('png');
    expect(formatOfBytes(Uint8Array.of(0xff, 0xd8, 0xff, 0xe0))).toBe('jpeg');
    expect(formatOfBytes(bytes('RIFF\0\0\0\0WEBPVP8 '))).toBe('webp');
    expect(formatOfBytes(bytes('\0\0\0\x20ftypisom'))).toBe('mp4');
    expect(formatOfBytes(bytes('Kaydara FBX Binar'))).toBeUndefined(); // cut short
    expect(formatOfBytes(bytes('{"asset":{"version":"2.0"}}'))).toBeUndefined(); // glTF JSON: by its URL
  });
});

describe('formatOf', () => {
  it('believes the bytes over the URL, tells a USDZ from a zip by its URL, and falls back on the URL', () => {
    const fbx = bytes('Kaydara FBX Binary  \0');
    expect(formatOf({ url: `https://x/walk.glb${SAS}`, head: fbx })).toBe('fbx');
    expect(formatOf({ url: `https://x/mesh.usdz${SAS}`, head: Uint8Array.of(0x50, 0x4b, 3, 4) })).toBe('usdz');
    expect(formatOf({ url: `https://x/a_Moon walk.fbx${SAS}` })).toBe('fbx');
    expect(formatOf({ url: 'https://x/clip' })).toBeUndefined();
    expect(animatedFormatOf({ url: 'https://x/clip', head: bytes('glTF') })).toBe('glb');
    expect(animatedFormatOf({ url: `https://x/mesh.zip${SAS}` })).toBeUndefined();
  });
});
