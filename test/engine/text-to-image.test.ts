import { describe, expect, it } from 'vitest';
import {
  call,
  download,
  expectSuccess,
  inputUrl,
  PNG_SIGNATURE,
  pollUntil,
  startTestEngine,
  useTestEngine,
} from './helpers.ts';

const engine = useTestEngine();

const read = async (code: string) =>
  expectSuccess('getTextToImage', await call(engine, 'getTextToImage', { params: { session_code: code } }));

describe('text-to-image', () => {
  it('creates in progress, completes with a 512 x 512 PNG', async () => {
    const created = expectSuccess(
      'createTextToImage',
      await call(engine, 'createTextToImage', { json: { prompt: 'a red lighthouse at dusk' } }),
    );
    expect(created).toMatchObject({
      prompt: 'a red lighthouse at dusk',
      style_id: '',
      guidance: 7.5,
      type: 'manual',
      image_url: '',
      is_deleted: false,
    });
    expect(['in_progress', 'processing']).toContain(created.status);
    const done = await pollUntil(
      () => read(created.session_code),
      (s) => s.status === 'completed',
    );
    const png = await download(done.image_url);
    expect(png.headers.get('content-type')).toBe('image/png');
    expect(png.bytes.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
    expect([png.bytes.readUInt32BE(16), png.bytes.readUInt32BE(20)]).toEqual([512, 512]);
  });

  it('fails when a session-failure fault rule says so, never because of its prompt', async () => {
    const finished = (code: string) =>
      pollUntil(
        () => read(code),
        (s) => s.status === 'failed' || s.status === 'completed',
      );
    const failsafe = expectSuccess(
      'createTextToImage',
      await call(engine, 'createTextToImage', { json: { prompt: 'a red fire extinguisher with a failsafe pin' } }),
    );
    expect(await finished(failsafe.session_code)).toMatchObject({ status: 'completed' });
    engine.faults.add({ kind: 'session-failure', match: { endpoint: 'createTextToImage' } });
    const created = expectSuccess(
      'createTextToImage',
      await call(engine, 'createTextToImage', { json: { prompt: 'a lamp' } }),
    );
    expect(await finished(created.session_code)).toMatchObject({ status: 'failed', image_url: '' });
    // A rule naming a session fails the step of it that ends next.
    const named = expectSuccess(
      'createTextToImage',
      await call(engine, 'createTextToImage', { json: { prompt: 'a chair' } }),
    );
    engine.faults.add({ kind: 'session-failure', match: { session: named.session_code } });
    expect(await finished(named.session_code)).toMatchObject({ status: 'failed', image_url: '' });
    expect(engine.faults.list()).toEqual([]);
  });

  it('trains a style that text-to-image can then use', async () => {
    const style = expectSuccess(
      'createStyle',
      await call(engine, 'createStyle', { json: { zip_url: inputUrl('ink.zip'), description: 'ink wash' } }),
    );
    expect(style).toMatchObject({
      status: 'training',
      is_public: false,
      description: 'ink wash',
      zip_url: inputUrl('ink.zip'),
      image_url: '',
    });
    const withStyle = await pollUntil(
      () => call(engine, 'createTextToImage', { json: { prompt: 'a crane', style_id: style.style_id } }),
      (answer) => answer.status === 201,
    );
    const created = expectSuccess('createTextToImage', withStyle);
    expect(created.style_id).toBe(style.style_id);
    const done = await pollUntil(
      () => read(created.session_code),
      (s) => s.status === 'completed',
    );
    expect(done.image_url).not.toBe('');
  });

  it('accepts a style that is still training: the session waits for it', async () => {
    const slow = await startTestEngine({ speed: 1 });
    try {
      const style = expectSuccess(
        'createStyle',
        await call(slow, 'createStyle', { json: { zip_url: inputUrl('a.zip'), description: 'a', is_public: true } }),
      );
      expect(style.is_public).toBe(true);
      const created = expectSuccess(
        'createTextToImage',
        await call(slow, 'createTextToImage', { json: { prompt: 'x', style_id: style.style_id } }),
      );
      expect(created).toMatchObject({ style_id: style.style_id, status: 'processing', image_url: '' });
      expect(
        expectSuccess(
          'getTextToImage',
          await call(slow, 'getTextToImage', { params: { session_code: created.session_code } }),
        ).status,
      ).toBe('processing');
    } finally {
      await slow.dispose();
    }
  });
});
