// e2e (#17 item 8): the web host restarted on the same data folder comes back on the same port with the same
// token, so a tab left open reconnects by itself (no new link to open), shows "Live" again, and the page
// follows a job the CLI creates on that data folder while it is open.
import { describe, expect, it } from 'vitest';
import { startWebHost } from '../../main/host/web-host.ts';
import { cleanEnv, runCli } from '../cli/run-cli.ts';
import { poll, textOf, useHarness } from './harness.ts';

const h = useHarness({}, '');
const CHAIR = new URL('../../../shared/fixtures/real/images/chair.png', import.meta.url).pathname;

describe('an open tab across a restart of the web host', () => {
  it('reconnects to the host started again on the same port, and shows a job the CLI creates, live', async () => {
    const { page } = h;
    const live = page.locator('[data-testid="live"]');
    await poll(textOf(live)).toContain('Live');
    const { port, token } = h.host;
    await h.host.close();
    await poll(textOf(live)).toContain('Reconnecting');
    h.host = await startWebHost({
      dataDir: h.dataDir,
      rendererDir: h.rendererDir,
      serviceOptions: { engineSpeed: 500 },
    });
    expect(h.host.port).toBe(port);
    expect(h.host.token).toBe(token);
    // The page reconnects by itself: its sessionStorage still holds the token.
    await poll(textOf(live)).toContain('Live');

    // A job the CLI creates on this data folder shows in the open library, done.
    await h.go('#/library');
    const cli = await runCli(
      ['create-3d', CHAIR, '--engine-speed', '500'],
      cleanEnv({ ASSET_STUDIO_DATA_DIR: h.dataDir }),
    );
    expect(cli.code, cli.stderr).toBe(0);
    await poll(textOf(page.locator('.job-row', { hasText: 'chair.png' }).first().locator('.badge')), 240_000).toBe(
      'Done',
    );
    expect(h.pageErrors.filter((e) => !e.includes('favicon') && !e.includes('WebSocket'))).toEqual([]);
  });
});
