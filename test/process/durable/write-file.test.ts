import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { moveFileDurable, writeFileDurable, writeFileDurableSync } from '../../../main/durable/write-file.ts';
import { tempDir } from '../../helpers.ts';

const WRITER = fileURLToPath(new URL('../../durable/fixtures/durable-writer.ts', import.meta.url));
const mode = (path: string) => statSync(path).mode & 0o777;

describe('durable writes', () => {
  it('writes a new file 0600 in folders made 0700, and replaces an older file (0644) with a 0600 one', async () => {
    const dir = tempDir();
    const path = join(dir, 'a', 'b', 'state.json');
    await writeFileDurable(path, '{"v":1}');
    expect(readFileSync(path, 'utf8')).toBe('{"v":1}');
    expect([mode(path), mode(join(dir, 'a')), mode(join(dir, 'a', 'b'))]).toEqual([0o600, 0o700, 0o700]);

    chmodSync(path, 0o644);
    writeFileDurableSync(path, '{"v":2}');
    expect(readFileSync(path, 'utf8')).toBe('{"v":2}');
    expect(mode(path)).toBe(0o600);
    expect(readdirSync(dirname(path))).toEqual(['state.json']); // no temp file left
  });

  it("gives a game project's modes (private: false): files 0644, folders 0755, whatever the umask", async () => {
    const path = join(tempDir(), 'project', 'models', 'chair.glb');
    const umask = process.umask(0o077);
    try {
      await writeFileDurable(path, 'glb', { private: false });
    } finally {
      process.umask(umask);
    }
    expect([mode(path), mode(dirname(path)), mode(dirname(dirname(path)))]).toEqual([0o644, 0o755, 0o755]);
  });

  it('exclusive: the first writer wins, the file there is kept, and no temp file is left', async () => {
    const dir = tempDir();
    const path = join(dir, 'engine-key');
    writeFileDurableSync(path, 'first', { exclusive: true });
    expect(() => writeFileDurableSync(path, 'second', { exclusive: true })).toThrow(
      expect.objectContaining({ code: 'EEXIST' }),
    );
    await expect(writeFileDurable(path, 'third', { exclusive: true })).rejects.toMatchObject({ code: 'EEXIST' });
    expect(readFileSync(path, 'utf8')).toBe('first');
    expect(readdirSync(dir)).toEqual(['engine-key']);
  });

  it('a write that cannot be put in place throws and leaves no temp file', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'state.json')); // a folder where the file should go
    await expect(writeFileDurable(join(dir, 'state.json'), '{}')).rejects.toThrow();
    expect(() => writeFileDurableSync(join(dir, 'state.json'), '{}')).toThrow();
    expect(readdirSync(dir)).toEqual(['state.json']);
  });

  it('moves a file into a new folder, replacing what was there', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'a.part'), 'new');
    mkdirSync(join(dir, 'files'));
    writeFileSync(join(dir, 'files', 'a.bin'), 'old');
    await moveFileDurable(join(dir, 'a.part'), join(dir, 'files', 'a.bin'));
    expect(readFileSync(join(dir, 'files', 'a.bin'), 'utf8')).toBe('new');
    expect(readdirSync(dir)).toEqual(['files']);
  });
});

// What reaches the disk cannot be seen from inside the process; the system calls can. strace shows that the
// file is synced before it is renamed into place and that its folder is synced after the rename (and a
// folder made for it, into its parent), for every writer in main. Skipped where strace cannot run.
const strace = spawnSync('strace', ['-f', '-qq', '-o', '/dev/null', 'true']).status === 0;

describe.skipIf(!strace)('durable writes, as system calls (strace)', () => {
  it.each([
    ['vault', 'api-keys.json', false],
    ['key-file', 'api-key', false],
    ['sync', 'state.json', false],
    ['async', 'state.json', false],
    ['move', 'files/upload.bin', true],
  ] as const)('%s: the file is synced, renamed over %s, then its folder is synced', (kind, name, newFolder) => {
    const dir = tempDir();
    const events = traceWrites(kind, dir);
    const target = join(dir, name);
    const rename = events.findIndex((e) => e.call === 'rename' && e.to === target);
    expect(rename, JSON.stringify(events, null, 1)).toBeGreaterThanOrEqual(0);
    const from = events[rename]!.from;
    expect(events.slice(0, rename).some((e) => e.call === 'fsync' && e.path === from)).toBe(true);
    expect(events.slice(rename + 1).some((e) => e.call === 'fsync' && e.path === dirname(target))).toBe(true);
    if (newFolder)
      expect(events.slice(0, rename).some((e) => e.call === 'fsync' && e.path === dirname(dirname(target)))).toBe(true);
    if (kind !== 'move') expect(mode(target)).toBe(0o600);
  });
});

interface Event {
  call: 'fsync' | 'rename';
  path?: string;
  from?: string;
  to?: string;
}

/** Runs the fixture under strace; the fsyncs (by path) and renames it made, in order. */
function traceWrites(kind: string, dir: string): Event[] {
  const log = join(tempDir(), 'strace.log');
  const calls = 'trace=open,openat,close,fsync,fdatasync,rename,renameat,renameat2';
  const run = spawnSync(
    'strace',
    ['-f', '-qq', '-s', '4096', '-e', calls, '-o', log, process.execPath, WRITER, kind, dir],
    { encoding: 'utf8' },
  );
  expect(run.status, run.stderr).toBe(0);
  const fds = new Map<string, string>();
  const pending = new Map<string, string>();
  const events: Event[] = [];
  for (const raw of readFileSync(log, 'utf8').split('\n')) {
    const [, pid = '', rest = ''] = /^(\d+)\s+(.*)$/.exec(raw) ?? [];
    let line = rest;
    if (line.endsWith('<unfinished ...>')) {
      pending.set(pid, line.slice(0, -'<unfinished ...>'.length));
      continue;
    }
    const resumed = /^<\.\.\. \w+ resumed>(.*)$/.exec(line);
    if (resumed) line = (pending.get(pid) ?? '') + resumed[1];
    const call = /^(\w+)\((.*)\)\s+=\s+(-?\d+)/.exec(line);
    if (!call) continue;
    const [, name, args = '', result = ''] = call;
    const paths = [...args.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => m[1]!);
    if ((name === 'open' || name === 'openat') && Number(result) >= 0) fds.set(result, paths[0]!);
    else if (name === 'close') fds.delete(args.trim());
    else if ((name === 'fsync' || name === 'fdatasync') && result === '0')
      events.push({ call: 'fsync', path: fds.get(args.trim())! });
    else if (name?.startsWith('rename') && result === '0')
      events.push({ call: 'rename', from: paths[0]!, to: paths[1]! });
  }
  return events;
}
