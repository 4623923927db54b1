// The test suite's wall time per tier, against a baseline commit in the same run: each tier of this checkout
// (`vitest run --project NAME`) and the same test files at the baseline (found there through git's rename
// detection, since files moved into tier folders), one after the other, then the whole suite of both.
// `--hogs N` starts N `yes > /dev/null` processes beside it (the CI machine is shared); they are stopped at the end.
// The baseline is checked out with `git worktree` into a temporary folder that uses this checkout's node_modules.
// Usage: node bench/test-suite.ts [--baseline REF] [--tiers fast,process,e2e,dcc] [--whole] [--hogs N]
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { TIERS } from '../test/tiers.ts';

const ROOT = resolve(import.meta.dirname, '..');
const { values } = parseArgs({
  options: {
    baseline: { type: 'string', default: 'ab9407b' },
    tiers: { type: 'string', default: TIERS.map((t) => t.name).join(',') },
    whole: { type: 'boolean', default: false },
    hogs: { type: 'string', default: '0' },
  },
});
const tiers = values.tiers.split(',').map((name) => {
  const tier = TIERS.find((t) => t.name === name);
  if (!tier) throw new Error(`no tier "${name}": ${TIERS.map((t) => t.name).join(', ')}`);
  return tier;
});

const git = (...args: string[]) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' });

/** The test files of a tier here, as vitest lists them. */
function filesOf(tier: string): string[] {
  const out = execFileSync(process.execPath, [vitestBin(ROOT), 'list', '--filesOnly', '--project', tier], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  return out
    .split('\n')
    .map((l) => l.replace(/^\[[^\]]+\]\s*/, '').trim())
    .filter((l) => l.endsWith('.test.ts'));
}

/** This checkout's test file → its path at the baseline (moves followed), for files that existed there. */
function baselinePaths(ref: string): Map<string, string> {
  const map = new Map<string, string>();
  for (const line of git('diff', '--find-renames=40%', '--name-status', ref, '--', 'test').split('\n')) {
    const [status, from, to] = line.split('\t');
    if (status?.startsWith('R') && from && to) map.set(to, from);
    if (status === 'A' && from) map.set(from, ''); // new here: no baseline
  }
  return map;
}

function vitestBin(dir: string): string {
  return join(dir, 'node_modules', 'vitest', 'vitest.mjs');
}

/** Wall seconds of `vitest run ARGS` in `dir`, and the last summary lines it printed. */
function timeVitest(dir: string, args: string[]): Promise<{ seconds: number; summary: string; code: number | null }> {
  const started = performance.now();
  const child = spawn(process.execPath, [vitestBin(dir), 'run', '--reporter=dot', ...args], {
    cwd: dir,
    env: { ...process.env, CI: 'true' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out = (out + d.toString()).slice(-20_000)));
  child.stderr.on('data', () => undefined);
  return new Promise((done) =>
    child.on('close', (code) => {
      // biome-ignore lint/suspicious/noControlCharactersInRegex: vitest's colours
      const plain = out.replace(/\x1b\[[0-9;]*m/g, '');
      const summary = plain
        .split('\n')
        .filter((l) => /^\s*(Test Files|Tests)\s/.test(l))
        .map((l) => l.trim())
        .join('; ');
      done({ seconds: (performance.now() - started) / 1000, summary, code });
    }),
  );
}

const hogs: ChildProcess[] = [];
for (let i = 0; i < Number(values.hogs); i++)
  hogs.push(spawn('sh', ['-c', 'exec yes > /dev/null'], { stdio: 'ignore' }));
const stopHogs = () => {
  for (const h of hogs) h.kill('SIGKILL');
};
process.on('exit', stopHogs);

// Beside this checkout, so that the baseline's tests find ../shared (the fixtures) where this checkout's do.
const baseDir = mkdtempSync(join(dirname(ROOT), '.test-suite-baseline-'));
git('worktree', 'add', '--force', '--detach', baseDir, values.baseline);
symlinkSync(join(ROOT, 'node_modules'), join(baseDir, 'node_modules'));
const head = git('rev-parse', '--short', 'HEAD').trim();
console.log(
  `test suite: this checkout (${head}, with uncommitted changes if any) vs baseline ${values.baseline}; ${hogs.length} CPU hog(s) beside it; load average at start ${loadavg()[0]!.toFixed(2)}`,
);
try {
  const moved = baselinePaths(values.baseline);
  const counted = new Set<string>();
  for (const tier of tiers) {
    const files = filesOf(tier.name);
    const before = files.map((f) => moved.get(f) ?? f).filter((f) => f !== '' && existsSync(join(baseDir, f)));
    for (const f of before) counted.add(f);
    const after = await timeVitest(ROOT, ['--project', tier.name]);
    const then = await timeVitest(baseDir, before);
    const line = `${tier.name.padEnd(8)} ${String(files.length).padStart(3)} files: now ${after.seconds.toFixed(0).padStart(5)} s [${after.summary}]   baseline (${before.length} files) ${then.seconds.toFixed(0).padStart(5)} s [${then.summary}]   ratio ${(after.seconds / then.seconds).toFixed(2)}`;
    console.log(line);
  }
  if (tiers.length === TIERS.length) {
    const all = execFileSync('git', ['ls-tree', '-r', '--name-only', values.baseline, 'test'], {
      cwd: ROOT,
      encoding: 'utf8',
    })
      .split('\n')
      .filter((f) => f.endsWith('.test.ts'));
    const missed = all.filter((f) => !counted.has(f));
    console.log(`baseline test files in no tier's set: ${missed.length === 0 ? 'none' : missed.join(', ')}`);
  }
  if (values.whole) {
    const after = await timeVitest(ROOT, []);
    const then = await timeVitest(baseDir, []);
    console.log(
      `whole    now ${after.seconds.toFixed(0)} s [${after.summary}]   baseline ${then.seconds.toFixed(0)} s [${then.summary}]   ratio ${(after.seconds / then.seconds).toFixed(2)}`,
    );
  }
  console.log(`load average at end ${loadavg()[0]!.toFixed(2)}`);
} finally {
  stopHogs();
  git('worktree', 'remove', '--force', baseDir);
  rmSync(baseDir, { recursive: true, force: true });
}
