import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSigner } from '../../main/engine/signing.ts';
import { call, completedTextToImage, download, expectSuccess, startTestEngine, type TestEngine } from './helpers.ts';

let engine: TestEngine;
let url: string;
let whole: Buffer;
beforeAll(async () => {
  engine = await startTestEngine();
  const done = await completedTextToImage(engine, { prompt: 'a teapot' });
  url = done.image_url;
  whole = (await download(url)).bytes;
});
afterAll(() => engine.dispose());

describe('file serving', () => {
  it('needs no API key and sends validators', async () => {
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(res.headers.get('accept-ranges')).toBe('bytes');
    expect(res.headers.get('etag')).toMatch(/^"[0-9a-f]{32}"$/);
    expect(Number(res.headers.get('content-length'))).toBe(whole.length);
    await res.arrayBuffer();
  });

  it('answers 304 to a matching If-None-Match', async () => {
    const etag = (await fetch(url, { method: 'HEAD' })).headers.get('etag')!;
    const cached = await download(url, { 'if-none-match': `W/"other", ${etag}` });
    expect(cached.status).toBe(304);
    expect(cached.bytes.length).toBe(0);
    expect((await download(url, { 'if-none-match': '"other"' })).status).toBe(200);
  });

  it('serves byte ranges', async () => {
    const size = whole.length;
    const middle = await download(url, { range: 'bytes=10-19' });
    expect(middle.status).toBe(206);
    expect(middle.headers.get('content-range')).toBe(`bytes 10-19/${size}`);
    expect(middle.bytes.equals(whole.subarray(10, 20))).toBe(true);

    const tail = await download(url, { range: 'bytes=100-' });
    expect(tail.bytes.equals(whole.subarray(100))).toBe(true);
    const suffix = await download(url, { range: 'bytes=-16' });
    expect(suffix.headers.get('content-range')).toBe(`bytes ${size - 16}-${size - 1}/${size}`);
    expect(suffix.bytes.equals(whole.subarray(size - 16))).toBe(true);
    const clipped = await download(url, { range: `bytes=${size - 4}-${size + 100}` });
    expect(clipped.bytes.equals(whole.subarray(size - 4))).toBe(true);

    const outside = await download(url, { range: `bytes=${size}-` });
    expect(outside.status).toBe(416);
    expect(outside.headers.get('content-range')).toBe(`bytes */${size}`);
    expect((await download(url, { range: 'bytes=0-1,5-6' })).status).toBe(200); // several ranges: whole file
  });

  it('honours If-Range only with the current ETag', async () => {
    const etag = (await fetch(url, { method: 'HEAD' })).headers.get('etag')!;
    expect((await download(url, { range: 'bytes=0-9', 'if-range': etag })).status).toBe(206);
    const stale = await download(url, { range: 'bytes=0-9', 'if-range': '"stale"' });
    expect(stale.status).toBe(200);
    expect(stale.bytes.equals(whole)).toBe(true);
  });

  it('refuses tampered, unsigned and expired URLs with 403', async () => {
    const tampered = new URL(url);
    tampered.searchParams.set('expires', String(Number(tampered.searchParams.get('expires')) + 60));
    const answer = await download(tampered.href);
    expect(answer.status).toBe(403);
    expect(JSON.parse(answer.bytes.toString()).message).toContain('signature');
    expect((await download(url.split('?')[0]!)).status).toBe(403);

    const signer = await loadSigner(engine.dataDir);
    const key = new URL(url).pathname.slice('/files/'.length);
    const past = Math.floor(Date.now() / 1000) - 1;
    const expired = await download(`${engine.url}/files/${key}?expires=${past}&sig=${signer.sign(key, past)}`);
    expect(expired.status).toBe(403);
    expect(JSON.parse(expired.bytes.toString()).message).toContain('expired');
  });

  it('hands out URLs that live as long as configured', async () => {
    const shortLived = await startTestEngine({ urlTtlMs: 60_000 });
    try {
      const session = expectSuccess(
        'createImageTo3d',
        await call(shortLived, 'createImageTo3d', { json: { image_url: 'data:image/png;base64,iVBORw0KGgo=' } }),
      );
      const expires = Number(new URL(session.image_url).searchParams.get('expires'));
      expect(expires * 1000 - Date.now()).toBeGreaterThan(50_000);
      expect(expires * 1000 - Date.now()).toBeLessThanOrEqual(61_000);
    } finally {
      await shortLived.dispose();
    }
  });

  it('answers 404 for files that do not exist', async () => {
    const missing = new URL(url);
    missing.pathname = missing.pathname.replace('image.png', 'other.png');
    expect((await download(missing.href)).status).toBe(403); // the signature covers the path
    expect((await download(`${engine.url}/files/SESSION_x/..%2fstate.json`)).status).toBe(404);
    const signer = await loadSigner(engine.dataDir);
    const key = 'SESSION_x/nothing.png';
    const expires = Math.floor(Date.now() / 1000) + 60;
    expect(
      (await download(`${engine.url}/files/${key}?expires=${expires}&sig=${signer.sign(key, expires)}`)).status,
    ).toBe(404);
  });
});
