// `asset-studio animate-text` on the embedded engine (#32 item 3): each prompt's line says what it plays
// ("played as: …", the closest motion and what the library lacks), nonsense is FAILED with why, and the job is
// titled by the prompts that play (the CLI's label "animate-text <session> <texts>" loses the refused one).
import { describe, expect, it } from 'vitest';
import { realFixture } from '../fixtures.ts';
import { cleanEnv, runCli, tempDataDir } from './run-cli.ts';

describe('asset-studio animate-text', () => {
  it('prints what each prompt plays and refuses nonsense with why; the job is titled without it', async () => {
    const env = cleanEnv({ ASSET_STUDIO_DATA_DIR: tempDataDir() });
    const speed = ['--engine-speed', '2000'];
    const upload = await runCli(['upload', realFixture('fbx', 'Male_Casual.fbx'), '--wait', '--json', ...speed], env);
    expect(upload.code, upload.stderr).toBe(0);
    const session = (JSON.parse(upload.stdout) as { job: { remoteId: string } }).job.remoteId;
    const animated = await runCli(['animate-text', session, 'zombie walk', 'qwzx blorp', ...speed], env);
    expect(animated.code, animated.stderr).toBe(0);
    const lines = animated.stdout.split('\n');
    expect(lines.find((l) => l.includes('zombie walk'))).toMatch(
      /^ok +zombie walk +\(Animation queued.*played as: walk .*no motion for "zombie"/,
    );
    expect(lines.find((l) => l.includes('qwzx blorp'))).toMatch(
      /^FAILED +qwzx blorp +\(Cannot animate .*none of its words/,
    );
    const jobs = await runCli(['jobs', '--json', ...speed], env);
    expect(jobs.code, jobs.stderr).toBe(0);
    const listed = JSON.parse(jobs.stdout) as
      | { kind: string; label: string }[]
      | { jobs: { kind: string; label: string }[] };
    const rows = Array.isArray(listed) ? listed : listed.jobs;
    expect(rows.find((j) => j.kind === 'animation_prompt')?.label).toBe(`animate-text ${session} zombie walk`);
  }, 120_000);
});
