// The CLI in the test process with a fresh data folder unless told: runCli of ./run-cli.ts, for commands
// whose environment does not matter (help, bad usage, numbers).
import { cleanEnv, runCli, tempDataDir, type CliResult } from './run-cli.ts';

export function runInProcess(
  argv: string[],
  env: NodeJS.ProcessEnv = cleanEnv({ ASSET_STUDIO_DATA_DIR: tempDataDir() }),
): Promise<CliResult> {
  return runCli(argv, env);
}
