import { readFileSync, realpathSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMANDS, EVENTS, type CommandName } from '../../shared/bridge/contract.ts';
import { cachePath } from '../../shared/bridge/web-protocol.ts';
import { startDataFolderEngine } from '../../main/app/services.ts';
import type { RunningLocalEngine } from '../../main/engine/engine.ts';
import type { BridgeService } from '../../main/host/bridge-service.ts';
import { BridgeFailure } from '../../main/host/errors.ts';
import { realFixture } from '../fixtures.ts';
import { sentCreate } from '../store/sent-create.ts';
import { recordEvents, tempDir, until } from './helpers.ts';
import { fakeEncryptor, openTestBridge } from './bridge.ts';

const KEY = 'sk_live_DISTINCTIVE_Zq93kLx7TT';

async function failure(promise: Promise<unknown>): Promise<BridgeFailure['error']> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(BridgeFailure);
  return (error as BridgeFailure).error;
}

const data = tempDir('bridge');
let bridge: BridgeService;

beforeAll(async () => {
  bridge = await openTestBridge(data.path, { encryptor: fakeEncryptor() });
});

afterAll(async () => {
  await bridge.close();
  data.remove();
});

describe('inputs', () => {
  // One bad input per command, and the field the refusal must name.
  const BAD: Record<CommandName, [unknown, string]> = {
    'app.info': [42, '(body)'],
    'jobs.list': [{ limit: 0 }, 'limit'],
    'jobs.get': [{}, 'id'],
    'jobs.rename': [{ id: 'job_1', name: 5 }, 'name'],
    'jobs.delete': [{ ids: [] }, 'ids'],
    'jobs.thumbnail': [{}, 'id'],
    'jobs.cancel': [{ id: '' }, 'id'],
    'jobs.retry': [{ id: 5 }, 'id'],
    'jobs.reconcile': [{ sessionCode: 'nope' }, 'sessionCode'],
    'sessions.list': [{ page: 0 }, 'page'],
    'credits.get': [42, '(body)'],
    create: [{ endpoint: 'getImageTo3d' }, 'endpoint'],
    'batch.start': [{ files: [] }, 'files'],
    'batch.check': [{ files: [] }, 'files'],
    'batch.cancel': [{}, 'batchId'],
    'batch.expand': [{ files: [] }, 'files'],
    'batch.list': [42, '(body)'],
    'batch.forget': [{ batchIds: [''] }, 'batchIds[0]'],
    'batch.jobs': [{ ids: [5] }, 'ids[0]'],
    'cache.outputs': [{}, 'sessionId'],
    'cache.fetch': [{ jobId: '' }, 'jobId'],
    'files.meshLink': [{ file: { uploadId: 'u' }, name: '' }, 'name'],
    'cache.entries': [{ sessionId: 'SESSION_1' }, 'kind'],
    'jobs.original': [{ id: '' }, 'id'],
    'cache.models': [42, '(body)'],
    'export.detect': [{}, 'projectDir'],
    'export.plan': [{ jobId: 'job_1', projectDir: '/tmp', format: 'usdz' }, 'format'],
    'export.run': [{ jobId: 'job_1', projectDir: '/tmp', name: '' }, 'name'],
    'settings.get': ['all', '(body)'],
    'settings.update': [{ webhooks: { enabled: 'yes' } }, 'webhooks.enabled'],
    'key.set': [{ profile: 'cloud', key: 'short' }, 'key'],
    'key.remove': [{}, 'profile'],
    'dialog.openFiles': [{ multiple: 'yes' }, 'multiple'],
    'dialog.chooseFolder': [{ title: 5 }, 'title'],
    'check.run': [{ jobId: 'job_1', profile: '' }, 'profile'],
    'job.setSize': [{ jobId: 'job_1', heightM: -1 }, 'heightM'],
    'review.list': [{ jobIds: [''] }, 'jobIds[0]'],
    'review.decide': [{ jobId: 'job_1', decision: 'maybe' }, 'decision'],
    'jobs.request': [{}, 'id'],
    'export.lodPreview': [{ jobId: 'job_1', profile: 'web', level: -1 }, 'level'],
  };

  it('covers every command', () => {
    expect(Object.keys(BAD).sort()).toEqual(Object.keys(COMMANDS).sort());
  });

  for (const [command, [input, field]] of Object.entries(BAD)) {
    it(`${command} refuses a bad argument, naming ${field}`, async () => {
      const error = await failure(bridge.call(command, input));
      expect(error.code).toBe('invalid-input');
      expect(error.issues?.map((i) => i.path)).toContain(field);
      expect(error.message).toContain(field);
    });
  }

  it('refuses an unknown command', async () => {
    expect((await failure(bridge.call('jobs.delete', {}))).code).toBe('invalid-input');
  });

  it('refuses a create whose body breaks the endpoint rules, naming the field like the CLI', async () => {
    const error = await failure(
      bridge.call('create', {
        endpoint: 'createImageTo3d',
        body: { image_url: 'https://example.com/chair.png', scaled_bbox: [1, 0, 1] },
      }),
    );
    expect(error.code).toBe('invalid-input');
    expect(error.issues?.map((i) => i.path)).toContain('scaled_bbox[1]');
    expect(error.message).toMatch(/scaled_bbox\[1\]: /);
  });

  it('answers that native dialogs are not available outside Electron', async () => {
    expect((await failure(bridge.call('dialog.chooseFolder', {}))).code).toBe('unsupported');
  });

  it('detects a folder that does not exist yet as a new plain folder, not as an error', async () => {
    const fresh = join(realpathSync(data.path), 'exports', 'not-yet');
    const answer = await bridge.call('export.detect', { projectDir: fresh });
    expect(COMMANDS['export.detect'].output.parse(answer)).toEqual({
      engine: 'folder',
      root: fresh,
      dir: fresh,
      newFolder: true,
    });
    expect(await bridge.call('export.detect', { projectDir: data.path })).toEqual({
      engine: 'folder',
      root: realpathSync(data.path),
      dir: realpathSync(data.path),
    });
  });

  it('detects a typed path with .. steps as the folder it resolves to, so it can be shown before the export', async () => {
    const root = realpathSync(data.path);
    const answer = await bridge.call('export.detect', { projectDir: `${root}/exports/not-yet/../../game/..` });
    expect(COMMANDS['export.detect'].output.parse(answer)).toEqual({ engine: 'folder', root, dir: root });
  });
});

