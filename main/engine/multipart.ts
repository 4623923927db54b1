// Multipart form uploads, streamed straight to disk (busboy parses the stream; nothing is buffered whole).
import busboy from 'busboy';
import { createWriteStream } from 'node:fs';
import { open } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { pipeline } from 'node:stream/promises';
import { HttpError } from './http.ts';

export interface ReceivedFile {
  filename: string;
  size: number;
  /** The first bytes, to recognise the format. */
  head: Buffer;
}

const HEAD_BYTES = 4096;

/**
 * Writes the form field `field` to `dest`; other fields and files are skipped. Resolves undefined
 * when the form has no such file. The caller removes `dest` when it does not keep it.
 */
export function receiveFile(
  req: IncomingMessage,
  field: string,
  dest: string,
  maxBytes: number,
): Promise<ReceivedFile | undefined> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: req.headers, limits: { files: 1, fileSize: maxBytes } });
    } catch (error) {
      reject(new HttpError(400, `Malformed multipart form: ${(error as Error).message}`));
      return;
    }
    let written: Promise<ReceivedFile> | undefined;
    parser.on('file', (name, stream, info) => {
      if (name !== field || written !== undefined) {
        stream.resume();
        return;
      }
      let tooLarge = false;
      stream.on('limit', () => (tooLarge = true));
      const done = pipeline(stream, createWriteStream(dest, { mode: 0o600 })).then(async () => {
        if (tooLarge)
          throw new HttpError(413, `${field}: the file is larger than ${Math.round(maxBytes / 2 ** 30)} GiB.`);
        return { filename: info.filename ?? '', ...(await readHead(dest)) };
      });
      done.catch(() => undefined); // reported through `close` below
      written = done;
    });
    parser.on('error', (error: Error) => reject(new HttpError(400, `Malformed multipart form: ${error.message}`)));
    parser.on('close', () => (written ?? Promise.resolve(undefined)).then(resolve, reject));
    req.on('error', reject);
    req.pipe(parser);
  });
}

async function readHead(path: string): Promise<{ size: number; head: Buffer }> {
  const handle = await open(path, 'r');
  try {
    const { size } = await handle.stat();
    const head = Buffer.alloc(Math.min(size, HEAD_BYTES));
    await handle.read(head, 0, head.length, 0);
    return { size, head };
  } finally {
    await handle.close();
  }
}
