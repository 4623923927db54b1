// The one pid lock file of main (main/durable/pid-lock.ts), for the engine's data folder and the cache's part
// files: a dead process's lock is taken over, a live one's is left to it, and one being written is its maker's.
import { readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { claimPidLock } from '../../main/durable/pid-lock.ts';
import { processStart } from '../../main/durable/process-identity.ts';
import { tempDir } from '../helpers.ts';

const DEAD_PID = '2147483646'; // no such process

describe('a pid lock file', () => {
  it('is held by the first claim, left to a live holder, and free again once released', async () => {
    const path = join(tempDir(), 'x.lock');
    const first = await claimPidLock(path);
    expect(first.held).toBe(true);
    // Its pid, a token of the claim, and (where /proc tells it) when this process started.
    const start = processStart(process.pid);
    expect(readFileSync(path, 'utf8')).toMatch(new RegExp(`^${process.pid} [0-9a-f]{16}${start ? ` ${start}` : ''}$`));
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

  // A live process that is not the lock's owner: the parent of this one (a pid reused since the lock was written).
  it.runIf(process.platform === 'linux')(
    'takes over a lock naming a live pid that another process has now',
    async () => {
      const dir = tempDir();
      const other = process.ppid;
      const real = processStart(other)!;
      // The owner's start is recorded: another start is another process.
      writeFileSync(join(dir, 'a.lock'), `${other} c0ffee ${real.split(':')[0]}:1`);
      expect((await claimPidLock(join(dir, 'a.lock'))).held).toBe(true);
      // An older version's lock (no start): its process started after it was written, so it did not write it.
      writeFileSync(join(dir, 'b.lock'), `${other} c0ffee`);
      const longAgo = new Date(Date.parse('2001-01-01T00:00:00Z'));
      utimesSync(join(dir, 'b.lock'), longAgo, longAgo);
      expect((await claimPidLock(join(dir, 'b.lock'))).held).toBe(true);
      // The real owner (its start) is left its lock, and so is an older lock written while it ran.
      writeFileSync(join(dir, 'c.lock'), `${other} c0ffee ${real}`);
      expect(await claimPidLock(join(dir, 'c.lock'))).toEqual({ held: false, holder: other });
      writeFileSync(join(dir, 'd.lock'), `${other} c0ffee`);
      expect(await claimPidLock(join(dir, 'd.lock'))).toEqual({ held: false, holder: other });
    },
  );
});
