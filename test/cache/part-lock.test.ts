// The lock of an output's resumable part file (#24 item 8): one writer per output holds it; another process on
// the same data folder gets a part file of its own; a lock left by a process that is gone is taken over.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { claimPart } from '../../main/cache/download-cache.ts';
import { isPartName } from '../../main/cache/folder.ts';

const ID = 'cache_0123456789abcdef0123';
let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

it('the first writer holds the lock; a second gets its own part file; the release frees it', async () => {
  dir = mkdtempSync(join(tmpdir(), 'asset-studio-lock-'));
  const first = await claimPart(dir, ID);
  expect(first.owned).toBe(true);
  expect(readFileSync(join(dir, `${ID}.lock`), 'utf8')).toMatch(new RegExp(`^${process.pid} `));
  const second = await claimPart(dir, ID);
  expect(second.owned).toBe(false);
  expect(basename(second.ownPart)).toMatch(new RegExp(`^${ID}\\.${process.pid}-[0-9a-f]{8}\\.part$`));
  expect(isPartName(basename(second.ownPart))).toBe(true); // swept when left behind
  expect(second.ownPart).not.toBe(first.ownPart);
  await second.release();
  await first.release();
  expect((await claimPart(dir, ID)).owned).toBe(true);
});

it('a lock left by a process that is gone is taken over', async () => {
  dir = mkdtempSync(join(tmpdir(), 'asset-studio-lock-'));
  writeFileSync(join(dir, `${ID}.lock`), '2147483646 deadbeef'); // no such process
  const claim = await claimPart(dir, ID);
  expect(claim.owned).toBe(true);
  await claim.release();
});
