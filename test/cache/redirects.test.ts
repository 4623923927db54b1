// A download's redirects (main/cache/downloader.ts) are followed within the limits of the engine's input reader
// (shared/url-reading.ts): 5 hops, to http(s) only, never with more than Range / If-Range; a chunked body past the
// size cap is refused. Over real HTTP on 127.0.0.1, through the downloader's fast path and undici (general-get.ts).
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { downloadDispatcher } from '../../main/cache/general-get.ts';
import { DownloadError, Downloader } from '../../main/cache/downloader.ts';
import { MAX_REDIRECTS } from '../../shared/url-reading.ts';
import { tempDir } from '../helpers.ts';

const GLB = randomBytes(200_000);

async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Downloads `url` with a fresh downloader into a temporary folder: the blob's bytes, or the error. */
async function download(url: string): Promise<Buffer | DownloadError> {
  const dir = tempDir();
  const dispatcher = downloadDispatcher();
  onTestFinished(() => dispatcher.close());
  const downloader = new Downloader({ dispatcher, retry: { maxAttempts: 1 } });
  try {
    const blob = await downloader.download({
      label: 'the GLB (glb) of session SESSION_1',
      url,
      cacheDir: dir,
      partPath: join(dir, 'tmp', 'model.part'),
      known: { etag: null, size: null, sha256: null, bytesDone: 0 },
      onStarted: () => {},
      onCheckpoint: () => {},
    });
    return readFileSync(join(dir, blob.blobPath));
  } catch (error) {
    if (error instanceof DownloadError) return error;
    throw error;
  }
}

describe('redirects of a download', () => {
  it(`follows ${MAX_REDIRECTS} redirects (301, 302, 303, 307, 308) to the file, sending only Range-related headers`, async () => {
    const seen: IncomingMessage['headers'][] = [];
    const paths = new Set<string>();
    const origin = await serve((req, res) => {
      seen.push(req.headers);
      paths.add(req.url!);
      const hop = Number(/^\/hop\/(\d)/.exec(req.url!)?.[1] ?? NaN);
      if (hop < MAX_REDIRECTS) {
        res.writeHead([301, 302, 303, 307, 308][hop]!, { location: `/hop/${hop + 1}?sig=x` }).end();
      } else res.writeHead(200, { 'content-length': GLB.length }).end(GLB);
    });
    const got = await download(`${origin}/hop/0?sig=s`);
    expect(got).toEqual(GLB);
    // Each hop once (the first also by the fast path, which leaves redirects to undici).
    expect(paths.size).toBe(MAX_REDIRECTS + 1);
    for (const headers of seen) expect(Object.keys(headers).filter((h) => /key|auth|cookie/i.test(h))).toEqual([]);
  });

  it('stops after one redirect too many, and names it', async () => {
    const origin = await serve((req, res) => res.writeHead(302, { location: `${req.url}x` }).end());
    const error = await download(`${origin}/loop?sig=s`);
    expect(error).toBeInstanceOf(DownloadError);
    expect((error as DownloadError).message).toContain(`redirects more than ${MAX_REDIRECTS} times`);
    expect((error as DownloadError).message).not.toContain('sig=');
  });

  it('never follows a redirect to another scheme than http(s), nor one without a Location', async () => {
    const origin = await serve((req, res) => {
      if (req.url!.startsWith('/file')) res.writeHead(302, { location: 'file:///etc/passwd' }).end();
      else res.writeHead(307).end();
    });
    const toFile = await download(`${origin}/file`);
    expect((toFile as DownloadError).message).toContain('redirects to a file: URL, which the app does not follow');
    const nowhere = await download(`${origin}/nowhere`);
    expect((nowhere as DownloadError).message).toContain('without saying where to');
  });

  it('follows a redirect to another origin, whose chunked body is read by undici', async () => {
    const cdn = await serve((_req, res) => {
      res.writeHead(200, { 'transfer-encoding': 'chunked' });
      res.write(GLB.subarray(0, 1000));
      res.end(GLB.subarray(1000));
    });
    const origin = await serve((_req, res) => res.writeHead(302, { location: `${cdn}/blob.glb` }).end());
    const got = await download(`${origin}/files/model.glb?sig=s`);
    expect(
      createHash('sha256')
        .update(got as Buffer)
        .digest('hex'),
    ).toBe(createHash('sha256').update(GLB).digest('hex'));
  });
});
