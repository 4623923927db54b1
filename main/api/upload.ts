// A local file as a multipart/form-data body (field "file"), streamed from disk with its exact length,
// reporting progress as the file's bytes are handed to the connection. Memory stays flat at any size:
// the file is read into two buffers used in turn, so a long upload allocates nothing per chunk (fresh
// chunks would pile up as garbage, tens of MB, before the collector runs).
import { randomBytes } from 'node:crypto';
import { open, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import type { StreamBody } from './transport.ts';

export interface UploadProgress {
  /** Bytes of the file sent so far. */
  sent: number;
  /** The file's size. */
  total: number;
}

export type UploadProgressListener = (progress: UploadProgress) => void;

const FIELD = 'file';
/** Read size: large enough for full speed, small enough to keep memory flat. */
const CHUNK_BYTES = 512 * 1024;
/** Buffers used in turn; StreamBody allows reuse once the chunk after next is asked for. */
const BUFFERS = 2;

/**
 * The multipart body of one file. The file's size is taken now: if the file then changes length, sending
 * fails instead of sending a body that does not match its content-length. Rejects with the file system's
 * error (e.g. ENOENT) when the file cannot be read.
 */
export async function multipartFile(path: string, onProgress?: UploadProgressListener): Promise<StreamBody> {
  const info = await stat(path);
  if (!info.isFile()) throw new Error('not a regular file');
  const total = info.size;
  const boundary = `AssetStudioBoundary${randomBytes(12).toString('hex')}`;
  const head = Buffer.from(
    `--${boundary}\r\n` +
      `Content-Disposition: form-data; name="${FIELD}"; filename="${quoted(basename(path))}"\r\n` +
      'Content-Type: application/octet-stream\r\n\r\n',
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    length: head.length + total + tail.length,
    async *open() {
      yield head;
      const file = await open(path, 'r');
      try {
        const buffers = Array.from({ length: BUFFERS }, () => Buffer.allocUnsafe(Math.min(CHUNK_BYTES, total)));
        let sent = 0;
        onProgress?.({ sent, total });
        for (let n = 0; sent < total; n++) {
          const buffer = buffers[n % BUFFERS]!;
          const { bytesRead } = await file.read(buffer, 0, Math.min(buffer.length, total - sent), sent);
          if (bytesRead === 0)
            throw new Error(`${path} became shorter while it was being sent (${sent} of ${total} bytes)`);
          yield buffer.subarray(0, bytesRead);
          sent += bytesRead;
          onProgress?.({ sent, total });
        }
      } finally {
        await file.close();
      }
      yield tail;
    },
  };
}

/** A file name inside a quoted header parameter, escaped as browsers do (WHATWG multipart/form-data). */
function quoted(name: string): string {
  return name.replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}
