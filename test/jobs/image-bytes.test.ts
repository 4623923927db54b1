// The bytes of an image URL for comparing pictures (main/jobs/image-bytes.ts) are read with the project's undici,
// never Node's built-in fetch: redirects followed, a large body sent with `Connection: close` and FIN at once read
// whole (the built-in fetch could crash the process there), errors and sizes over the cap refused with a reason.
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ImageUnavailableError, imageBytes, MAX_IMAGE_BYTES } from '../../main/jobs/image-bytes.ts';
import { onRequestHead, rejection } from '../helpers.ts';

const BIG = Buffer.alloc(8 * 2 ** 20, 7);

function head(status: string, headers: Record<string, string | number>): string {
  return `HTTP/1.1 ${status}\r\n${Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('')}\r\n`;
}

const ANSWERS: Record<string, (s: Socket) => void> = {
  '/big.png': (s) => {
    s.write(head('200 OK', { 'content-length': BIG.length, connection: 'close' }));
    s.end(BIG);
  },
  '/moved.png': (s) => s.end(head('302 Found', { location: '/big.png', 'content-length': 0, connection: 'close' })),
  '/gone.png': (s) => {
    s.write(head('404 Not Found', { 'content-length': BIG.length, connection: 'close' }));
    s.end(BIG);
  },
  '/huge.png': (s) => {
    s.write(head('200 OK', { 'content-length': 2 * 2 ** 30 }));
    s.write(BIG.subarray(0, 1000));
  },
};

let server: Server;
let base: string;
beforeAll(async () => {
  server = createServer((socket) => onRequestHead(socket, (path) => ANSWERS[path]?.(socket)));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.close();
});

describe('imageBytes of a URL', () => {
  it('reads a large body sent with Connection: close and FIN at once, after a redirect', async () => {
    expect((await imageBytes(`${base}/big.png`)).equals(BIG)).toBe(true);
    expect((await imageBytes(`${base}/moved.png`)).length).toBe(BIG.length);
  });

  it('refuses an error answer and a declared size over the cap, with the reason', async () => {
    expect((await rejection(imageBytes(`${base}/gone.png`), ImageUnavailableError)).message).toBe(
      'its download answered 404',
    );
    expect((await rejection(imageBytes(`${base}/huge.png`), ImageUnavailableError)).message).toBe(
      `it is larger than ${MAX_IMAGE_BYTES / 2 ** 20} MiB`,
    );
  });
});