describe('jobs', () => {
  it('creates, cancels (the service may still finish) and retries as a new operation', async () => {
    const created = (await bridge.call('create', {
      endpoint: 'createTextToImage',
      body: { prompt: 'a wooden crate' },
    })) as { operationId: string; job: { id: string; label: string } };
    expect(created.job.label).toBe('a wooden crate');
    const cancelled = COMMANDS['jobs.cancel'].output.parse(await bridge.call('jobs.cancel', { id: created.job.id }))!;
    expect(cancelled).toMatchObject({ state: 'cancelled', final: true });
    expect(cancelled.error).toMatch(/may still finish/);
    expect((await failure(bridge.call('jobs.cancel', { id: created.job.id }))).code).toBe('conflict');
    const retried = COMMANDS['jobs.retry'].output.parse(await bridge.call('jobs.retry', { id: created.job.id }));
    expect(retried.id).not.toBe(created.job.id);
    expect(retried.operationId).not.toBe(created.operationId);
    expect(retried.label).toBe('a wooden crate');
    const list = COMMANDS['jobs.list'].output.parse(await bridge.call('jobs.list', {}));
    expect(list.total).toBe(2);
  });

  it('lists the model files of the cache for the viewer, with their job', async () => {
    const image = `data:image/png;base64,${readFileSync(realFixture('images', 'chair.png')).toString('base64')}`;
    const created = (await bridge.call('create', { endpoint: 'createImageTo3d', body: { image_url: image } })) as {
      job: { id: string; remoteId: string; label: string };
    };
    const listed = () => bridge.call('cache.models', {}).then((r) => COMMANDS['cache.models'].output.parse(r).models);
    let models = await listed();
    for (let tries = 0; !models.some((m) => m.sessionId === created.job.remoteId && m.kind === 'glb'); tries++) {
      if (tries > 600) throw new Error('the GLB never reached the cache');
      await new Promise((r) => setTimeout(r, 50));
      models = await listed();
    }
    const glb = models.find((m) => m.sessionId === created.job.remoteId && m.kind === 'glb')!;
    expect(glb).toMatchObject({ format: 'glb', jobId: created.job.id, url: cachePath(created.job.remoteId, 'glb') });
    expect(glb.label).toContain(created.job.label);
    expect(glb.size).toBeGreaterThan(0);
    // Images and other non-model outputs are not listed; every listed kind is a model format.
    expect(models.every((m) => ['glb', 'gltf', 'obj', 'fbx', 'usdz'].includes(m.format))).toBe(true);
  }, 60_000);

  it("exports a job without keeping the folder as the next export's when asked (remember: false, the Blender add-on's)", async () => {
    const image = `data:image/png;base64,${readFileSync(realFixture('images', 'chair.png')).toString('base64')}`;
    const created = (await bridge.call('create', { endpoint: 'createImageTo3d', body: { image_url: image } })) as {
      job: { id: string };
    };
    for (let tries = 0; ; tries++) {
      const job = (await bridge.call('jobs.get', { id: created.job.id })) as { state: string };
      if (job.state === 'succeeded') break;
      if (tries > 600) throw new Error(`the job never succeeded (${job.state})`);
      await new Promise((r) => setTimeout(r, 50));
    }
    const exported = (projectDir: string, remember?: boolean) =>
      bridge.call('export.run', {
        jobId: created.job.id,
        projectDir,
        engine: 'folder',
        format: 'glb',
        name: 'chair',
        ...(remember !== undefined && { remember }),
      });
    const remembered = async () =>
      COMMANDS['settings.get'].output.parse(await bridge.call('settings.get', {})).export.projectDir;
    const before = await remembered();
    const quiet = COMMANDS['export.run'].output.parse(await exported(join(data.path, 'addon-models'), false));
    expect(quiet.files.map((f) => f.path)).toContain(join(quiet.targetDir, 'chair.glb'));
    expect(await remembered()).toBe(before);
    await exported(join(data.path, 'by-hand'));
    expect(await remembered()).toBe(join(data.path, 'by-hand'));
  }, 60_000);

  it('does not send again a job whose answer was lost and that was cancelled: it is reconciled first (no double spend)', async () => {
    const store = bridge.services.store;
    const now = Date.now();
    sentCreate(store, 'op_lost_bridge', { endpoint: 'createTextToImage', body: { prompt: 'a lost lamp' } }, now);
    store.journal.markUnknown('op_lost_bridge', 'the connection was reset', now);
    const job = store.jobs.insert({
      kind: 'text_to_image',
      label: 'a lost lamp',
      operationId: 'op_lost_bridge',
      state: 'submission_unknown',
      rawStatus: 'submission_unknown',
      now,
    });
    store.journal.linkJob('op_lost_bridge', job.id);
    expect(COMMANDS['jobs.cancel'].output.parse(await bridge.call('jobs.cancel', { id: job.id }))).toMatchObject({
      state: 'cancelled',
    });
    const sent = store.journal.list(1000).length;
    const error = await failure(bridge.call('jobs.retry', { id: job.id }));
    expect(error.code).toBe('conflict');
    expect(error.message).toMatch(/may already exist at the service.*reconcile op_lost_bridge/);
    expect(store.journal.list(1000)).toHaveLength(sent);
  });

  it('says which job is unknown', async () => {
    const error = await failure(bridge.call('jobs.get', { id: 'job_missing' }));
    expect(error).toMatchObject({ code: 'not-found' });
    expect(error.message).toContain('job_missing');
  });
});

