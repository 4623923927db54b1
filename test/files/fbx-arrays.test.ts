// Issue #26 item 6: a binary FBX's arrays are checked from their headers (element count × size, in all) before
// any reader inflates them; real FBX files pass. Issue #33 item 3: what the walk cannot follow is refused, not
// passed (it answered "fine" for a `Z` property before a bomb, nesting deeper than 64, the big-endian flag).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { bufferReader, fbxArrayProblem, MAX_FBX_ARRAY_BYTES } from '../../main/files/fbx-arrays.ts';
import { binaryFbx, fbxArray, fbxBomb, fbxProp, nestedFbxNodes } from '../engine/bombs.ts';
import { realFixture } from '../fixtures.ts';

const check = (bytes: Buffer, max?: number) => fbxArrayProblem(bufferReader(bytes), bytes.length, max);

describe('fbxArrayProblem', () => {
  it('refuses an array declaring 200 million doubles (1.5 GiB) in a 2 KiB file, naming the node and the limit', async () => {
    const bomb = fbxBomb();
    expect(bomb.length).toBeLessThan(4096);
    expect(MAX_FBX_ARRAY_BYTES).toBe(256 * 2 ** 20);
    expect(await check(bomb)).toBe(
      'declares an array of 200000000 elements (1.5 GiB) in its node "Vertices", more than the 256 MiB of arrays in all the local engine reads of an FBX',
    );
  });

  it('counts the arrays of every node in all', async () => {
    expect(await check(fbxBomb(1000), 4000)).toMatch(/^declares an array of 1000 elements \(7\.8 KiB\)/);
    expect(await check(fbxBomb(400), 4000)).toBeUndefined();
  });

  it('passes the real binary FBX files (6.1, 7.4, 7.7), whose arrays it follows', async () => {
    // FBX 6.1 stores its geometry as scalar properties (no arrays): nothing to refuse even under 1 KiB.
    const old = readFileSync(realFixture('fbx', 'max_transformed_skin_6100_binary.fbx'));
    expect(await check(old)).toBeUndefined();
    expect(await check(old, 1024)).toBeUndefined();
    for (const name of [
      'Male_Casual.fbx',
      'blender_282_suzanne_7400_binary.fbx',
      'maya_kenney_character_7700_binary.fbx',
    ]) {
      const bytes = readFileSync(realFixture('fbx', name));
      expect(await check(bytes), name).toBeUndefined();
      // and with a limit just under their arrays' total, each is refused: the walk reached every array
      expect(await check(bytes, 1024), name).toMatch(/more than the 1 KiB of arrays in all/);
    }
  });

  it('says nothing of an ASCII FBX or other bytes (their readers say what is wrong)', async () => {
    expect(await check(readFileSync(realFixture('fbx', 'max_transformed_skin_7500_ascii.fbx')))).toBeUndefined();
    expect(await check(Buffer.from('hello'))).toBeUndefined();
  });

  const bomb = (bigEndian = false) => fbxArray('d', 200_000_000, 1024, bigEndian);
  const LIMIT = /declares an array of 200000000 elements \(1\.5 GiB\) in its node "Vertices", more than the 256 MiB/;

  it('follows the properties Babylon reads that it skipped before: a `Z` byte, a `c` byte array', async () => {
    const z = binaryFbx([{ name: 'Vertices', props: [fbxProp('Z', Buffer.from([7])), bomb()] }]);
    expect(await check(z)).toMatch(LIMIT);
    const c = binaryFbx([{ name: 'Vertices', props: [fbxArray('c', 2_000_000_000)] }]);
    expect(await check(c)).toMatch(/declares an array of 2000000000 elements \(1\.9 GiB\) in its node "Vertices"/);
    const fine = binaryFbx([{ name: 'Small', props: [fbxProp('Z', Buffer.from([1])), fbxArray('c', 16)] }]);
    expect(await check(fine)).toBeUndefined();
  });

  it('reads a big-endian FBX in its byte order, as the loader does, and finds its bomb', async () => {
    const file = binaryFbx([{ name: 'Vertices', props: [bomb(true)] }], { bigEndian: true });
    expect(file[22]).toBe(1);
    expect(await check(file)).toMatch(LIMIT);
    expect(
      await check(binaryFbx([{ name: 'Small', props: [fbxArray('d', 8, 64, true)] }], { bigEndian: true })),
    ).toBeUndefined();
  });

  it('refuses nodes nested deeper than 64, whatever they hold', async () => {
    const deep = binaryFbx([nestedFbxNodes(70, { name: 'Vertices', props: [bomb()] })]);
    expect(await check(deep)).toMatch(
      /^cannot be checked before it is read \(its nodes are nested more than 64 deep\)/,
    );
    const quiet = binaryFbx([nestedFbxNodes(70, { name: 'Leaf', props: [fbxProp('I', Buffer.alloc(4))] })]);
    expect(await check(quiet)).toMatch(/nested more than 64 deep/);
    expect(await check(binaryFbx([nestedFbxNodes(60, { name: 'Vertices', props: [bomb()] })]))).toMatch(LIMIT);
  });

  it('refuses what it cannot follow, saying what to do: an unknown property type, a broken length, an unknown encoding', async () => {
    const unknown = binaryFbx([{ name: 'Vertices', props: [fbxProp('X', Buffer.alloc(4)), bomb()] }]);
    expect(await check(unknown)).toBe(
      'cannot be checked before it is read (its node "Vertices" has a property of type "X" at byte 48, which FBX does not define), so the local engine does not read it. Export it again from your 3D tool as a binary FBX (version 7.x) or an ASCII FBX',
    );
    const raw = Buffer.concat([Buffer.from('d'), Buffer.alloc(12)]);
    raw.writeUInt32LE(1000, 1); // 1000 doubles declared, raw, stored in 0 bytes
    expect(await check(binaryFbx([{ name: 'V', props: [raw] }]))).toMatch(/stores 0 bytes for 1000 elements/);
    const encoded = Buffer.concat([Buffer.from('d'), Buffer.alloc(12)]);
    encoded.writeUInt32LE(2, 5);
    expect(await check(binaryFbx([{ name: 'V', props: [encoded] }]))).toMatch(/unknown encoding 2/);
    const cut = fbxBomb().subarray(0, 60);
    expect(await check(cut)).toMatch(/the node at byte 27 ends at byte \d+, outside its parent/);
  });

  it('refuses any FBX (binary or ASCII) larger than the 128 MiB the engine reads, before reading it', async () => {
    const ascii = readFileSync(realFixture('fbx', 'max_transformed_skin_7500_ascii.fbx'));
    expect(await fbxArrayProblem(bufferReader(ascii), 250 * 2 ** 20)).toBe(
      'is 250 MiB, more than the 128 MiB the local engine reads of an FBX (the service takes larger ones). Export it without embedded media, or with fewer polygons',
    );
  });
});
