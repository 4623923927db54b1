// Inspection of local files: the real FBX, zip and image fixtures, and crafted bad files in temp folders.
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildFbxBinary, buildZip, encodePng } from '../../main/engine/outputs/index.ts';
import { toDataUri } from '../../main/files/inspect-image.ts';
import { inspectFile, InspectionError, type InspectedFile, type InspectionCode } from '../../main/files/inspect.ts';
import { DEFAULT_LIMITS, fileLimits, type FileLimitsInput } from '../../main/files/limits.ts';
import { realFixture } from '../fixtures.ts';

const dir = mkdtempSync(join(tmpdir(), 'asset-studio-inspect-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function write(name: string, data: Buffer | string): string {
  const path = join(dir, name);
  writeFileSync(path, data);
  return path;
}

async function rejection(path: string, limits: FileLimitsInput = {}): Promise<InspectionError> {
  const error = await inspectFile(path, fileLimits(limits)).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(InspectionError);
  return error as InspectionError;
}

async function expectRejected(path: string, code: InspectionCode, ...mentions: string[]): Promise<InspectionError> {
  const error = await rejection(path);
  expect(error.code, error.message).toBe(code);
  expect(error.message).toBe(`${error.file} ${error.reason}. ${error.action}`);
  for (const m of mentions) expect(error.message).toContain(m);
  return error;
}

function expectKind<K extends InspectedFile['kind']>(
  file: InspectedFile,
  kind: K,
): Extract<InspectedFile, { kind: K }> {
  expect(file.kind).toBe(kind);
  return file as Extract<InspectedFile, { kind: K }>;
}

const fbx = buildFbxBinary('inspect-test');
const png = encodePng(4, 3, new Uint8Array(4 * 3 * 4).fill(200));

describe('FBX', () => {
  it.each([
    ['Male_Casual.fbx', 'binary', '7.4'],
    ['blender_282_suzanne_7400_binary.fbx', 'binary', '7.4'],
    ['max_transformed_skin_6100_binary.fbx', 'binary', '6.1'],
    ['maya_kenney_character_7700_binary.fbx', 'binary', '7.7'],
    ['max_transformed_skin_7500_ascii.fbx', 'ascii', '7.5'],
  ])('recognises the real %s as %s FBX %s', async (name, format, version) => {
    const path = realFixture('fbx', name);
    const file = expectKind(await inspectFile(path, DEFAULT_LIMITS, { hash: true }), 'fbx');
    expect(file).toMatchObject({ path, format, version, size: readFileSync(path).length });
    expect(file.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('reads an ASCII FBX with a byte order mark and blank lines, taking the version from its header line', async () => {
    const path = write('bom.fbx', '\uFEFF\n  \n; FBX 7.3.0 project file\n; Created by hand\n\nObjects:  {\n}\n');
    expect(await inspectFile(path)).toMatchObject({ kind: 'fbx', format: 'ascii', version: '7.3' });
  });

  it('recognises FBX content by its bytes whatever the name', async () => {
    expect(await inspectFile(write('model.bin', fbx))).toMatchObject({ kind: 'fbx', format: 'binary', version: '7.4' });
  });

  it('rejects a PNG renamed .fbx, saying which file, why and what to do', async () => {
    const path = join(dir, 'renamed-png.fbx');
    copyFileSync(realFixture('images', 'chair.png'), path);
    const error = await expectRejected(path, 'wrong-format');
    expect(error.message).toBe(
      `${path} is not an FBX file (it starts like a PNG image). Export it again from your 3D tool as FBX binary or ASCII.`,
    );
    expect(error).toMatchObject({
      file: path,
      reason: 'is not an FBX file (it starts like a PNG image)',
      action: 'Export it again from your 3D tool as FBX binary or ASCII.',
    });
  });

  it('rejects an OBJ renamed .fbx', async () => {
    const path = join(dir, 'renamed-obj.fbx');
    copyFileSync(realFixture('obj', 'suzanne', 'blender_282_suzanne.obj'), path);
    await expectRejected(path, 'wrong-format', 'is not an FBX file (it starts like an OBJ model)');
  });

  it('rejects an empty file', async () => {
    await expectRejected(write('empty.fbx', ''), 'empty', 'is empty (0 bytes)');
  });

  it.each([
    ['a truncated binary header', 20, 'binary FBX header is incomplete'],
    ['a binary FBX cut off after its header', 10_000, 'does not end like a binary FBX file'],
  ])('rejects %s', async (_what, length, mention) => {
    const head = readFileSync(realFixture('fbx', 'Male_Casual.fbx')).subarray(0, length);
    await expectRejected(write(`cut-${length}.fbx`, head), 'truncated', mention);
  });

  it('rejects an FBX over the size limit', async () => {
    const error = await rejection(realFixture('fbx', 'Male_Casual.fbx'), { maxFbxBytes: 1_000_000 });
    expect(error.code).toBe('too-large');
    expect(error.message).toContain('more than the 976.6 KiB allowed');
  });
});

describe('zip', () => {
  it('accepts the real Platformer Kit with its 59 FBX entries', async () => {
    const file = expectKind(await inspectFile(realFixture('zip', 'Platformer Kit (1.0).zip')), 'zip');
    expect(file.entries).toBe(665);
    expect(file.fbx).toHaveLength(59);
    for (const entry of file.fbx) {
      expect(entry).toMatchObject({
        name: expect.stringMatching(/^Models\/FBX format\/[\w-]+\.fbx$/),
        format: 'ascii',
        version: '7.3',
      });
      expect(entry.size).toBeGreaterThan(0);
    }
    expect(file.uncompressedBytes).toBeGreaterThan(file.size);
  });

  it('lists FBX entries with their format and version, leaving out macOS companions', async () => {
    const ascii = readFileSync(realFixture('fbx', 'max_transformed_skin_7500_ascii.fbx'));
    const path = write(
      'kit.zip',
      buildZip([
        { name: 'models/', data: Buffer.alloc(0) },
        { name: 'models/hero.fbx', data: fbx },
        { name: 'models/skin.FBX', data: ascii },
        { name: '__MACOSX/models/._hero.fbx', data: Buffer.from('AppleDouble') },
        { name: 'textures/hero.png', data: png },
      ]),
    );
    const file = expectKind(await inspectFile(path), 'zip');
    expect(file.entries).toBe(5);
    expect(file.fbx).toEqual([
      { name: 'models/hero.fbx', size: fbx.length, format: 'binary', version: '7.4' },
      { name: 'models/skin.FBX', size: ascii.length, format: 'ascii', version: '7.5' },
    ]);
  });

  it.each([
    ['../evil.fbx', 'path traversal'],
    ['models/../../evil.fbx', 'path traversal'],
    ['/etc/evil.fbx', 'has an absolute path'],
    ['C:/evil.fbx', 'drive letter'],
    ['models\\evil.fbx', 'backslash'],
  ])('rejects an entry named %s', async (name, why) => {
    const path = write(
      'slip.zip',
      buildZip([
        { name: 'ok.fbx', data: fbx },
        { name, data: fbx },
      ]),
    );
    const error = await expectRejected(path, 'zip-unsafe-path', why);
    expect(error.reason).toContain(`"${name}"`);
  });

  it('rejects a symbolic link entry', async () => {
    const zip = buildZip([
      { name: 'hero.fbx', data: fbx },
      { name: 'link.fbx', data: Buffer.from('/etc/passwd') },
    ]);
    patchCentral(zip, 1, (h) => {
      h.writeUInt16LE((3 << 8) | 20, 4); // made by: unix
      h.writeUInt32LE((0o120777 << 16) >>> 0, 38); // external attributes: a symlink
    });
    await expectRejected(write('symlink.zip', zip), 'zip-symlink', '"link.fbx" that is a symbolic link');
  });

  it('rejects an encrypted entry', async () => {
    const zip = buildZip([{ name: 'hero.fbx', data: fbx }]);
    patchCentral(zip, 0, (h) => h.writeUInt16LE(h.readUInt16LE(8) | 1, 8));
    zip.writeUInt16LE(zip.readUInt16LE(6) | 1, 6); // the local header too
    await expectRejected(write('encrypted.zip', zip), 'zip-encrypted', 'password');
  });

  it('rejects more entries than the limit', async () => {
    const path = write('many.zip', buildZip(Array.from({ length: 6 }, (_, i) => ({ name: `m${i}.fbx`, data: fbx }))));
    const error = await rejection(path, { maxZipEntries: 5 });
    expect(error.code).toBe('zip-too-many-entries');
    expect(error.reason).toBe('has 6 entries, more than the 5 allowed');
    expect((await inspectFile(path, fileLimits({ maxZipEntries: 6 }))).kind).toBe('zip');
  });

  it('rejects a zip bomb: a 50 MB entry of zeros', async () => {
    const path = write(
      'bomb.zip',
      buildZip([
        { name: 'hero.fbx', data: fbx },
        { name: 'zeros.fbx', data: Buffer.alloc(50_000_000) },
      ]),
    );
    const error = await rejection(path, { maxZipEntryRatio: 200 });
    expect(error.code).toBe('zip-bomb');
    expect(error.reason).toMatch(
      /"zeros\.fbx" that would expand \d+× \(47\.7 MiB from [\d.]+ KiB\), more than the 200× allowed/,
    );
  });

  it('rejects a zip whose entries add up to more than the total limit', async () => {
    const path = write(
      'total.zip',
      buildZip([
        { name: 'a.fbx', data: fbx },
        { name: 'b.fbx', data: fbx },
      ]),
    );
    const error = await rejection(path, { maxZipUncompressedBytes: fbx.length + 10 });
    expect(error.code).toBe('zip-bomb');
    expect(error.reason).toContain('in total');
  });

  it('rejects a zip without FBX files', async () => {
    await expectRejected(
      write(
        'none.zip',
        buildZip([
          { name: 'readme.txt', data: Buffer.from('hi') },
          { name: 'a.png', data: png },
        ]),
      ),
      'zip-no-fbx',
      'holds no FBX file',
    );
  });

  it('rejects an FBX entry that is not an FBX', async () => {
    await expectRejected(
      write('fake.zip', buildZip([{ name: 'chars/hero.fbx', data: png }])),
      'wrong-format',
      '"chars/hero.fbx" that is not an FBX file (it starts like a PNG image)',
    );
  });

  it('rejects a cut-off zip', async () => {
    const zip = buildZip([{ name: 'hero.fbx', data: fbx }]);
    await expectRejected(write('cut.zip', zip.subarray(0, zip.length - 30)), 'truncated', 'not a complete zip archive');
  });
});

describe('images', () => {
  it.each([
    ['chair.png', 'image/png', 512, 512],
    ['robot.png', 'image/png', 512, 512],
    ['fox.jpg', 'image/jpeg', 625, 625],
  ])('reads the real %s as %s of %d × %d', async (name, mime, width, height) => {
    expect(await inspectFile(realFixture('images', name))).toMatchObject({ kind: 'image', mime, width, height });
  });

  it('reads the size of a WebP (lossless header)', async () => {
    const header = Buffer.alloc(30);
    header.write('RIFF', 0, 'latin1');
    header.writeUInt32LE(22, 4);
    header.write('WEBPVP8L', 8, 'latin1');
    header.writeUInt32LE(10, 16);
    header[20] = 0x2f;
    header.writeUInt32LE((300 - 1) | ((200 - 1) << 14), 21);
    expect(await inspectFile(write('small.webp', header))).toMatchObject({
      kind: 'image',
      mime: 'image/webp',
      width: 300,
      height: 200,
    });
  });

  it('rejects a truncated PNG', async () => {
    await expectRejected(
      write('cut.png', readFileSync(realFixture('images', 'chair.png')).subarray(0, 5000)),
      'truncated',
      'PNG end marker',
    );
  });

  it('rejects a GIF', async () => {
    const gif = Buffer.concat([Buffer.from('GIF89a', 'latin1'), Buffer.from([1, 0, 1, 0, 0, 0, 0]), Buffer.from(';')]);
    await expectRejected(
      write('anim.gif', gif),
      'wrong-format',
      'is not a file Asset Studio can send (it starts like a GIF image)',
    );
    await expectRejected(
      write('anim.png', gif),
      'wrong-format',
      'is not a PNG, JPEG or WebP image (it starts like a GIF image)',
      'Save or convert it as PNG or JPEG',
    );
  });

  it('rejects images over the pixel or size limits', async () => {
    const path = realFixture('images', 'chair.png');
    const pixels = await rejection(path, { maxImagePixels: 512 * 511 });
    expect(pixels.code).toBe('image-too-large');
    expect(pixels.reason).toBe('is 512 × 512 pixels (0.3 megapixels), more than the 0.3 megapixels allowed');
    expect((await rejection(path, { maxImageBytes: 100_000 })).code).toBe('too-large');
  });

  it('accepts a JPEG named .png (any image format under any image name)', async () => {
    const path = join(dir, 'photo.png');
    copyFileSync(realFixture('images', 'fox.jpg'), path);
    expect(await inspectFile(path)).toMatchObject({ kind: 'image', mime: 'image/jpeg' });
  });

  it('turns an image into a data URI with its real type', async () => {
    const path = join(dir, 'photo2.png');
    copyFileSync(realFixture('images', 'fox.jpg'), path);
    const uri = await toDataUri(path);
    expect(uri.startsWith('data:image/jpeg;base64,')).toBe(true);
    expect(Buffer.from(uri.slice(uri.indexOf(',') + 1), 'base64').equals(readFileSync(path))).toBe(true);
    await expect(toDataUri(realFixture('fbx', 'Male_Casual.fbx'))).rejects.toThrow(
      'is not a PNG, JPEG or WebP image (it starts like an FBX file)',
    );
  });
});

describe('any file', () => {
  it('turns an unreadable path or a folder into an InspectionError', async () => {
    await expectRejected(join(dir, 'missing.fbx'), 'unreadable', 'does not exist');
    await expectRejected(dir, 'not-a-file', 'is a folder');
  });

  it('throws nothing but InspectionError for damaged files of every kind', async () => {
    const sources = [
      fbx,
      png,
      readFileSync(realFixture('images', 'fox.jpg')),
      buildZip([{ name: 'a.fbx', data: fbx }]),
    ];
    let seed = 1;
    const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    for (let i = 0; i < 200; i++) {
      const source = sources[i % sources.length]!;
      const damaged = Buffer.from(source.subarray(0, Math.floor(random() * source.length)));
      for (let k = 0; k < 5; k++) damaged[Math.floor(random() * damaged.length)] = Math.floor(random() * 256);
      const path = write(`fuzz${i}${['.fbx', '.png', '.jpg', '.zip', ''][i % 5]}`, damaged);
      await inspectFile(path).catch((e: unknown) => expect(e, String(e)).toBeInstanceOf(InspectionError));
    }
  });

  it('checks its limits', () => {
    expect(DEFAULT_LIMITS).toMatchObject({
      maxFbxBytes: 2 ** 31,
      maxZipEntries: 10_000,
      maxZipEntryRatio: 200,
      maxImagePixels: 64 * 2 ** 20,
    });
    expect(() => fileLimits({ maxZipEntries: 0, maxImageBytes: 1.5 })).toThrow(
      /maxZipEntries: maxZipEntries must be above 0; maxImageBytes: maxImageBytes must be a whole number/,
    );
    expect(() => fileLimits({ maxFbxSize: 1 } as FileLimitsInput)).toThrow('unknown field(s): maxFbxSize');
  });
});

/** Edits the central directory header of entry `index` of a zip made by buildZip. */
function patchCentral(zip: Buffer, index: number, edit: (header: Buffer) => void): void {
  let at = zip.readUInt32LE(zip.length - 22 + 16);
  for (let i = 0; i < index; i++)
    at += 46 + zip.readUInt16LE(at + 28) + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
  edit(zip.subarray(at, at + 46));
}
