// Issue #33 item 3: the engine's memory after the uploaded characters it read. Babylon's FBX parse runs on a worker
// of the engine's pool (main/engine/work/pool.ts); a worker keeps what it allocated while it lives, so the process
// held it after the job and grew with each one. Now the character task runs with `recycle` (main/work/pool.ts):
// its worker ends once it answered. Same run, same machine: a child process per side runs `--jobs` character tasks
// of Male_Casual.fbx on a pool of one worker, with recycle (now) and without (the baseline: the worker kept), and
// reports its resident memory (VmRSS, Linux) before and after each task.
//   Run: node bench/character-memory.ts [--jobs 4] [--rounds 2]
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { parseArgs, promisify } from 'node:util';

const MiB = 2 ** 20;
const { values } = parseArgs({
  options: {
    jobs: { type: 'string', default: '4' },
    rounds: { type: 'string', default: '2' },
    side: { type: 'string' },
  },
});
const rss = () => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))![1]) * 1024;

if (values.side !== undefined) {
  const [{ WorkPool }, { realFixture }] = await Promise.all([
    import('../main/engine/work/pool.ts'),
    import('../test/fixtures.ts'),
  ]);
  const pool = new WorkPool({ size: 1 });
  const work = {
    path: realFixture('fbx', 'Male_Casual.fbx'),
    format: 'fbx' as const,
    owner: 'bench',
    renderSize: 512,
    thumbnailSize: 256,
  };
  const before = rss();
  const after: number[] = [];
  for (let i = 0; i < Number(values.jobs); i++) {
    const made = await pool.run({ kind: 'character', work }, { recycle: values.side === 'recycle' });
    if ('error' in made) throw new Error(made.error);
    after.push(rss());
  }
  await pool.close();
  process.stdout.write(JSON.stringify({ before, after }));
  process.exit(0);
}

const run = promisify(execFile);
const side = async (name: 'recycle' | 'keep') => {
  const { stdout } = await run(process.execPath, [import.meta.filename, '--side', name, '--jobs', values.jobs!], {
    maxBuffer: MiB,
    timeout: 600_000,
  });
  return JSON.parse(stdout) as { before: number; after: number[] };
};
const mib = (bytes: number) => (bytes / MiB).toFixed(0);
console.log(`${values.rounds} rounds of ${values.jobs} character tasks (Male_Casual.fbx) on a pool of one worker`);
for (let round = 0; round < Number(values.rounds); round++) {
  const order = round % 2 === 0 ? (['keep', 'recycle'] as const) : (['recycle', 'keep'] as const);
  for (const name of order) {
    const r = await side(name);
    const label = name === 'keep' ? 'baseline, worker kept  ' : 'recycle, worker ended  ';
    console.log(
      `${label}: RSS before ${mib(r.before)} MiB, after each task ${r.after.map(mib).join(', ')} MiB (grew ${mib(r.after.at(-1)! - r.before)} MiB)`,
    );
  }
}
