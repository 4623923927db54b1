// Issue 14, item 1: `style_id: ""` is "no style", as the service's own examples send it on every
// text-to-image create; our own client may send it too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceClient } from '../../main/api/client.ts';
import { KEY, startTestEngine, type TestEngine } from '../engine/helpers.ts';
import { pollData, pythonPost } from './third-party.ts';

let engine: TestEngine;
beforeAll(async () => {
  engine = await startTestEngine();
});
afterAll(() => engine.dispose());

describe('item 1: an empty style_id means no style', () => {
  it('creates and completes a text-to-image session sent with style_id ""', async () => {
    // requests.post(url, json={"prompt": ..., "style_id": ""}), and a Unity JsonUtility body (compact, every field).
    const python = await pythonPost(`${engine.url}/tti-sessions`, { prompt: 'a brass compass on a map', style_id: '' });
    expect(python.status).toBe(201);
    expect(python.body.data).toMatchObject({ prompt: 'a brass compass on a map', style_id: '' });
    const unity = await fetch(`${engine.url}/tti-sessions`, {
      method: 'POST',
      headers: { 'x-api-key': KEY, 'Content-Type': 'application/json' },
      body: '{"prompt":"a lantern","style_id":""}',
    });
    expect(unity.status).toBe(201);
    const done = await pollData(
      `${engine.url}/tti-sessions/${python.body.data.session_code}`,
      (d) => d.status === 'completed' || d.status === 'failed',
    );
    expect(done).toMatchObject({ status: 'completed', style_id: '' });
    expect(done.image_url).toMatch(/^http/);

    // An unknown style is still refused, naming the field and how to ask for no style.
    const unknown = await pythonPost(`${engine.url}/tti-sessions`, { prompt: 'a lantern', style_id: 'STYLE_nope' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toMatch(/style_id.*STYLE_nope.*""/);

    // Our own client sends it as given.
    const client = new ServiceClient({ baseUrl: engine.url, apiKey: KEY });
    try {
      expect((await client.createTextToImage({ prompt: 'a kite', style_id: '' })).style_id).toBe('');
    } finally {
      await client.close();
    }
  });
});
