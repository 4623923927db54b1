// Downloads and API calls of the bundled launcher (bin/asset-studio.js, dist/cli) that leave the download's fast
// path, over real HTTP on 127.0.0.1 (issue #33): an output link answered with a 302 to the GLB, an output sent
// chunked, and a service reached through a forward proxy (HTTPS_PROXY / HTTP_PROXY: CONNECT for the https://
// service, absolute-form GETs for the http:// file links), its certificate trusted through NODE_EXTRA_CA_CERTS;
// NO_PROXY honoured. Before the fix the bundle failed each download with "Agent2 is not a constructor", and the
// API calls ignored the proxy.
import { beforeAll, describe, expect, it } from 'vitest';
import { realFixture } from '../../fixtures.ts';
import { cleanEnv } from '../../cli/run-cli.ts';
import { KEY, startTestEngine, type TestEngine } from '../../engine/helpers.ts';
import { tempDir } from '../../helpers.ts';
import { spawnCli } from '../cli/spawn-cli.ts';
import { certificateFor, forwardProxy, frontOf } from '../net/servers.ts';

const ROBOT = realFixture('images', 'robot.png');

let engine: TestEngine;
beforeAll(async () => {
  engine = await startTestEngine({ speed: 20_000 });
  return () => engine.dispose();
});

/** The environment of a CLI run against `baseUrl`, in a data folder of its own, with no proxy unless given. */
function envFor(baseUrl: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = cleanEnv({
    ASSET_STUDIO_DATA_DIR: tempDir('asset-studio-net-'),
    ASSET_STUDIO_BASE_URL: baseUrl,
    ASSET_STUDIO_API_KEY: KEY,
  });
  for (const name of ['HTTP_PROXY', 'HTTPS_PROXY', 'NO_PROXY', 'ALL_PROXY']) {
    delete env[name];
    delete env[name.toLowerCase()];
  }
  return { ...env, ...extra };
}

/** `create-3d robot.png --wait --json`, then `pull` of its job: both end 0, the GLB cached, nothing failed. */
async function createAndPull(env: NodeJS.ProcessEnv): Promise<void> {
  const created = await spawnCli(['create-3d', ROBOT, '--wait', '--json'], env);
  expect(created.code, created.stderr).toBe(0);
  const { job } = JSON.parse(created.stdout) as { job: { id: string; state: string } };
  expect(job.state).toBe('succeeded');
  const pulled = await spawnCli(['pull', job.id, '--json'], env);
  expect(pulled.code, pulled.stderr).toBe(0);
  expect((JSON.parse(pulled.stdout) as { failed: unknown[] }).failed).toEqual([]);
  const listed = await spawnCli(['cache', 'ls', '--json'], env);
  const entries = (JSON.parse(listed.stdout) as { entries: { kind: string; state: string }[] }).entries;
  expect(entries.filter((e) => e.state === 'complete').map((e) => e.kind)).toContain('glb');
}

describe('downloads off the fast path, through the bundled launcher', () => {
  it('follows a 302 from the output link to the GLB', async () => {
    const front = await frontOf({
      engineUrl: engine.url,
      publicOrigin: (p) => `http://127.0.0.1:${p}`,
      files: 'redirect',
    });
    await createAndPull(envFor(front.origin));
    expect(front.files.some((f) => f.startsWith('GET /files/'))).toBe(true); // the redirect was asked, then followed
  });

  it('reads an output sent chunked (no Content-Length)', async () => {
    const front = await frontOf({
      engineUrl: engine.url,
      publicOrigin: (p) => `http://127.0.0.1:${p}`,
      files: 'chunked',
    });
    await createAndPull(envFor(front.origin));
    expect(front.files.length).toBeGreaterThan(0);
  });

  it('goes through HTTPS_PROXY / HTTP_PROXY for the API calls (CONNECT) and the downloads (absolute-form), trusting NODE_EXTRA_CA_CERTS', async (context) => {
    const dir = tempDir('asset-studio-cert-');
    const tls = certificateFor('asset-service.test', dir);
    if (tls === undefined) {
      context.skip('openssl is not available to make a certificate');
      return;
    }
    const enginePort = new URL(engine.url).port;
    // Names no resolver knows: only the proxy (which reaches every name on 127.0.0.1) can connect to them.
    const front = await frontOf({
      engineUrl: engine.url,
      publicOrigin: (p) => `https://asset-service.test:${p}`,
      files: 'redirect',
      redirectOrigin: `http://cdn.test:${enginePort}`,
      tls,
    });
    const proxy = await forwardProxy();
    await createAndPull(
      envFor(front.origin, { HTTPS_PROXY: proxy.url, http_proxy: proxy.url, NODE_EXTRA_CA_CERTS: tls.certPath }),
    );
    expect(proxy.seen).toContain(`CONNECT asset-service.test:${front.port}`);
    expect(proxy.seen.some((line) => line.startsWith(`GET http://cdn.test:${enginePort}/files/`))).toBe(true);
  });

  it('reaches the hosts NO_PROXY names directly, and the others through the proxy', async () => {
    const proxy = await forwardProxy();
    const direct = await spawnCli(
      ['list', '--json'],
      envFor(engine.url, { HTTP_PROXY: proxy.url, NO_PROXY: 'example.com,127.0.0.1' }),
    );
    expect(direct.code, direct.stderr).toBe(0);
    expect(proxy.seen).toEqual([]);

    const proxied = await spawnCli(
      ['list', '--json'],
      envFor(engine.url, { HTTP_PROXY: proxy.url, no_proxy: 'example.com' }),
    );
    expect(proxied.code, proxied.stderr).toBe(0);
    expect(proxy.seen.some((line) => line.startsWith(`GET ${engine.url}/`))).toBe(true);
  });
});
