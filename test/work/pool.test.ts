// The worker pool of main/work/ on its own, with a probe worker: tasks run on other threads, one at a time per
// worker; a task's error and a crash each end only that task; an idle worker is stopped when asked. Cancelling
// is tested through the engine's pool (test/engine/work-pool.test.ts), which is this pool with its tasks.
import { threadId } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { PoolClosed, WorkerCrash, WorkerPool } from '../../main/work/pool.ts';
import { pollUntil } from '../engine/helpers.ts';
import type { ProbeResults, ProbeTask } from './probe-worker.ts';

const SCRIPT = new URL('./probe-worker.ts', import.meta.url);
const pool = (options: { size?: number; idleMs?: number } = {}) =>
  new WorkerPool<ProbeTask, ProbeResults>({
    script: SCRIPT,
    name: 'the probe worker',
    size: options.size ?? 1,
    maxOldGenerationSizeMb: 64,
    ...(options.idleMs !== undefined && { idleMs: options.idleMs }),
  });

describe('the worker pool', () => {
  it('runs tasks on a worker thread, the same one for the next tasks, and moves bytes back', async () => {
    const p = pool();
    try {
      const [a, b] = await Promise.all([p.run({ kind: 'thread' }), p.run({ kind: 'thread' })]);
      expect(a).not.toBe(threadId);
      expect(b).toBe(a);
      const bytes = await p.run({ kind: 'bytes', length: 1000 });
      expect(bytes).toHaveLength(1000);
      expect(bytes[999]).toBe(7);
    } finally {
      await p.close();
    }
  });

  it('fails a task with the error it threw, and keeps its worker', async () => {
    const p = pool();
    try {
      const before = await p.run({ kind: 'thread' });
      const failed = p.run({ kind: 'fail', message: 'no such model' });
      await expect(failed).rejects.toThrow('no such model');
      await expect(failed).rejects.toMatchObject({ name: 'RangeError' });
      expect(await p.run({ kind: 'thread' })).toBe(before);
    } finally {
      await p.close();
    }
  });

  it.each([
    ['throw-uncaught', 'the probe worker crashed (probe crash)'],
    ['exit', 'the probe worker stopped (exit code 3)'],
  ] as const)(
    'a worker that crashes (%s) fails only its task; the queued one runs on a new worker',
    async (how, message) => {
      const p = pool();
      try {
        const before = await p.run({ kind: 'thread' });
        const crashed = p.run({ kind: 'crash', how });
        const queued = p.run({ kind: 'thread' });
        await expect(crashed).rejects.toBeInstanceOf(WorkerCrash);
        await expect(crashed).rejects.toThrow(message);
        const after = await queued;
        expect(after).not.toBe(before);
      } finally {
        await p.close();
      }
    },
  );

  it('stops a worker idle for idleMs; the next task starts another', async () => {
    const p = pool({ idleMs: 50 });
    try {
      const first = await p.run({ kind: 'thread' });
      expect(p.threadIds).toEqual([first]);
      await pollUntil(
        async () => p.threadIds.length,
        (n) => n === 0,
      );
      const second = await p.run({ kind: 'thread' });
      expect(second).not.toBe(first);
    } finally {
      await p.close();
    }
  });

  it('close() fails a running task at once but lets its worker finish it before it goes (never cut mid-task)', async () => {
    const p = pool();
    const gate = new Int32Array(new SharedArrayBuffer(8));
    const running = p.run({ kind: 'gate', gate }).catch((error: unknown) => error);
    await pollUntil(
      async () => p.threadIds.length,
      (n) => n === 1,
    );
    const closed = p.close();
    expect(await running).toBeInstanceOf(PoolClosed); // the caller is not kept waiting
    Atomics.store(gate, 0, 1);
    Atomics.notify(gate, 0);
    await closed;
    expect(Atomics.load(gate, 1)).toBe(1); // the worker ended its task, then was stopped
    expect(p.threadIds).toEqual([]);
  });

  it('keeps a worker without idleMs, and close() fails what is left', async () => {
    const p = pool();
    const first = await p.run({ kind: 'thread' });
    const gate = new Int32Array(new SharedArrayBuffer(4));
    const running = p.run({ kind: 'gate', gate }).catch((error: unknown) => error);
    const queued = p.run({ kind: 'thread' }).catch((error: unknown) => error);
    expect(p.threadIds).toEqual([first]);
    await p.close();
    expect(await running).toBeInstanceOf(PoolClosed);
    expect(await queued).toBeInstanceOf(PoolClosed);
    expect(p.threadIds).toEqual([]);
  });

  it('refuses a size it cannot be, and a size 0 with nothing to run the tasks here', () => {
    expect(() => pool({ size: -1 })).toThrow(RangeError);
    expect(() => pool({ size: 0 })).toThrow(/runInline/);
  });
});
