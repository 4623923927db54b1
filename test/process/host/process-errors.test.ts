// The web host process's last line (main/host/process-errors.ts): a full disk that escaped its action (here
// thrown from a timer and from a promise nobody awaits) is said in one line and the process goes on; any
// other uncaught error still ends it with code 1.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { outputOf } from '../cli/spawn-cli.ts';

const HANDLERS = join(import.meta.dirname, '..', '..', '..', 'main', 'host', 'process-errors.ts');

function run(script: string) {
  return outputOf(
    spawn(
      process.execPath,
      ['--input-type=module', '-e', `import { keepServingOnDiskFull } from ${JSON.stringify(HANDLERS)};\n${script}`],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    ),
  );
}

it('a full disk reaching the process is one line; the process goes on', async () => {
  const result = await run(`
    keepServingOnDiskFull();
    const full = Object.assign(new Error("ENOSPC: no space left on device, write"), { code: 'ENOSPC', path: '/data/cache/tmp/a.part' });
    setTimeout(() => { throw full; });
    setTimeout(() => void Promise.reject(Object.assign(new Error('quota'), { code: 'EDQUOT' })), 10);
    setTimeout(() => console.log('still serving'), 50);
  `);
  expect(result.code).toBe(0);
  expect(result.stdout).toBe('still serving\n');
  expect(result.stderr).toMatch(/^error: The disk holding \/data\/cache\/tmp is full: .*Free some space on that disk/m);
  expect(result.stderr.trim().split('\n')).toHaveLength(2);
});

it('any other uncaught error still ends the process with code 1', async () => {
  const result = await run(`
    keepServingOnDiskFull();
    setTimeout(() => { throw new TypeError('a bug'); });
    setTimeout(() => console.log('still serving'), 200);
  `);
  expect(result.code).toBe(1);
  expect(result.stdout).toBe('');
  expect(result.stderr).toMatch(/TypeError: a bug/);
});