describe('keys', () => {
  it('refuses to store a key where the keychain is unsafe, and offers a session-only key', async () => {
    const dir = tempDir('bridge-basic-text');
    const unsafe = await openTestBridge(dir.path, {
      transport: 'electron',
      encryptor: fakeEncryptor('no keyring is running'),
    });
    try {
      await unsafe.call('settings.update', { profile: { name: 'cloud', baseUrl: 'https://api.example.com' } });
      const error = await failure(unsafe.call('key.set', { profile: 'cloud', key: KEY }));
      expect(error.code).toBe('key-storage');
      expect(error.message).toMatch(/no keyring is running.*session only/);
      expect(error.message).not.toContain(KEY);
      const view = COMMANDS['key.set'].output.parse(
        await unsafe.call('key.set', { profile: 'cloud', key: KEY, sessionOnly: true }),
      );
      expect(view.key).toEqual({ configured: true, storage: 'session-only' });
    } finally {
      await unsafe.close();
      dir.remove();
    }
  });

  describe('the key never crosses the bridge', () => {
    const remote = tempDir('bridge-remote');
    let engine: RunningLocalEngine;
    beforeAll(async () => {
      // A second engine that only accepts KEY: the bridge's service profile talks to it with that key.
      writeFileSync(join(remote.path, 'engine-key'), KEY, { mode: 0o600 });
      engine = await startDataFolderEngine(remote.path, { speed: 500 });
    });
    afterAll(async () => {
      await engine.close();
      remote.remove();
    });

    it('in no output, event or error', async () => {
      const seen = recordEvents(bridge);
      const outputs: unknown[] = [];
      const call = async (command: string, input: unknown) => {
        try {
          outputs.push(await bridge.call(command, input));
        } catch (error) {
          outputs.push((error as BridgeFailure).error);
        }
      };
      await call('settings.update', {
        profile: { name: 'cloud', baseUrl: engine.url, legacyBaseUrl: engine.legacyUrl },
      });
      await call('key.set', { profile: 'cloud', key: KEY });
      expect(statSync(join(data.path, 'api-keys.json')).mode & 0o777).toBe(0o600);
      await call('settings.update', { activeProfile: 'cloud' });
      await call('app.info', {});
      await call('create', { endpoint: 'createTextToImage', body: { prompt: `a crate ${KEY}` } });
      const jobId = (outputs.at(-1) as { job: { id: string } }).job.id;
      await until(
        () =>
          seen.events.find(
            (e) =>
              e.event === 'job' &&
              (e.payload as { id: string; final: boolean }).id === jobId &&
              (e.payload as { final: boolean }).final,
          ),
        20_000,
        'the job to end',
      );
      await call('jobs.get', { id: jobId });
      await call('jobs.list', {});
      await call('sessions.list', {});
      await call('settings.get', {});
      await call('key.set', { profile: 'nope', key: KEY });
      await call('create', { endpoint: 'createImageTo3d', body: { image_url: KEY } });
      seen.stop();
      const settings = COMMANDS['settings.get'].output.parse(outputs.at(-3));
      expect(settings.activeProfile).toBe('cloud');
      expect(settings.profiles.find((p) => p.name === 'cloud')?.key).toEqual({
        configured: true,
        storage: 'os-keychain',
      });
      for (const { event, payload } of seen.events) EVENTS[event].parse(payload);
      const text = JSON.stringify({ outputs, events: seen.events });
      expect(text).toContain('[redacted]'); // the prompt carried it: it was redacted, not dropped
      expect(text).not.toContain(KEY);
      expect(text).not.toContain(encodeURIComponent(KEY));
    });
  });
});
