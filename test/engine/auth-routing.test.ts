import { describe, expect, it } from 'vitest';
import { ENDPOINTS, fillPath, type EndpointId } from '../../shared/contract/index.ts';
import { call, expectError, send, useTestEngine } from './helpers.ts';

const engine = useTestEngine();

const UNKNOWN = 'SESSION_000000000000000000000000';
const anyPath = (id: EndpointId) => fillPath(ENDPOINTS[id].path, { session_code: UNKNOWN, session_id: UNKNOWN });

describe('authentication', () => {
  it.each(Object.keys(ENDPOINTS) as EndpointId[])('%s answers 401 without a key and with a wrong key', async (id) => {
    const def = ENDPOINTS[id];
    const url = `${def.base === 'legacy' ? engine.legacyUrl : engine.url}${anyPath(id)}`;
    const missing = await send(url, { method: def.method, headers: { 'x-api-key': '' } });
    expectError(missing, 401, 'Missing x-api-key header');
    expect(missing.body.error).toBe('Unauthorized');
    if (def.envelope) expect(missing.body.data).toBeNull();
    else expect(missing.body).not.toHaveProperty('data');

    const wrong = await send(url, { method: def.method, headers: { 'x-api-key': 'sk_wrong_secret_value' } });
    expectError(wrong, 401, 'Invalid API key');
    expect(JSON.stringify(wrong.body)).not.toContain('sk_wrong_secret_value');
  });
});

describe('routing', () => {
  it.each(['getImageTo3d', 'getMesh', 'getTextToImage', 'getAnimation', 'preview', 'refine'] as const)(
    '%s of an unknown session is a 404 envelope',
    async (id) => {
      const answer = await call(engine, id, {
        params: { session_code: UNKNOWN },
        ...(ENDPOINTS[id].method === 'POST' ? { json: {} } : {}),
      });
      expectError(answer, 404, `Session ${UNKNOWN} not found`);
      expect(answer.body.error).toBe('Not Found');
      expect(answer.body.data).toBeNull();
    },
  );

  it('unknown sessions in bodies are 404 too', async () => {
    expectError(
      await call(engine, 'submitSpin', { json: { session_code: UNKNOWN, image_urls: ['https://x/a.png'] } }),
      404,
      UNKNOWN,
    );
    expectError(
      await call(engine, 'submitTextAnimations', { json: { session_code: UNKNOWN, texts: ['walk'] } }),
      404,
      UNKNOWN,
    );
  });

  it('v3 errors are bare objects without data', async () => {
    const answer = await call(engine, 'getV3Session', { params: { session_id: UNKNOWN } });
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({ error: 'Not Found', message: `Session ${UNKNOWN} not found`, statusCode: 404 });
  });

  it('an unknown route is a 404, a wrong method a 405', async () => {
    expectError(await send(`${engine.url}/nothing-here`), 404, '/nothing-here');
    const wrongMethod = await send(`${engine.url}/tti-sessions`);
    expectError(wrongMethod, 405);
    expect(wrongMethod.headers.get('allow')).toBe('POST');
  });

  it('a malformed JSON body is a 400', async () => {
    const answer = await send(`${engine.url}/tti-sessions`, {
      body: '{"prompt": ',
      headers: { 'content-type': 'application/json' },
    });
    expectError(answer, 400, 'Malformed JSON body');
    expect(answer.body.error).toBe('Bad Request');
  });

  it('the legacy address serves only the older create variant differently', async () => {
    const older = await call(engine, 'createImageTo3dLegacy', { json: { image_url: 'https://x/a.png' } });
    expect(older.status).toBe(201);
    expect(older.body.data.status).toBe('uploaded');
    const list = await send(`${engine.legacyUrl}/image-to-3d-sessions`);
    expect(list.status).toBe(200);
  });
});
