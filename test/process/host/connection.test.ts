import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { WEB_PROTOCOL } from '../../../shared/bridge/web-protocol.ts';
import { cleanEnv } from '../../cli/run-cli.ts';
import { KEY, startTestEngine, type TestEngine } from '../../engine/helpers.ts';
import { openTestBridge } from '../../host/bridge.ts';
import { raw, recordEvents, tempDir, until } from '../../host/helpers.ts';
import { startWebProcess } from './start-process.ts';

const cleanup: (() => Promise<void> | void)[] = [];

afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

/** Starts `node scripts/start.ts --web --no-build` as a user would, until it prints its address (or ends). */
const startWeb = (env: NodeJS.ProcessEnv, dataDir: string) =>
  startWebProcess(['--no-build', '--data-dir', dataDir], env, cleanup);

function call(url: URL, command: string, input: unknown) {
  return raw(Number(url.port), {
    method: 'POST',
    path: `${WEB_PROTOCOL.callPrefix}${command}`,
    headers: {
      host: url.host,
      'content-type': 'application/json',
      authorization: `Bearer ${url.searchParams.get(WEB_PROTOCOL.tokenParam)}`,
    },
    body: JSON.stringify(input),
  });
}

async function engine(): Promise<TestEngine> {
  const started = await startTestEngine();
  cleanup.push(async () => {
    await started.close().catch(() => undefined); // some tests stop it themselves
    await rm(started.dataDir, { recursive: true, force: true });
  });
  return started;
}

describe('npm run web with ASSET_STUDIO_BASE_URL and ASSET_STUDIO_API_KEY', () => {
  it('talks to that service: a job created through the host is in that engine', async () => {
    const service = await engine();
    const data = tempDir('web-connection');
    cleanup.push(() => data.remove());
    const env = cleanEnv({
      ASSET_STUDIO_BASE_URL: service.url,
      ASSET_STUDIO_LEGACY_BASE_URL: service.legacyUrl,
      ASSET_STUDIO_API_KEY: KEY,
    });
    const started = await startWeb(env, join(data.path, 'data'));
    if (!('child' in started)) throw new Error(`the web host did not start (exit ${started.code}): ${started.output}`);
    expect(started.output()).toContain(
      `Connected to: The service at ${service.url}, from ASSET_STUDIO_BASE_URL; API key from ASSET_STUDIO_API_KEY.`,
    );

    const info = JSON.parse((await call(started.url, 'app.info', {})).body) as {
      mode: string;
      connection: Record<string, unknown>;
    };
    expect(info.mode).toBe('service');
    expect(info.connection).toEqual({
      origin: 'environment',
      mode: 'service',
      address: service.url,
      keySource: 'environment',
    });

    const created = await call(started.url, 'create', {
      endpoint: 'createTextToImage',
      body: { prompt: 'a lamp for the other engine' },
    });
    expect(created.status).toBe(200);
    const code = (JSON.parse(created.body) as { job: { remoteId: string } }).job.remoteId;
    expect(code).toMatch(/^SESSION_/);
    const there = await fetch(`${service.url}/tti-sessions/${code}`, { headers: { 'x-api-key': KEY } });
    expect(there.status).toBe(200);
    expect(((await there.json()) as { data: { prompt: string } }).data.prompt).toBe('a lamp for the other engine');
    expect(started.output() + JSON.stringify(info) + created.body).not.toContain(KEY);
  });

  it('an address without a key stops the start with what to do, instead of using the local engine', async () => {
    const data = tempDir('web-connection');
    cleanup.push(() => data.remove());
    const started = await startWeb(cleanEnv({ ASSET_STUDIO_BASE_URL: 'http://127.0.0.1:9' }), join(data.path, 'data'));
    expect('code' in started && started.code).not.toBe(0);
    expect(started.output).toMatch(/ASSET_STUDIO_BASE_URL\) but no API key: pass --api-key-file FILE/);
  });
});

describe('the bridge', () => {
  it('says where its connection comes from and reports the service unreachable once it stops answering', async () => {
    const service = await engine();
    const data = tempDir('bridge-connection');
    cleanup.push(() => data.remove());
    const bridge = await openTestBridge(data.path, {
      services: { healthIntervalMs: 200 },
      connectionSources: { env: { ASSET_STUDIO_BASE_URL: service.url, ASSET_STUDIO_API_KEY: KEY } },
    });
    cleanup.push(() => bridge.close());
    const events = recordEvents(bridge);
    cleanup.push(() => events.stop());
    await until(
      () => (bridge.services.health.status.state === 'reachable' ? true : undefined),
      15_000,
      'a first answer',
    );
    const info = (await bridge.call('app.info', {})) as { connection: unknown; service: { state: string } };
    expect(info.connection).toEqual({
      origin: 'environment',
      mode: 'service',
      address: service.url,
      keySource: 'environment',
    });
    expect(info.service.state).toBe('reachable');

    await service.close();
    const down = await until(
      () =>
        events.events.find((e) => e.event === 'service' && (e.payload as { state: string }).state === 'unreachable'),
      15_000,
      'the service event',
    );
    expect((down.payload as { reason: string }).reason).toMatch(/refused the connection/);
    expect(((await bridge.call('app.info', {})) as { service: { state: string } }).service.state).toBe('unreachable');
    expect(JSON.stringify(events.events)).not.toContain(KEY);
  });
});
