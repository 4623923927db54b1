// Options of `asset-studio export`: scale options that exclude each other are refused (exit 2) before
// anything is opened, and a project path with `..` steps is said resolved before anything is written; into a
// game project the pivot is at the bottom centre unless --pivot says otherwise (as-is keeps the origin).
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { realFixture } from '../fixtures.ts';
import { cleanEnv, runCli, tempDataDir } from './run-cli.ts';
import { runInProcess } from './run-in-process.ts';

describe('asset-studio export: options', () => {
  it.each([
    [['--scale-height', '2', '--scale-factor', '3'], '--scale-height and --scale-factor'],
    [['--scale-largest', '1', '--scale-height', '2'], '--scale-height and --scale-largest'],
    [
      ['--scale-height', '1', '--scale-largest', '2', '--scale-factor', '3'],
      '--scale-height and --scale-largest and --scale-factor',
    ],
  ])('refuses conflicting scale options %j (exit 2), writing nothing', async (flags, named) => {
    const dataDir = tempDataDir();
    const project = join(dataDir, 'game');
    const result = await runInProcess(
      ['export', 'job_x', '--project', project, ...flags],
      cleanEnv({ ASSET_STUDIO_DATA_DIR: dataDir }),
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      `${named} cannot be used together: give one of --scale-height, --scale-largest, --scale-factor`,
    );
    expect(existsSync(project)).toBe(false);
  });

  it('takes one scale option with a pivot and an up axis', async () => {
    const result = await runInProcess([
      'export',
      'job_x',
      '--project',
      join(tempDataDir(), 'game'),
      '--scale-factor',
      '3',
      '--pivot',
      'center',
    ]);
    expect(result.stderr).not.toMatch(/cannot be used together/);
    expect(result.stderr).toMatch(/job_x/); // it got as far as looking for the job
  });

  it('resolves a project path with .. steps and says where it goes before writing', async () => {
    const dataDir = tempDataDir();
    const env = cleanEnv({ ASSET_STUDIO_DATA_DIR: dataDir });
    const created = await runCli(
      ['create-3d', realFixture('images', 'chair.png'), '--wait', '--json', '--engine-speed', '2000'],
      env,
    );
    expect(created.code).toBe(0);
    const jobId = (JSON.parse(created.stdout) as { job: { id: string } }).job.id;
    const project = join(dataDir, 'my-game');
    mkdirSync(project);
    writeFileSync(join(project, 'project.godot'), '[application]\nconfig/name="My Game"\n');
    const given = `${dataDir}/not-there/../my-game/assets/..`;
    const exported = await runCli(['export', jobId, '--project', given, '--json'], env);
    expect([exported.code, exported.stderr]).toEqual([0, expect.any(String)]);
    expect(exported.stderr).toBe(
      `Project folder: ${project} (from "${given}")\n` +
        "note: pivot at the bottom centre, the default for godot: the model stands on the floor (--pivot as-is keeps the file's origin)\n",
    );
    const result = JSON.parse(exported.stdout) as { engine: string; targetDir: string; bbox?: { min: number[] } };
    expect(result.engine).toBe('godot');
    expect(result.targetDir.startsWith(join(project, 'assets', 'asset_studio'))).toBe(true);
    expect(readdirSync(dataDir)).not.toContain('not-there');

    // #24 item 7a: into a game project the model stands on the floor by default (the service's models have
    // their origin at the centre of their box); --pivot as-is keeps its origin, and so does a plain folder.
    const manifestOf = (dir: string) =>
      JSON.parse(readFileSync(join(dir, readdirSync(dir).find((n) => n.endsWith('.assetstudio.json'))!), 'utf8')) as {
        transforms?: unknown;
        bbox?: { min: number[] };
      };
    const standing = manifestOf(result.targetDir);
    expect(standing.transforms).toEqual({ pivot: 'bottom-center' });
    expect(standing.bbox!.min[1]).toBeCloseTo(0, 5);
    const asIs = await runCli(
      ['export', jobId, '--project', project, '--pivot', 'as-is', '--overwrite', '--json'],
      env,
    );
    expect([asIs.code, asIs.stderr]).toEqual([0, '']);
    expect(manifestOf(JSON.parse(asIs.stdout).targetDir).transforms).toBeUndefined();
    const folder = await runCli(['export', jobId, '--project', join(dataDir, 'plain'), '--json'], env);
    expect([folder.code, folder.stderr]).toEqual([0, '']);
    expect(manifestOf(JSON.parse(folder.stdout).targetDir).transforms).toBeUndefined();
  });
});
