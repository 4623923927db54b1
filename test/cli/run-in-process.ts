// Runs the CLI's entry point (runCli) in the test process: for commands that stop before any service is
// started (help, bad usage), where a child process per case would only add start-up time.
import { runCli } from '../../main/cli/main.ts';
import { cleanEnv, tempDataDir, type CliResult } from './run-cli.ts';

export async function runInProcess(
  argv: string[],
  env: NodeJS.ProcessEnv = cleanEnv({ ASSET_STUDIO_DATA_DIR: tempDataDir() }),
): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, {
    stdout: (t) => (stdout += t),
    stderr: (t) => (stderr += t),
    env,
    stderrIsTTY: false,
    readStdin: async () => '',
    interrupt: new AbortController().signal,
  });
  return { code, stdout, stderr };
}
