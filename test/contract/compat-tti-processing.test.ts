// Issue 14, item 8: text-to-image sessions answer `processing` at creation and while running (the official
// SDK knows only that one); our own client keeps accepting `in_progress` too.
import { rm } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { ServiceClient } from '../../main/api/client.ts';
import { normaliseStatus } from '../../shared/contract/lifecycle.ts';
import { KEY, makeDataDir, startTestEngine } from '../engine/helpers.ts';
import { pollData, pythonGet, pythonPost } from './third-party.ts';

describe('item 8: text-to-image status while running', () => {
  it('is processing at creation and while running; our client also follows a session reporting in_progress', async () => {
    const dataDir = await makeDataDir();
    try {
      // At real speed an image takes 10 s at least: the reads below happen while it runs.
      const slow = await startTestEngine({ dataDir, speed: 1 });
      let codes: string[];
      const client = new ServiceClient({ baseUrl: slow.url, apiKey: KEY });
      try {
        const created = await pythonPost(`${slow.url}/tti-sessions`, { prompt: 'a paper lantern', style_id: '' });
        expect(created.body.data.status).toBe('processing');
        expect((await pythonGet(`${slow.url}/tti-sessions/${created.body.data.session_code}`)).body.data.status).toBe(
          'processing',
        );
        // A service answering in_progress (allowed by the seed), made explicit with a fault rule.
        slow.faults.add({ kind: 'session-status', status: 'in_progress', match: { endpoint: 'createTextToImage' } });
        const other = await client.createTextToImage({ prompt: 'a paper boat' });
        expect(other.status).toBe('in_progress');
        const read = await client.getTextToImage(other.session_code);
        expect(read.status).toBe('in_progress');
        expect(normaliseStatus('text_to_image', read.status)).toMatchObject({ state: 'running', final: false });
        codes = [created.body.data.session_code, other.session_code];
      } finally {
        await client.close();
        await slow.close();
      }
      const fast = await startTestEngine({ dataDir, speed: 1000 });
      const fastClient = new ServiceClient({ baseUrl: fast.url, apiKey: KEY });
      try {
        expect((await pollData(`${fast.url}/tti-sessions/${codes[0]}`, (d) => d.status !== 'processing')).status).toBe(
          'completed',
        );
        let done = await fastClient.getTextToImage(codes[1]!);
        while (!normaliseStatus('text_to_image', done.status).final) done = await fastClient.getTextToImage(codes[1]!);
        expect(done.status).toBe('completed');
        expect(done.image_url).toMatch(/^http/);
      } finally {
        await fastClient.close();
        await fast.close();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
