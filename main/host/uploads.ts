// Files dropped on the web page: each request body is streamed to `<dataDir>/uploads/<id>/<name>` (never
// held in memory), under a size limit, and named by an upload id that `create` and `batch.start` accept.
// The folder is emptied when the host stops.
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { basename, join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { UploadAnswer } from '../../shared/bridge/web-protocol.ts';
import { WEB_PROTOCOL } from '../../shared/bridge/web-protocol.ts';
import { AppError, invalidInput, notFound } from '../../shared/errors.ts';
import { DEFAULT_LIMITS } from '../files/limits.ts';
import { formatBytes } from '../../shared/format-bytes.ts';

/** The largest file any inspection accepts (FBX and zip: 2 GiB by default). */
export const MAX_UPLOAD_BYTES = Math.max(
  DEFAULT_LIMITS.maxFbxBytes,
  DEFAULT_LIMITS.maxZipBytes,
  DEFAULT_LIMITS.maxImageBytes,
);

export class UploadStore {
  readonly dir: string;
  readonly #maxBytes: number;
  readonly #paths = new Map<string, string>();

  constructor(dataDir: string, maxBytes = MAX_UPLOAD_BYTES) {
    this.dir = join(dataDir, 'uploads');
    this.#maxBytes = maxBytes;
  }

  /** Streams the request body to a new upload. Throws an AppError when it is refused. */
  async receive(req: IncomingMessage): Promise<UploadAnswer> {
    const name = safeName(req.headers[WEB_PROTOCOL.fileNameHeader]);
    const declared = Number(req.headers['content-length'] ?? Number.NaN);
    if (declared > this.#maxBytes) throw tooLarge(name, declared, this.#maxBytes);
    const uploadId = `upload_${randomUUID()}`;
    const folder = join(this.dir, uploadId);
    const path = join(folder, name);
    await mkdir(folder, { recursive: true, mode: 0o700 });
    let size = 0;
    const maxBytes = this.#maxBytes;
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        size += chunk.length;
        done(size > maxBytes ? tooLarge(name, size, maxBytes) : null, chunk);
      },
    });
    try {
      await pipeline(req, counter, createWriteStream(path, { mode: 0o600 }));
    } catch (error) {
      await rm(folder, { recursive: true, force: true });
      if (error instanceof AppError) throw error;
      throw new AppError('cancelled', `The upload of ${name} was cut off before its end. Drop the file again.`);
    }
    if (size === 0) {
      await rm(folder, { recursive: true, force: true });
      throw invalidInput('The upload', [
        { path: name, message: 'is empty (0 bytes); check that the file was saved completely' },
      ]);
    }
    this.#paths.set(uploadId, path);
    return { uploadId, name, size };
  }

  /** The local path of an upload of this run. */
  path(uploadId: string): string {
    const path = this.#paths.get(uploadId);
    if (path === undefined)
      throw notFound(
        `The uploaded file ${uploadId} is not known (uploads last until Asset Studio stops). Drop the file again.`,
      );
    return path;
  }

  async clear(): Promise<void> {
    this.#paths.clear();
    await rm(this.dir, { recursive: true, force: true });
  }
}

/** The file's own name, kept for its extension and as the job's label; anything unsafe replaced. */
function safeName(header: string | string[] | undefined): string {
  let raw = Array.isArray(header) ? header[0] : header;
  try {
    raw = decodeURIComponent(raw ?? '');
  } catch {
    // keep it as sent
  }
  const name = basename((raw ?? '').replace(/\\/g, '/'))
    .replace(/[^\w.\- ()+,]/g, '_')
    .replace(/^\.+/, '')
    .slice(-120);
  return name === '' ? 'file' : name;
}

function tooLarge(name: string, size: number, max: number): AppError {
  return new AppError(
    'upload-too-large',
    `${name} is too large (${formatBytes(size)}; at most ${formatBytes(max)} can be uploaded). Use a smaller file.`,
  );
}
