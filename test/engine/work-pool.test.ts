// The engine's CPU work off its event loop (issue #23 item 3): the pool of worker threads (main/engine/work/)
// on its own, and through the engine: work runs on another thread while the hosting thread keeps serving,
// a cancelled task stops its worker, a crashed worker fails its one task (its session, with why) and is
// replaced, and closing the engine leaves no work running.
import { existsSync, readFileSync } from 'node:fs';
import { threadId } from 'node:worker_threads';
import { beforeAll, describe, expect, it } from 'vitest';
import { defaultPoolSize, WorkPool } from '../../main/engine/work/pool.ts';
import { PoolClosed, WorkerCrash } from '../../main/work/pool.ts';
import { realFixture } from '../fixtures.ts';
import { denseGridGlb } from './dense-glb.ts';
import {
  createRetopology,
  PNG_DATA_URI,
  pollUntil,
  send,
  startTestEngine,
  type TestEngine,
  useServedFiles,
  v3Session,
} from './helpers.ts';

/** Resolves after `n` turns of the event loop's timers (each a separate task of this thread). */
const ticks = (n: number) =>
  new Promise<void>((resolve) => {
    let seen = 0;
    const timer = setInterval(() => {
      if (++seen >= n) {
        clearInterval(timer);
        resolve();
      }
    }, 1);
  });

describe('the work pool', () => {
  it('sizes itself from the cores: one per core but one, 1 to 4', () => {
    expect([1, 2, 3, 4, 8, 64].map((n) => defaultPoolSize(n))).toEqual([1, 1, 2, 3, 4, 4]);
  });

  it('runs a task on another thread while this thread keeps running its event loop', async () => {
    const pool = new WorkPool({ size: 1 });
    try {
      // The task spins until this thread opens its gate: it cannot end before this thread has run, whatever the load.
      const gate = new Int32Array(new SharedArrayBuffer(4));
      let ended = false;
      const task = pool.run({ kind: 'probe', gate }).finally(() => {
        ended = true;
      });
      await ticks(20); // 20 timer callbacks on this thread while the task is busy on its own
      expect(ended).toBe(false);
      Atomics.store(gate, 0, 1);
      const { threadId: worker } = await task;
      expect(worker).not.toBe(threadId);
      expect(pool.threadIds).toEqual([worker]);
    } finally {
      await pool.close();
    }
  });

  it('ends the worker of a task run with recycle once it answered; the next task gets a new one (issue #33 item 3)', async () => {
    const pool = new WorkPool({ size: 1 });
    try {
      const kept = (await pool.run({ kind: 'probe' })).threadId;
      expect((await pool.run({ kind: 'probe' })).threadId).toBe(kept); // a worker is kept between tasks
      expect((await pool.run({ kind: 'probe' }, { recycle: true })).threadId).toBe(kept);
      expect(pool.threadIds).toEqual([]); // ended as its task answered: what it allocated goes back
      expect((await pool.run({ kind: 'probe' })).threadId).not.toBe(kept);
    } finally {
      await pool.close();
    }
  });

  it('runs tasks on the calling thread with size 0 (the bench baseline)', async () => {
    const pool = new WorkPool({ size: 0 });
    expect((await pool.run({ kind: 'probe' })).threadId).toBe(threadId);
    await pool.close();
  });

  it('cancels: a queued task is dropped, a running one stops with its worker, which is replaced', async () => {
    const pool = new WorkPool({ size: 1 });
    try {
      const gate = new Int32Array(new SharedArrayBuffer(4)); // never opened: the task would spin forever
      const running = new AbortController();
      const queued = new AbortController();
      const first = pool.run({ kind: 'probe', gate }, { signal: running.signal });
      const second = pool.run({ kind: 'probe' }, { signal: queued.signal });
      await pollUntil(
        async () => pool.threadIds.length,
        (n) => n === 1,
      );
      const [spinning] = pool.threadIds;
      queued.abort(new Error('not wanted any more'));
      await expect(second).rejects.toThrow('not wanted any more');
      running.abort(new Error('cancelled by the test'));
      await expect(first).rejects.toThrow('cancelled by the test');
      expect(pool.threadIds).toEqual([]); // its thread was terminated
      const next = await pool.run({ kind: 'probe' });
      expect(next.threadId).not.toBe(spinning);
    } finally {
      await pool.close();
    }
  });

  it.each([
    ['throw-uncaught', 'crashed (probe crash)'],
    ['exit', 'stopped (exit code 3)'],
    ['out-of-memory', 'ran out of memory (its heap is limited to 32 MB)'],
  ] as const)(
    'a worker that crashes (%s) fails its task with why; the next task runs on a new worker',
    async (crash, reason) => {
      const pool = new WorkPool({ size: 1, maxOldGenerationSizeMb: 32 });
      try {
        const before = (await pool.run({ kind: 'probe' })).threadId;
        const crashed = pool.run({ kind: 'probe', crash });
        await expect(crashed).rejects.toBeInstanceOf(WorkerCrash);
        await expect(crashed).rejects.toThrow(`the engine's worker ${reason}`);
        const after = (await pool.run({ kind: 'probe' })).threadId;
        expect(after).not.toBe(before);
      } finally {
        await pool.close();
      }
    },
  );

  it('close fails the queued and running tasks and leaves no thread', async () => {
    const pool = new WorkPool({ size: 1 });
    const gate = new Int32Array(new SharedArrayBuffer(4));
    const running = pool.run({ kind: 'probe', gate }).catch((error: unknown) => error);
    const queued = pool.run({ kind: 'probe' }).catch((error: unknown) => error);
    await pollUntil(
      async () => pool.threadIds.length,
      (n) => n === 1,
    );
    await pool.close();
    expect(await running).toBeInstanceOf(PoolClosed);
    expect(await queued).toBeInstanceOf(PoolClosed);
    expect(pool.threadIds).toEqual([]);
    await expect(pool.run({ kind: 'probe' })).rejects.toBeInstanceOf(PoolClosed);
  });
});

