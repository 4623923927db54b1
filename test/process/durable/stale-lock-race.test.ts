// Processes that find one stale lock at the same moment (its owner died): exactly one of them takes it over;
// before the takeover guard of main/durable/pid-lock.ts, one could remove the lock another had just made and
// both held it.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers.ts';

const CLAIMER = join(import.meta.dirname, 'lock-claimer.ts');

async function claimTogether(path: string, count: number): Promise<string[]> {
  const at = Date.now() + 1500; // after every child has loaded
  const children = Array.from({ length: count }, () =>
    spawn(process.execPath, [CLAIMER, path, String(at)], { stdio: ['pipe', 'pipe', 'inherit'] }),
  );
  const answers = await Promise.all(
    children.map(
      (child) =>
        new Promise<string>((resolve, reject) => {
          let out = '';
          child.stdout.on('data', (d) => {
            out += String(d);
            if (out.includes('\n')) resolve(out.trim());
          });
          child.once('exit', (code) => reject(new Error(`a claimer ended (${code}) without an answer`)));
        }),
    ),
  );
  for (const child of children) child.stdin.end();
  await Promise.all(children.map((child) => new Promise((resolve) => child.once('close', resolve))));
  return answers;
}

describe('a stale lock claimed by several processes at once', () => {
  it('is held by exactly one of them, every time', async () => {
    for (let round = 0; round < 8; round++) {
      const path = join(tempDir(), 'engine.lock');
      writeFileSync(path, '2147483646 deadbeef'); // no such process: its owner died
      const answers = await claimTogether(path, 3);
      expect(
        answers.filter((a) => a === 'held'),
        `round ${round}: ${answers.join(', ')}`,
      ).toHaveLength(1);
    }
  });
});
