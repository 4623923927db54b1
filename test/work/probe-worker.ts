// The worker script of test/work/pool.test.ts: answers its thread, spins until a gate opens, fails, or crashes.
import { threadId } from 'node:worker_threads';
import { serveTasks } from '../../main/work/serve-tasks.ts';

export type ProbeTask =
  | { kind: 'thread' }
  | { kind: 'bytes'; length: number }
  | { kind: 'gate'; gate: Int32Array }
  | { kind: 'fail'; message: string }
  | { kind: 'crash'; how: 'throw-uncaught' | 'exit' };

export interface ProbeResults {
  thread: number;
  bytes: Uint8Array;
  gate: number;
  fail: never;
  crash: never;
}

serveTasks<ProbeTask>('test/work/probe-worker.ts', async (task, transfer) => {
  switch (task.kind) {
    case 'thread':
      return threadId;
    case 'bytes': {
      const bytes = new Uint8Array(task.length).fill(7);
      transfer.push(bytes.buffer);
      return bytes;
    }
    case 'gate':
      while (Atomics.load(task.gate, 0) === 0) Atomics.wait(task.gate, 0, 0, 50);
      if (task.gate.length > 1) Atomics.store(task.gate, 1, 1); // a second cell: says the task ran to its end
      return threadId;
    case 'fail':
      throw new RangeError(task.message);
    case 'crash':
      if (task.how === 'exit') process.exit(3);
      setImmediate(() => {
        throw new Error('probe crash');
      });
      return new Promise(() => undefined);
  }
});
