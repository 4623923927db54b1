// The one pid lock file of main (main/durable/pid-lock.ts), for the engine's data folder and the cache's part
// files: a dead process's lock is taken over, a live one's is left to it, and one being written is its maker's.
import { readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { claimPidLock } from '../../main/durable/pid-lock.ts';
import { tempDir } from '../helpers.ts';

const DEAD_PID = '2147483646'; // no such process

describe('a pid lock file', () => {
  it('is held by the first claim, left to a live holder, and free again once released', async () => {
    const path = join(tempDir(), 'x.lock');
    const first = await claimPidLock(path);
    expect(first.held).toBe(true);
    expect(readFileSync(path, 'utf8')).toMatch(new RegExp(`^${process.pid} [0-9a-f]{16}$`));
    expect(await claimPidLock(path)).toEqual({ held: false, holder: process.pid });
    if (first.held) await first.release();
    expect((await claimPidLock(path)).held).toBe(true);
  });

  it('is borrowed from a live holder only when the claim may (a stopped owner), and handed back on release', async () => {
    const path = join(tempDir(), 'engine.lock');
    const holder = process.ppid; // a live process other than this one
    writeFileSync(path, `${holder} c0ffee`);
    expect(await claimPidLock(path)).toEqual({ held: false, holder });
    const asked: number[] = [];
    const borrowed = await claimPidLock(path, { borrowFrom: (pid) => (asked.push(pid), true) });
    expect(asked).toEqual([holder]);
    expect(borrowed.held).toBe(true);
    expect(readFileSync(path, 'utf8')).toMatch(new RegExp(`^${process.pid} `));
    if (borrowed.held) await borrowed.release();
    expect(readFileSync(path, 'utf8')).toBe(`${holder} c0ffee`); // as its owner left it
    expect((await claimPidLock(path, { borrowFrom: () => false })).held).toBe(false);
  });

  it("takes over a dead process's lock, and an empty one only once it is old (not one its maker is writing)", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'dead.lock'), `${DEAD_PID} deadbeef`);
    expect((await claimPidLock(join(dir, 'dead.lock'))).held).toBe(true);
    writeFileSync(join(dir, 'empty.lock'), '');
    expect(await claimPidLock(join(dir, 'empty.lock'))).toEqual({ held: false, holder: undefined });
    const minuteAgo = new Date(Date.now() - 60_000);
    utimesSync(join(dir, 'empty.lock'), minuteAgo, minuteAgo);
    expect((await claimPidLock(join(dir, 'empty.lock'))).held).toBe(true);
  });

  it('a release removes only its own claim: one that took the lock over keeps it', async () => {
    const path = join(tempDir(), 'x.lock');
    const first = await claimPidLock(path);
    writeFileSync(path, `${process.pid} another-claim`);
    if (first.held) await first.release();
    expect(readFileSync(path, 'utf8')).toBe(`${process.pid} another-claim`);
  });
});
