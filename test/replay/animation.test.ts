// Mesh animation as the real service answers it (issue #22): the upload of a signed FBX URL, the session
// going init_processing → init_done → predefined_done with its library clip, text prompts going to
// text_done, and every file delivered from a signed URL as a real FBX.
import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDataDir } from '../cli/run-cli.ts';
import { realFixture } from '../fixtures.ts';
import { cli, uploadedCharacter } from './helpers.ts';
import { type ReplayServer, SAS, startReplay } from './replay-server.ts';

let replay: ReplayServer;
beforeEach(async () => {
  replay = await startReplay();
});
afterEach(async () => {
  await replay.close();
});

/** `kind  path` lines of `pull`, as a map. */
function pulled(stdout: string): Map<string, string> {
  return new Map(
    stdout
      .trim()
      .split('\n')
      .map((line) => line.split(/\s+/) as [string, string]),
  );
}

describe('an animation of an FBX given by signed URL', () => {
  it('is labelled by the file name, followed to predefined_done, and its FBX files downloaded with their bytes', async () => {
    const dataDir = tempDataDir();
    const up = await cli(
      replay,
      ['upload', '--url', `${replay.files}/uploaded/Male_Casual.fbx?${SAS}`, '--json'],
      dataDir,
    );
    expect(up.stderr).toBe('');
    expect(up.code).toBe(0);
    const code = (JSON.parse(up.stdout) as { data: { session_code: string; status: string } }).data.session_code;
    const waited = await cli(replay, ['wait', code, '--timeout', '30'], dataDir);
    expect(waited.code).toBe(0);
    expect(waited.stderr).toMatch(/running .*init_processing/);
    expect(waited.stderr).toMatch(/running .*init_done/);
    expect(waited.stderr).toMatch(/succeeded .*predefined_done/);
    const [job] = JSON.parse((await cli(replay, ['jobs', '--json'], dataDir)).stdout) as { label: string }[];
    expect(job!.label).toBe('upload Male_Casual.fbx');

    const got = await cli(replay, ['get-animation', code], dataDir);
    expect(got.stdout.split('\n')[0]).toBe('state: succeeded (predefined_done)');
    expect(got.stdout).toMatch(/animation_library: \n {2}- Moon walk http:.*_Moon walk\.fbx\?sp=r&/);

    const pull = await cli(replay, ['pull', code], dataDir);
    expect(pull.code).toBe(0);
    const files = pulled(pull.stdout);
    const fbx = readFileSync(realFixture('fbx', 'Male_Casual.fbx'));
    expect(readFileSync(files.get('mesh')!).equals(fbx)).toBe(true);
    expect(readFileSync(files.get('animation')!).equals(fbx)).toBe(true);
    expect(readFileSync(files.get('animation')!).subarray(0, 18).toString('latin1')).toBe('Kaydara FBX Binary');
    const downloads = replay.requests.filter((r) => r.path.startsWith('/blob/'));
    expect(downloads.map((r) => r.path)).toContain(`/blob/animations/${code}_Moon walk.fbx`);
    expect(downloads.every((r) => r.query.get('sig') !== null && r.query.get('sv') === '2022-11-02')).toBe(true);
  });

  it('animates text prompts: each prompt to text_done with its FBX', async () => {
    const dataDir = tempDataDir();
    const code = await uploadedCharacter(replay, dataDir);
    const animated = await cli(replay, ['animate-text', code, 'a person waves', '--json'], dataDir);
    expect(animated.code).toBe(0);
    const { jobId } = JSON.parse(animated.stdout) as { jobId: string };
    const waited = await cli(replay, ['wait', jobId, '--timeout', '30'], dataDir);
    expect(waited.code).toBe(0);
    const got = await cli(replay, ['get-animation', code, '--json'], dataDir);
    const session = JSON.parse(got.stdout) as { prompts: { text: string; status: string; mesh_url: string }[] };
    expect(session.prompts).toEqual([
      expect.objectContaining({
        text: 'a person waves',
        status: 'text_done',
        mesh_url: expect.stringMatching(/\.fbx\?sp=r&/),
      }),
    ]);
    const pull = await cli(replay, ['pull', jobId], dataDir);
    expect(pull.code).toBe(0);
    const clip = [...pulled(pull.stdout).entries()].find(([kind]) => kind.startsWith('prompt:'));
    expect(clip).toBeDefined();
    expect(readFileSync(clip![1]).equals(readFileSync(realFixture('fbx', 'Male_Casual.fbx')))).toBe(true);
  });
});
