// What the replay tests share: the CLI run in this process against a replay server, as a user with a key.
import { cleanEnv, tempDataDir } from '../cli/run-cli.ts';
import { runInProcess } from '../cli/run-in-process.ts';
import { expect } from 'vitest';
import { REPLAY_KEY, type ReplayServer, SAS } from './replay-server.ts';

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
