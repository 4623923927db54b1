// Ctrl-C and SIGTERM end a command of the launcher (bin/asset-studio.js) within seconds whatever is in flight,
// reported as `stopped` (main/cli/stop.ts; issue #33: against a service that never sends headers, `list` ended
// 118 s after SIGTERM and a create was still running at 200 s). The service here accepts and never answers; the
// only time limit asserted is a cap that the hang (30 s of headers timeout, then retries) would exceed.
import { once } from 'node:events';
import { expect, it } from 'vitest';
import { realFixture } from '../../fixtures.ts';
import { cleanEnv } from '../../cli/run-cli.ts';
import { tempDir } from '../../helpers.ts';
import { silentService } from '../net/servers.ts';
import { outputOf, startCli } from './spawn-cli.ts';

/** Well under the 30 s a request waits for headers, which the hang took at least (then retried). */
const CAP_MS = 25_000;

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let waited = 0; !condition(); waited += 50) {
    if (waited > 60_000) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

it.each([
  ['list', 'SIGTERM', ['list', '--json']],
  ['list', 'SIGINT', ['list', '--json']],
  ['create-3d --wait', 'SIGINT', ['create-3d', realFixture('images', 'robot.png'), '--wait', '--json']],
  ['create-3d --wait', 'SIGTERM', ['create-3d', realFixture('images', 'robot.png'), '--wait', '--json']],
] as const)('%s against a service that never answers ends on %s, as stopped', async (_name, signal, args) => {
  const service = await silentService();
  const child = startCli([...args], {
    ...cleanEnv({
      ASSET_STUDIO_DATA_DIR: tempDir('asset-studio-signals-'),
      ASSET_STUDIO_BASE_URL: service.url,
      ASSET_STUDIO_API_KEY: 'sk_test_signals_0123456789',
    }),
    NO_PROXY: '*',
  });
  const result = outputOf(child);
  const exited = once(child, 'exit');
  await until(() => service.connections() > 0 || child.exitCode !== null, 'the request to reach the service');
  expect(child.exitCode).toBeNull(); // still waiting on the service
  child.kill(signal);
  const sent = Date.now();
  const cap = new Promise((resolve) => setTimeout(resolve, CAP_MS, 'still running'));
  const ended = await Promise.race([exited.then(() => 'ended'), cap]);
  if (ended !== 'ended') child.kill('SIGKILL');
  expect(ended).toBe('ended');
  const { code, stdout, stderr } = await result;
  expect(code, stderr).toBe(1);
  expect((JSON.parse(stdout) as { error: { code: string } }).error.code).toBe('stopped');
  expect(stderr).toMatch(new RegExp(`error: stopped by ${signal}`));
  expect(Date.now() - sent).toBeLessThan(CAP_MS);
});
