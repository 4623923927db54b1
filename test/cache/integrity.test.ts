// Checks a server's own claims: a SHA-256 announced in Repr-Digest, and an ETag that must keep naming the
// same bytes. A small server stands in for the service here: the engine neither announces digests nor
// lets a file change length under one ETag.
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { DownloadCache } from '../../main/cache/download-cache.ts';
import { openDatabase, type Store } from '../../main/store/database.ts';

interface Served {
  body: Buffer;
  /** Announced as `Repr-Digest`; omitted when undefined. */
  digestOf?: Buffer;
}

let server: Server | undefined;
let cache: DownloadCache | undefined;
let store: Store | undefined;
let dir: string | undefined;
afterEach(async () => {
  await cache?.close();
  store?.close();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Serves `served.body` under the fixed ETag "v1", whatever the body is. */
async function start(served: Served): Promise<string> {
  server = createServer((_req, res) => {
    const headers: Record<string, string | number> = { etag: '"v1"', 'content-length': served.body.length };
    if (served.digestOf)
      headers['repr-digest'] = `sha-256=:${createHash('sha256').update(served.digestOf).digest('base64')}:`;
    res.writeHead(200, headers).end(served.body);
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  dir = mkdtempSync(join(tmpdir(), 'asset-studio-integrity-'));
  store = openDatabase(join(dir, 'asset-studio.db'));
  cache = new DownloadCache({ store, dir: join(dir, 'cache'), retry: { maxAttempts: 2, baseMs: 1, maxMs: 2 } });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/files/out/mesh.glb?sig=abc`;
}

const blobs = () => readdirSync(join(cache!.dir, 'blobs'), { recursive: true }).filter((p) => String(p).length > 64);

it('rejects bytes that do not match the SHA-256 the server announced, and accepts those that do', async () => {
  const served: Served = { body: Buffer.alloc(100_000, 1), digestOf: Buffer.alloc(100_000, 2) };
  const url = await start(served);
  await expect(cache!.fetchOutput({ sessionId: 'SESSION_d', kind: 'glb', url })).rejects.toMatchObject({
    reason: 'integrity',
    message: expect.stringMatching(/the glb output of session SESSION_d do not match the SHA-256 the server announced/),
  });
  expect(store!.cache.get({ sessionId: 'SESSION_d', kind: 'glb' })).toMatchObject({ state: 'failed', blobPath: null });

  served.digestOf = served.body;
  const path = await cache!.fetchOutput({ sessionId: 'SESSION_d', kind: 'glb', url });
  expect(path.endsWith(createHash('sha256').update(served.body).digest('hex'))).toBe(true);
});

it('rejects a file whose length changed under the ETag of the copy verified earlier', async () => {
  const served: Served = { body: Buffer.alloc(50_000, 7) };
  const url = await start(served);
  const path = await cache!.fetchOutput({ sessionId: 'SESSION_e', kind: 'obj', url });
  const handle = await open(path, 'r+');
  await handle.truncate(10);
  await handle.close();
  expect((await cache!.verify()).bad).toHaveLength(1);

  served.body = Buffer.alloc(60_000, 7); // longer, same ETag
  await expect(cache!.fetchOutput({ sessionId: 'SESSION_e', kind: 'obj', url })).rejects.toMatchObject({
    reason: 'integrity',
    message: expect.stringMatching(/copy verified earlier under the same ETag "v1"/),
  });
  expect(blobs()).toEqual([]);
});
