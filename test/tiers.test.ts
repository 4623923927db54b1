// The tiers hold: a test's tier is the folder it lives in (test/tiers.ts), and no fast test reaches for a child
// process or a browser, directly or through the test helpers it imports (those belong in test/process/,
// test/e2e/ or test/blender/).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SLOW_MODULES, TIERS } from './tiers.ts';

const ROOT = resolve(import.meta.dirname, '..');
const TEST = join(ROOT, 'test');

function testFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((p) => p.endsWith('.test.ts'))
    .map((p) => join(dir, p));
}

const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(['"])([^'"]+)\1/g;

/** The modules a file imports: the test helpers it reaches (resolved) and the packages it names. */
function importsOf(file: string): { local: string[]; packages: string[] } {
  const local: string[] = [];
  const packages: string[] = [];
  for (const [, , spec] of readFileSync(file, 'utf8').matchAll(SPECIFIER)) {
    if (spec!.startsWith('.')) local.push(resolve(dirname(file), spec!));
    else packages.push(spec!);
  }
  return { local, packages };
}

/** Each slow module a test file reaches through test/ helpers, with the chain of files that leads to it. */
function slowReach(file: string): string[] {
  const found: string[] = [];
  const seen = new Set<string>();
  const walk = (path: string, chain: string[]) => {
    if (seen.has(path) || !path.startsWith(TEST) || !existsSync(path)) return;
    seen.add(path);
    const { local, packages } = importsOf(path);
    for (const name of packages)
      if (SLOW_MODULES.includes(name)) found.push([...chain, relative(ROOT, path), name].join(' -> '));
    for (const next of local) walk(next, [...chain, relative(ROOT, path)]);
  };
  walk(file, []);
  return found;
}

describe('the test tiers', () => {
  const fast = TIERS.find((t) => t.name === 'fast')!;
  const slowFolders = TIERS.flatMap((t) => (t.folder === null ? [] : [join(ROOT, t.folder)]));

  it('each slower tier has its folder, and npm scripts run each tier by name', () => {
    for (const folder of slowFolders) expect(testFiles(folder).length, folder).toBeGreaterThan(0);
    const scripts = (
      JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
    ).scripts;
    for (const tier of TIERS) expect(scripts[`test:${tier.name}`]).toBe(`vitest run --project ${tier.name}`);
    expect(scripts.test).toBe('vitest run');
  });

  it('no fast test imports a child process or a browser, nor a helper that does', () => {
    const fastFiles = testFiles(TEST).filter((f) => !slowFolders.some((folder) => f.startsWith(`${folder}/`)));
    expect(fastFiles.length).toBeGreaterThan(100);
    expect(fast.folder).toBeNull();
    expect(fastFiles.flatMap(slowReach)).toEqual([]);
  });

  it('finds a slow module reached through a helper (the check can fail)', () => {
    const reach = slowReach(join(TEST, 'process', 'cli', 'pipe.test.ts'));
    expect(reach.some((r) => r.endsWith('node:child_process'))).toBe(true);
  });
});