describe('the engine with its work on worker threads', () => {
  const { served, url } = useServedFiles('model/gltf-binary');
  beforeAll(async () => {
    served.set('/dense.glb', await denseGridGlb(250)); // 125,000 triangles
  });

  const create = (engine: TestEngine, mesh: string) => createRetopology(engine, { mesh, model: 'swift' });

  it('answers requests while a retopology runs, and makes it', async () => {
    const engine = await startTestEngine({ speed: 1e6, initialCredits: 1e6, workers: 1 });
    try {
      const thread0 = process.threadCpuUsage();
      const process0 = process.cpuUsage();
      const { _id: id } = await create(engine, url('/dense.glb'));
      let whileRunning = 0;
      const done = await pollUntil(
        async () => {
          const session = await v3Session(engine, id);
          if (session.status === 'incomplete') whileRunning++;
          return session;
        },
        (s) => s.status !== 'incomplete',
        120_000,
      );
      expect(done.status).toBe('complete');
      expect(whileRunning).toBeGreaterThan(1);
      // The work's CPU was spent on another thread: this thread's share of the process's CPU (all its threads)
      // is small (0.16–0.19 in trials; 0.62 with the pool at 0, the work on the loop). CPU, not wall time: the
      // machine's load does not change it.
      const thread = process.threadCpuUsage(thread0);
      const all = process.cpuUsage(process0);
      expect(thread.user + thread.system).toBeLessThan(0.4 * (all.user + all.system));
    } finally {
      await engine.dispose();
    }
  });

  it('a worker that runs out of memory fails its session with why; the engine keeps serving', async () => {
    const engine = await startTestEngine({ speed: 1e6, initialCredits: 1e6, workers: 1, workerMemoryMb: 8 });
    try {
      const { _id: id } = await create(engine, url('/dense.glb'));
      const failed = await pollUntil(
        () => v3Session(engine, id),
        (s) => s.status !== 'incomplete',
        120_000,
      );
      expect(failed.status).toBe('failed');
      expect(failed.error).toMatch(
        /could not be retopologised \(the engine's worker ran out of memory \(its heap is limited to 8 MB\)\)/,
      );
      // Still serving: the session reads again, and a new one is taken.
      expect((await v3Session(engine, id)).status).toBe('failed');
      expect((await create(engine, url('/dense.glb'))).status).toBe('incomplete');
      // A file whose worker runs out of memory: its download answers 500 with why.
      const made = await send(`${engine.url}/v3/sessions`, {
        json: { type: 'image_to_3d', input: { image: PNG_DATA_URI, model: 'sculpt' } },
      });
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      const { mesh } = (
        await pollUntil(
          async () => (await send(`${engine.url}/v3/sessions/${made.body._id}`)).body,
          (s) => s.status !== 'incomplete',
          120_000,
        )
      ).output;
      const answer = await fetch(mesh.data.glb_url);
      expect(answer.status).toBe(500);
      expect(await answer.text()).toContain("could not make this file: the engine's worker ran out of memory");
    } finally {
      await engine.dispose();
    }
  });

  it('closing the engine during a retopology stops it: nothing is written after close', async () => {
    served.set('/denser.glb', await denseGridGlb(500)); // 500,000 triangles: seconds of work
    const engine = await startTestEngine({ speed: 1e6, initialCredits: 1e6, workers: 1 });
    const { _id: id } = await create(engine, url('/denser.glb'));
    await pollUntil(
      async () => existsSync(`${engine.dataDir}/files/${(await v3Session(engine, id)).input.mesh._id}`),
      (stored) => stored,
    );
    await engine.close();
    await ticks(50);
    expect(existsSync(`${engine.dataDir}/files/${id}`)).toBe(false);
    await engine.dispose();
  });

  it('closing the engine while a file is being made: nothing runs or writes after close', async () => {
    const engine = await startTestEngine({ speed: 1e6, initialCredits: 1e6, workers: 1 });
    const picture = `data:image/png;base64,${readFileSync(realFixture('images', 'chair.png')).toString('base64')}`;
    const meshOf = async (texture: string) => {
      const made = await send(`${engine.url}/v3/sessions`, {
        json: { type: 'image_to_3d', input: { image: picture, model: 'sculpt', settings: { texture_model: texture } } },
      });
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      return (
        await pollUntil(
          async () => (await send(`${engine.url}/v3/sessions/${made.body._id}`)).body,
          (s) => s.status !== 'incomplete',
          120_000,
        )
      ).output.mesh;
    };
    // A first file, so that the worker has loaded its modules when the second one is asked for.
    expect((await fetch((await meshOf('none')).data.glb_url)).status).toBe(200);
    const mesh = await meshOf('pbr');
    const download = fetch(mesh.data.glb_url).then(
      (answer) => answer.status,
      () => 'cut',
    );
    // The request reaches the engine and the GLB's model is being made on the worker (about a second of CPU).
    await new Promise((resolve) => setTimeout(resolve, 300));
    await engine.dispose(); // closes the engine, then removes its folder
    await download;
    // Without the pool's close the model would be finished (a few seconds) and the GLB written, making the folder
    // again: watched for longer than that work takes.
    for (let waited = 0; waited < 8000; waited += 100) {
      expect(existsSync(engine.dataDir)).toBe(false);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  });
});
