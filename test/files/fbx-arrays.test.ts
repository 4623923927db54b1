// Issue #26 item 6: a binary FBX's arrays are checked from their headers (element count × size, in all) before
// any reader inflates them; real FBX files pass.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { bufferReader, fbxArrayProblem, MAX_FBX_ARRAY_BYTES } from '../../main/files/fbx-arrays.ts';
import { fbxBomb } from '../engine/bombs.ts';
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
});
