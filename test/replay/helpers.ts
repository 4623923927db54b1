// What the replay tests share: a replay server for each test that asks for one, and the CLI run in this process
// against it, as a user with a key.
import { cleanEnv, tempDataDir } from '../cli/run-cli.ts';
import { runInProcess } from '../cli/run-in-process.ts';
import { it as base, expect } from 'vitest';
import { REPLAY_KEY, type ReplayServer, SAS, startReplay } from './replay-server.ts';

/**
 * `it` whose tests that name `replay` (`it('…', async ({ replay }) => …)`) each get a replay server of their own,
 * started for the test and closed after it.
 */
export const it = base.extend<{ replay: ReplayServer }>({
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads what a fixture needs from this pattern (nothing here)
  replay: async ({}, use) => {
    const replay = await startReplay();
    await use(replay);
    await replay.close();
  },
});

/** The environment of a user whose key and service address point at the replay server. */
export function replayEnv(replay: ReplayServer, dataDir = tempDataDir()): NodeJS.ProcessEnv {
  return cleanEnv({
    ASSET_STUDIO_DATA_DIR: dataDir,
    ASSET_STUDIO_BASE_URL: replay.url,
    ASSET_STUDIO_LEGACY_BASE_URL: replay.url,
    ASSET_STUDIO_API_KEY: REPLAY_KEY,
  });
}

export function cli(replay: ReplayServer, argv: string[], dataDir?: string) {
  return runInProcess(argv, replayEnv(replay, dataDir));
}

/** Male_Casual.fbx given to `upload` by signed URL and waited on to its end: the animation session's code. */
export async function uploadedCharacter(replay: ReplayServer, dataDir: string): Promise<string> {
  const up = await cli(
    replay,
    ['upload', '--url', `${replay.files}/uploaded/Male_Casual.fbx?${SAS}`, '--json'],
    dataDir,
  );
  const code = (JSON.parse(up.stdout) as { data: { session_code: string } }).data.session_code;
  expect((await cli(replay, ['wait', code, '--timeout', '30'], dataDir)).code).toBe(0);
  return code;
}
