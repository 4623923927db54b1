// Issue 14, item 3: a style still training is accepted (a client cannot read a style back to learn when its
// training ends): the session waits for the training and then applies the style. A style whose training
// fails fails the sessions waiting for it.
import { rm } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { download, inputUrl, makeDataDir, PNG_SIGNATURE, startTestEngine } from '../engine/helpers.ts';
import { pollData, pythonGet, pythonPost } from './third-party.ts';

describe('item 3: a style that is still training', () => {
  it('is accepted; the session waits for the training, then completes with the style (or fails with it)', async () => {
    const dataDir = await makeDataDir();
    try {
      // At real speed a style trains for 84 s at least: everything below happens while it trains.
      const slow = await startTestEngine({ dataDir, speed: 1 });
      let codes: { good: string; bad: string; styleId: string };
      try {
        const style = await pythonPost(`${slow.url}/tti-styles`, {
          zip_url: inputUrl('ink.zip'),
          description: 'ink wash',
          is_public: false,
        });
        expect(style.body.data.status).toBe('training');
        slow.faults.add({ kind: 'session-failure', match: { endpoint: 'createStyle' } });
        const doomed = await pythonPost(`${slow.url}/tti-styles`, {
          zip_url: inputUrl('bad.zip'),
          description: 'never trains',
        });
        const good = await pythonPost(`${slow.url}/tti-sessions`, {
          prompt: 'a crane in the reeds',
          style_id: style.body.data.style_id,
        });
        expect(good.status).toBe(201);
        expect(good.body.data).toMatchObject({
          style_id: style.body.data.style_id,
          status: 'processing',
          image_url: '',
        });
        const bad = await pythonPost(`${slow.url}/tti-sessions`, {
          prompt: 'a heron',
          style_id: doomed.body.data.style_id,
        });
        expect(bad.status).toBe(201);
        const waiting = await pythonGet(`${slow.url}/tti-sessions/${good.body.data.session_code}`);
        expect(waiting.body.data).toMatchObject({ status: 'processing', image_url: '' });
        codes = {
          good: good.body.data.session_code,
          bad: bad.body.data.session_code,
          styleId: style.body.data.style_id,
        };
      } finally {
        await slow.close();
      }
      // The same data, a fast engine: the training ends, then the sessions.
      const fast = await startTestEngine({ dataDir, speed: 100_000 });
      try {
        const done = await pollData(
          `${fast.url}/tti-sessions/${codes.good}`,
          (d) => d.status === 'completed' || d.status === 'failed',
        );
        expect(done).toMatchObject({ status: 'completed', style_id: codes.styleId });
        expect((await download(done.image_url)).bytes.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
        const failed = await pollData(
          `${fast.url}/tti-sessions/${codes.bad}`,
          (d) => d.status === 'completed' || d.status === 'failed',
        );
        expect(failed).toMatchObject({ status: 'failed', image_url: '' });
        // A style known to have failed its training is refused, saying so.
        const refused = await pythonPost(`${fast.url}/tti-sessions`, { prompt: 'a heron', style_id: failed.style_id });
        expect(refused.status).toBe(400);
        expect(refused.body.message).toMatch(/style_id: .*training ended failed/);
      } finally {
        await fast.close();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
