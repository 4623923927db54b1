// Where each job was made (#15): a job created on the embedded engine says 'local-engine', one created at a
// service says 'service', and each keeps its origin after the app's connection changes (the stand-in badge
// follows the job, not the current connection).
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../shared/bridge/contract.ts';
import { useBridgeAndService } from './bridge.ts';

const KEY = 'sk_live_ORIGIN_TEST_key_0001';

// A second engine plays the real service: the bridge reaches it through a service profile and a key.
const h = useBridgeAndService('origin', KEY);

const get = async (id: string) => COMMANDS['jobs.get'].output.parse(await h.bridge.call('jobs.get', { id }));
const create = async (prompt: string) =>
  COMMANDS.create.output.parse(await h.bridge.call('create', { endpoint: 'createTextToImage', body: { prompt } }));

describe('the origin of a job', () => {
  it("is 'local-engine' for a job created on the embedded engine, 'service' at a service, and stays after the connection changes", async () => {
    const info = COMMANDS['app.info'].output.parse(await h.bridge.call('app.info', {}));
    expect(info.connection.mode).toBe('local-engine');
    const local = await create('a red barrel');
    expect(local.job?.origin).toBe('local-engine');
    expect((await get(local.job!.id)).origin).toBe('local-engine');

    await h.bridge.call('settings.update', {
      profile: { name: 'cloud', baseUrl: h.service.url, legacyBaseUrl: h.service.legacyUrl },
    });
    await h.bridge.call('key.set', { profile: 'cloud', key: KEY });
    await h.bridge.call('settings.update', { activeProfile: 'cloud' });
    expect(COMMANDS['app.info'].output.parse(await h.bridge.call('app.info', {})).connection.mode).toBe('service');
    const remoteJob = await create('a blue crate');
    expect(remoteJob.job?.origin).toBe('service');

    // On the service now, the engine's job still says where it was made (in jobs.get and jobs.list).
    expect((await get(local.job!.id)).origin).toBe('local-engine');
    const listed = COMMANDS['jobs.list'].output.parse(await h.bridge.call('jobs.list', {}));
    expect(Object.fromEntries(listed.jobs.map((j) => [j.id, j.origin]))).toMatchObject({
      [local.job!.id]: 'local-engine',
      [remoteJob.job!.id]: 'service',
    });
  }, 120_000);
});
