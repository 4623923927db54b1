// Whether a process is stopped (main/durable/process-alive.ts isProcessStopped): a process that runs flat out
// (CPU load) is not, whatever it takes to answer; the same process stopped with SIGSTOP is, and continued with
// SIGCONT is not again. The engine's owner is taken for stopped only so (main/app/engine-owner.ts).
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { isProcessAlive, isProcessStopped } from '../../../main/durable/process-alive.ts';

const until = async (what: () => boolean) => {
  for (let i = 0; i < 200 && !what(); i++) await new Promise((resolve) => setTimeout(resolve, 25));
  return what();
};

describe('isProcessStopped', () => {
  it.runIf(process.platform === 'linux')('tells a stopped process from a busy one', async () => {
    const busy = spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' });
    try {
      await until(() => busy.pid !== undefined && isProcessAlive(busy.pid));
      const pid = busy.pid!;
      expect(isProcessStopped(pid)).toBe(false); // spinning on a core: busy, not stopped
      busy.kill('SIGSTOP');
      expect(await until(() => isProcessStopped(pid))).toBe(true);
      busy.kill('SIGCONT');
      expect(await until(() => !isProcessStopped(pid))).toBe(true);
      expect(isProcessStopped(process.pid)).toBe(false);
    } finally {
      busy.kill('SIGKILL');
    }
  });

  it('says no for a process that is not there', () => {
    expect(isProcessStopped(2 ** 22 + 12345)).toBe(false);
  });
});
