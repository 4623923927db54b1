// Webhooks end to end: the engine sends signed notifications, the receiver verifies and dedupes them,
// and the tracker re-reads the session it names. Bad, replayed and stale deliveries change nothing.
import { describe, expect, it } from 'vitest';
import { parseWebhookBody, startWebhookReceiver } from '../../main/jobs/webhook-receiver.ts';
import { signWebhook, verifyWebhook, webhookHeaders } from '../../main/formats/webhook-signature.ts';
import { closeAfterEach, makeHarness, PNG } from './harness.ts';
import { inputUrl } from '../engine/helpers.ts';

const SECRET = `whsec_${Buffer.from('a secret of thirty-two bytes!!!!').toString('base64')}`;

const closing = closeAfterEach();

describe('webhook signatures (Standard Webhooks)', () => {
  const body = '{"type":"session_status_changed","session_id":"SESSION_1"}';
  const now = 1_763_700_000_000;
  it('accepts a valid signature among several, refuses wrong, stale and missing ones', () => {
    const headers = webhookHeaders(SECRET, 'msg_1', body, now);
    const h1 = {
      id: headers['webhook-id'],
      timestamp: headers['webhook-timestamp'],
      signature: `v1,AAAA ${headers['webhook-signature']}`,
    };
    expect(verifyWebhook(SECRET, h1, body, now)).toEqual({ ok: true });
    expect(verifyWebhook(SECRET, h1, `${body} `, now).ok).toBe(false);
    expect(verifyWebhook('whsec_b3RoZXI=', h1, body, now).ok).toBe(false);
    expect(verifyWebhook(SECRET, h1, body, now + 5 * 60_000 + 1001)).toEqual({
      ok: false,
      reason: expect.stringMatching(/tolerance/),
    });
    expect(verifyWebhook(SECRET, { ...h1, signature: undefined }, body, now).ok).toBe(false);
    expect(signWebhook(SECRET, 'msg_1', now / 1000, body)).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
  });

  it('reads both payload forms', () => {
    expect(
      parseWebhookBody(
        '{"type":"session_status_changed","session_id":"SESSION_a","old_status":"queued","new_status":"complete"}',
      ),
    ).toEqual({ sessionId: 'SESSION_a', type: 'session_status_changed', newStatus: 'complete' });
    expect(parseWebhookBody('{"type":"preview_done","payload":{"session_code":"SESSION_b"}}')).toEqual({
      sessionId: 'SESSION_b',
      type: 'preview_done',
      newStatus: 'preview_done',
    });
    expect(parseWebhookBody('{"type":"x"}')).toBeUndefined();
    expect(parseWebhookBody('not json')).toBeUndefined();
  });
});

describe('webhooks end to end', () => {
  it('jobs finish with at most 2 reads each when the engine sends signed webhooks', async () => {
    const h = await makeHarness({ speed: 50, tracker: { webhooks: () => true } });
    closing(() => h.dispose());
    const receiver = await startWebhookReceiver({
      store: h.store,
      secret: SECRET,
      onEvent: (e) => h.tracker.wake(e.sessionId, e.newStatus),
    });
    closing(() => receiver.close());
    h.engine.webhooks.configure({ url: receiver.url, secret: SECRET });
    const reads = () =>
      h.engine.faults.requestCount('getImageTo3d') +
      h.engine.faults.requestCount('getTextToImage') +
      h.engine.faults.requestCount('getV3Session');
    const before = reads();
    const jobs = [
      await h.submitter.submit('createImageTo3d', { body: { image_url: PNG } }, { label: 'a' }),
      await h.submitter.submit('createImageTo3d', { body: { image_url: PNG } }, { label: 'b' }),
      await h.submitter.submit('createTextToImage', { body: { prompt: 'lamp' } }, { label: 'c' }),
      await h.submitter.submit(
        'createRetopology',
        { body: { type: 'retopology', input: { mesh: inputUrl('x.glb') } } },
        { label: 'd' },
      ),
    ];
    h.tracker.start();
    const done = await h.tracker.waitFor(
      jobs.map((j) => j.job!.id),
      AbortSignal.timeout(30_000),
    );
    expect(done.every((j) => j.state === 'succeeded')).toBe(true);
    expect(reads() - before).toBeLessThanOrEqual(2 * jobs.length);
    expect(h.engine.webhooks.sent).toBeGreaterThanOrEqual(jobs.length);
  });

  it('bad, replayed and stale deliveries are refused or ignored and wake nothing', async () => {
    const h = await makeHarness({ speed: 10 });
    closing(() => h.dispose());
    const woken: string[] = [];
    const receiver = await startWebhookReceiver({
      store: h.store,
      secret: SECRET,
      onEvent: (e) => woken.push(e.sessionId),
    });
    closing(() => receiver.close());
    const body = JSON.stringify({
      type: 'session_status_changed',
      session_id: 'SESSION_w',
      old_status: 'queued',
      new_status: 'complete',
    });
    const post = (headers: Record<string, string>, text = body) =>
      fetch(receiver.url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: text });

    const good = webhookHeaders(SECRET, 'msg_good', body);
    expect((await post(good)).status).toBe(204);
    expect(woken).toEqual(['SESSION_w']);

    expect((await post(good)).status).toBe(204); // a replay of the same delivery: answered, ignored
    expect(
      (await post({ ...webhookHeaders(SECRET, 'msg_tampered', body) }, body.replace('complete', 'failed'))).status,
    ).toBe(401);
    expect((await post(webhookHeaders('whsec_d3Jvbmcgc2VjcmV0', 'msg_wrong', body))).status).toBe(401);
    expect((await post(webhookHeaders(SECRET, 'msg_stale', body, Date.now() - 10 * 60_000))).status).toBe(401);
    expect((await post({})).status).toBe(401);
    expect(woken).toEqual(['SESSION_w']);
    expect(h.store.webhooks.recordIfNew('msg_tampered', { sessionId: null, eventType: null, now: Date.now() })).toBe(
      true,
    ); // refused ones were not recorded
  });

  it('without a secret, notifications are taken as wake-up calls and still deduped', async () => {
    const h = await makeHarness({ speed: 10 });
    closing(() => h.dispose());
    const woken: string[] = [];
    const receiver = await startWebhookReceiver({ store: h.store, onEvent: (e) => woken.push(e.sessionId) });
    closing(() => receiver.close());
    const body = JSON.stringify({ type: 'preview_done', payload: { session_code: 'SESSION_p' } });
    for (let i = 0; i < 2; i++)
      await fetch(receiver.url, { method: 'POST', headers: { 'webhook-id': 'msg_same' }, body });
    expect(woken).toEqual(['SESSION_p']);
    expect((await fetch(receiver.url, { method: 'POST', body: 'garbage' })).status).toBe(400);
    expect((await fetch(receiver.url.replace('/webhooks', '/other'), { method: 'POST', body })).status).toBe(404);
  });
});
