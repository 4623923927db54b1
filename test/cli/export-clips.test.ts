// `asset-studio export --clips` (#16 item 1): an animated job exports one GLB with every clip of its session,
// or with the clips named; an unknown clip is refused with exit 2, naming the clips the job has.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { realFixture } from '../fixtures.ts';
import { cleanEnv, runCli, tempDataDir } from './run-cli.ts';

/** The animation names inside a GLB (its JSON chunk). */
function animationNames(path: string): string[] {
  const glb = readFileSync(path);
  const json = JSON.parse(glb.toString('utf8', 20, 20 + glb.readUInt32LE(12))) as { animations?: { name?: string }[] };
  return (json.animations ?? []).map((a) => a.name ?? '');
}

describe('asset-studio export --clips', () => {
  let dataDir: string;
  let env: NodeJS.ProcessEnv;
  let promptsJob: string;

  beforeAll(async () => {
    dataDir = tempDataDir();
    env = cleanEnv({ ASSET_STUDIO_DATA_DIR: dataDir });
    const speed = ['--engine-speed', '2000'];
    const upload = await runCli(['upload', realFixture('fbx', 'Male_Casual.fbx'), '--wait', '--json', ...speed], env);
    expect(upload.code, upload.stderr).toBe(0);
    const session = (JSON.parse(upload.stdout) as { job: { remoteId: string } }).job.remoteId;
    const prompts = await runCli(
      ['animate-text', session, 'walk forward', 'wave with the left hand', '--wait', '--json', ...speed],
      env,
    );
    expect(prompts.code, prompts.stderr).toBe(0);
    promptsJob = (JSON.parse(prompts.stdout) as { job: { id: string } }).job.id;
    const pulled = await runCli(['pull', promptsJob, ...speed], env);
    expect(pulled.code, pulled.stderr).toBe(0);
  });

  it('keeps every clip without the option, and only the clips named with it', async () => {
    const all = await runCli(
      ['export', promptsJob, '--project', join(dataDir, 'all'), '--engine', 'folder', '--json'],
      env,
    );
    expect(all.code, all.stderr).toBe(0);
    const allResult = JSON.parse(all.stdout) as { targetDir: string; clips: { written: string[] } };
    expect(allResult.clips.written).toEqual(expect.arrayContaining(['walk forward', 'wave with the left hand']));
    const glbOf = (dir: string) => join(dir, readdirSync(dir).find((n) => n.endsWith('.glb'))!);
    expect(animationNames(glbOf(allResult.targetDir)).sort()).toEqual([...allResult.clips.written].sort());

    const some = await runCli(
      [
        'export',
        promptsJob,
        '--project',
        join(dataDir, 'some'),
        '--engine',
        'folder',
        '--clips',
        'wave with the left hand',
        '--json',
      ],
      env,
    );
    expect(some.code, some.stderr).toBe(0);
    const someResult = JSON.parse(some.stdout) as { targetDir: string; clips: { written: string[] } };
    expect(someResult.clips.written).toEqual(['wave with the left hand']);
    expect(animationNames(glbOf(someResult.targetDir))).toEqual(['wave with the left hand']);
  });

  it('refuses a clip the job does not have (exit 2), naming the ones it has, and writes nothing', async () => {
    const r = await runCli(
      ['export', promptsJob, '--project', join(dataDir, 'none'), '--engine', 'folder', '--clips', 'backflip'],
      env,
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/backflip/);
    expect(r.stderr).toMatch(/walk forward/);
  });
});
