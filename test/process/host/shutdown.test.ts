// The local web host (`npm run web`, scripts/start.ts) ends within seconds on SIGTERM and Ctrl-C whatever is in
// flight, and says it stopped (main/host/shutdown.ts; issue #33): after a WebSocket upgrade it refused, whose peer
// keeps its side open (the socket was left open and the host never ended), and with the service's calls hung on a
// service that accepts and never answers. The only time limit asserted is a cap that the hang would exceed.
import { once } from 'node:events';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { cleanEnv } from '../../cli/run-cli.ts';
import { tempDir } from '../../helpers.ts';
import { silentService } from '../net/servers.ts';
import { startWebProcess } from './start-process.ts';

const CAP_MS = 25_000;
const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

/** Asks for the events' WebSocket without the token: refused (403); the peer does not close its side. */
async function refusedUpgrade(port: number): Promise<string> {
  const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true }); // it never closes its side
  cleanup.push(() => void socket.destroy());
  socket.setEncoding('latin1');
  await once(socket, 'connect');
  socket.write(
    `GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
      'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n',
  );
  const [answer] = (await once(socket, 'data')) as [string];
  return answer.split('\r\n')[0]!;
}

it.each(['SIGTERM', 'SIGINT'] as const)(
  'ends on %s after a refused WebSocket upgrade, with calls to a service that never answers in flight',
  async (signal) => {
    const service = await silentService();
    const data = tempDir('asset-studio-host-stop-');
    const env = cleanEnv({ ASSET_STUDIO_BASE_URL: service.url, ASSET_STUDIO_API_KEY: 'sk_test_host_stop_0123456789' });
    const started = await startWebProcess(
      ['--no-build', '--data-dir', join(data, 'data')],
      { ...env, NO_PROXY: '*' },
      cleanup,
    );
    if (!('child' in started)) throw new Error(`the web host did not start (exit ${started.code}): ${started.output}`);
    expect(await refusedUpgrade(Number(started.url.port))).toMatch(/^HTTP\/1\.1 403/);
    for (let waited = 0; service.connections() === 0 && waited < 30_000; waited += 50)
      await new Promise((resolve) => setTimeout(resolve, 50)); // its connection check, hung on the service
    expect(service.connections()).toBeGreaterThan(0);

    const exited = once(started.child, 'exit');
    started.child.kill(signal);
    const cap = new Promise((resolve) => setTimeout(resolve, CAP_MS, 'still running'));
    expect(await Promise.race([exited.then(() => 'ended'), cap])).toBe('ended');
    // Closed whole (the refused upgrade's socket destroyed, the hung call's connection ended), not cut short.
    expect(started.output()).toContain(`Asset Studio (web host) stopped by ${signal}.\n`);
    expect(started.child.exitCode).toBe(0);
  },
);
