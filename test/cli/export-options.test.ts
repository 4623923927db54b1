// Options of `asset-studio export`: scale options that exclude each other are refused (exit 2) before
// anything is opened, and a project path with `..` steps is said resolved before anything is written.
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
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
    expect(exported.stderr).toBe(`Project folder: ${project} (from "${given}")\n`);
    const result = JSON.parse(exported.stdout) as { engine: string; targetDir: string };
    expect(result.engine).toBe('godot');
    expect(result.targetDir.startsWith(join(project, 'assets', 'asset_studio'))).toBe(true);
    expect(readdirSync(dataDir)).not.toContain('not-there');
  });
});
