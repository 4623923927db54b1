// Reachability of the service (main/app/service-health.ts) against a real engine: reachable while it
// answers, unreachable with the reason once it is stopped, and what other requests' outcomes say.
import { rm } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { ServiceClient } from '../../main/api/client.ts';
import { NetworkError, ServiceResponseError } from '../../main/api/errors.ts';
import { healthOf, ServiceHealthMonitor, type ServiceHealth } from '../../main/app/service-health.ts';
import { KEY, startTestEngine } from '../engine/helpers.ts';

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

describe('ServiceHealthMonitor', () => {
  it('is reachable while the engine answers, unreachable (one change event) once it stops', async () => {
    const engine = await startTestEngine();
    cleanup.push(() => rm(engine.dataDir, { recursive: true, force: true })); // the test stops the engine itself
    const client = new ServiceClient({ baseUrl: engine.url, legacyBaseUrl: engine.legacyUrl, apiKey: KEY });
    cleanup.push(() => client.close());
    const monitor = new ServiceHealthMonitor({
      probe: (signal) => client.listImageTo3d({ page: 1, limit: 1 }, { signal, maxAttempts: 1 }),
    });
    const changes: ServiceHealth[] = [];
    monitor.on('change', (h) => changes.push(h));
    expect(monitor.status.state).toBe('unknown');
    expect((await monitor.check()).state).toBe('reachable');
    expect((await monitor.check()).state).toBe('reachable');
    await engine.close();
    const down = await monitor.check();
    expect(down.state).toBe('unreachable');
    expect(down.reason).toMatch(/refused the connection/);
    expect(changes.map((c) => c.state)).toEqual(['reachable', 'unreachable']);
    expect(JSON.stringify(changes)).not.toContain(KEY);
  });

  it('a wrong key is "failing" with the reason', async () => {
    const engine = await startTestEngine();
    cleanup.push(() => engine.dispose());
    const client = new ServiceClient({ baseUrl: engine.url, apiKey: 'sk_wrong_key_0123456789' });
    cleanup.push(() => client.close());
    const monitor = new ServiceHealthMonitor({
      probe: (signal) => client.listImageTo3d({ page: 1, limit: 1 }, { signal, maxAttempts: 1 }),
    });
    const status = await monitor.check();
    expect(status.state).toBe('failing');
    expect(status.reason).toMatch(/401/);
  });
});

describe('the periodic check', () => {
  it('is left out while other requests get answers, and sent again once they stop or fail', async () => {
    let clock = 0;
    let probes = 0;
    const monitor = new ServiceHealthMonitor({
      probe: async () => void probes++,
      intervalMs: 30_000,
      now: () => clock,
    });
    await monitor.due();
    expect(probes).toBe(1);
    clock = 20_000;
    monitor.record({ ok: true }); // a poll of the tracker got its answer
    clock = 30_000;
    expect(monitor.due()).toBeUndefined();
    clock = 49_000;
    expect(monitor.due()).toBeUndefined();
    clock = 50_000; // nothing answered for a whole interval
    await monitor.due();
    expect(probes).toBe(2);
    monitor.record({ error: new ServiceResponseError({ endpoint: 'GET /x', status: 503, idempotent: true }) });
    expect(monitor.status.state).toBe('failing');
    await monitor.due(); // a failing service is checked at every interval
    expect(probes).toBe(3);
    expect(monitor.status.state).toBe('reachable');
  });
});

describe('healthOf', () => {
  it('reads reachability from the outcome of any request', () => {
    const network = new NetworkError({ endpoint: 'GET /x', code: 'ECONNREFUSED', detail: '', idempotent: true });
    expect(healthOf({ error: network }, 5)).toMatchObject({ state: 'unreachable', checkedAt: 5 });
    expect(
      healthOf({ error: new ServiceResponseError({ endpoint: 'GET /x', status: 404, idempotent: true }) }, 5)?.state,
    ).toBe('reachable');
    expect(
      healthOf({ error: new ServiceResponseError({ endpoint: 'GET /x', status: 503, idempotent: true }) }, 5)?.state,
    ).toBe('failing');
    expect(healthOf({ error: new Error('not a request') }, 5)).toBeUndefined();
    expect(healthOf({ ok: true }, 5)).toEqual({ state: 'reachable', checkedAt: 5 });
  });
});
