// A model file of this computer handed to the embedded local engine, which reads a retopology's input mesh
// from a URL (the service takes a GLB URL or an ASSET_ id, and has no upload for retopology): the file is
// served read-only on 127.0.0.1 at an unguessable address for an hour, to that engine only. A remote service
// cannot reach this machine, so it is never given such a link: the caller refuses with what to do instead.
import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { basename, extname } from 'node:path';
import { AppError } from '../../shared/errors.ts';

const LINK_LIFETIME_MS = 60 * 60_000;
const TYPES: Readonly<Record<string, string>> = {
  '.glb': 'model/gltf-binary',
  '.obj': 'text/plain',
  '.fbx': 'application/octet-stream',
};
export const LINKABLE_MESH_EXTENSIONS = Object.keys(TYPES);

export class MeshLinkError extends AppError<'invalid-input'> {
  constructor(message: string) {
    super('invalid-input', message);
  }
}

export class MeshLinks {
  readonly #files = new Map<string, { path: string; until: number }>();
  #server: Server | undefined;
  #origin: Promise<string> | undefined;

  /** A loopback URL of the file (`.glb`, `.obj` or `.fbx`) for the local engine; valid for an hour. */
  async link(path: string, name = basename(path)): Promise<string> {
    const extension = extname(name).toLowerCase();
    if (!TYPES[extension])
      throw new MeshLinkError(
        `${name} is not a GLB, OBJ or FBX file: retopology takes a model in one of these formats.`,
      );
    const size = await stat(path).then(
      (s) => s.size,
      () => 0,
    );
    if (size === 0) throw new MeshLinkError(`${name} is empty or could not be read: choose the model file again.`);
    const token = randomBytes(24).toString('base64url');
    const now = Date.now();
    for (const [key, file] of this.#files) if (file.until < now) this.#files.delete(key);
    this.#files.set(token, { path, until: now + LINK_LIFETIME_MS });
    return `${await this.#start()}/${token}/${encodeURIComponent(basename(name))}`;
  }

  #start(): Promise<string> {
    this.#origin ??= new Promise((resolve, reject) => {
      const server = createServer((req, res) => {
        const [, token, name] = (req.url ?? '').split('/');
        const file = token ? this.#files.get(token) : undefined;
        if (req.method !== 'GET' || !file || file.until < Date.now()) return void res.writeHead(404).end();
        res.writeHead(200, {
          'content-type': TYPES[extname(decodeURIComponent(name ?? '')).toLowerCase()] ?? 'application/octet-stream',
        });
        createReadStream(file.path)
          .on('error', () => res.destroy())
          .pipe(res);
      });
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`));
      server.unref();
      this.#server = server;
    });
    return this.#origin;
  }

  async close(): Promise<void> {
    const server = this.#server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise((done) => server.close(done));
  }
}
