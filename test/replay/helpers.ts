// What the replay tests share: the CLI run in this process against a replay server, as a user with a key.
import { cleanEnv, tempDataDir } from '../cli/run-cli.ts';
import { runInProcess } from '../cli/run-in-process.ts';
import { REPLAY_KEY, type ReplayServer } from './replay-server.ts';

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
