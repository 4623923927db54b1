// Shared helpers of the cache tests: files hosted by the real engine (through its FileStore, so they are
// served with the engine's signed URLs, ETags and ranges), a proxy that records the requests, hashing.
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';
import { join } from 'node:path';
import { FileStore } from '../../main/engine/file-store.ts';
import { loadSigner } from '../../main/engine/signing.ts';
import type { RunningLocalEngine } from '../../main/engine/engine.ts';

export interface HostedFile {
  /** A freshly signed URL. */
  url(): string;
  /** The file on the engine's disk. */
  path: string;
  sha256: string;
}

/** Puts `size` bytes of varied content at `key` in the engine's files and returns how to reach them. */
export async function hostFile(
  engine: RunningLocalEngine & { dataDir: string },
  key: string,
  size: number,
  ttlMs = 3_600_000,
): Promise<HostedFile> {
  const files = new FileStore(join(engine.dataDir, 'files'), await loadSigner(engine.dataDir), ttlMs);
  files.baseUrl = engine.url;
  const temp = await files.tempPath();
  const sha256 = await writeVaried(temp, size);
  await files.adopt(key, temp);
  return { url: () => files.url({ key, recipe: { type: 'input' } }), path: files.path(key), sha256 };
}

/** Writes `size` bytes: a random MiB repeated, each copy stamped with its index, so no two MiB are equal. */
export async function writeVaried(path: string, size: number): Promise<string> {
  const block = randomBytes(1 << 20);
  const hash = createHash('sha256');
  const handle = await open(path, 'w');
  try {
    for (let offset = 0, i = 0; offset < size; offset += block.length, i++) {
      block.writeUInt32BE(i, 0);
      const part = block.subarray(0, Math.min(block.length, size - offset));
      hash.update(part);
      await handle.write(part, 0, part.length, offset);
    }
  } finally {
    await handle.close();
  }
  return hash.digest('hex');
}

export function sha256File(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}

export interface RecordingProxy {
  /** `url` with the proxy's origin instead of the engine's. */
  via(url: string): string;
  /** The request lines and Range / If-Range headers seen, in order. */
  requests: { line: string; range: string | undefined; ifRange: string | undefined }[];
  close(): Promise<void>;
}

/** A TCP proxy in front of the engine that records each request's first line and Range headers. */
export async function recordingProxy(engineUrl: string): Promise<RecordingProxy> {
  const target = new URL(engineUrl);
  const requests: RecordingProxy['requests'] = [];
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(Number(target.port), target.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    }
    client.on('data', (chunk: Buffer) => {
      for (const head of chunk.toString('latin1').split(/\r\n\r\n/)) {
        const line = /^(GET|HEAD) \S+ HTTP\/1\.1/m.exec(head)?.[0];
        if (line)
          requests.push({
            line,
            range: /^range: *(\S+)/im.exec(head)?.[1],
            ifRange: /^if-range: *(\S+)/im.exec(head)?.[1],
          });
      }
      upstream.write(chunk);
    });
    upstream.pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    via: (url) => origin + url.slice(target.origin.length),
    requests,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
  };
}
