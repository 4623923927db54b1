// Output files on disk: made from their recipes once (atomic writes, concurrent requests share one
// build), addressed by key, and handed out as signed URLs that expire. A file is built when it is first
// downloaded, not when its session is read: reading a finished session stays as fast as on the service.
// The bytes are made on the engine's worker threads (work/pool.ts), off the hosting process's event loop.
import { mkdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { moveFileDurable, writeFileDurable } from '../durable/write-file.ts';
import { companionsOf, type Output, type Recipe } from './artifacts.ts';
import { randomHex } from './ids.ts';
import type { Signer } from './signing.ts';
import { PoolClosed } from '../work/pool.ts';
import { WorkPool } from './work/pool.ts';

export const FILES_PREFIX = '/files/';

export class FileStore {
  readonly root: string;
  /** The engine's base URL; set once the server listens. */
  baseUrl = '';
  private readonly signer: Signer;
  private readonly ttlMs: number;
  private readonly ready = new Set<string>();
  private readonly building = new Map<string, Promise<void>>();
  private readonly recipes = new Map<string, Output>();
  /** Where files are made from their recipes; without a pool given, on the calling thread. */
  readonly work: WorkPool;
  private closed = false;

  constructor(root: string, signer: Signer, ttlMs: number, work: WorkPool = new WorkPool({ size: 0 })) {
    this.root = root;
    this.signer = signer;
    this.ttlMs = ttlMs;
    this.work = work;
  }

  /**
   * Makes no file any more and waits for the builds under way to end (close the pool first: their work then
   * fails at once), so that nothing writes into the folder once the engine is closed.
   */
  async close(): Promise<void> {
    this.closed = true;
    while (this.building.size > 0) await Promise.allSettled([...this.building.values()]);
  }

  path(key: string): string {
    return join(this.root, ...key.split('/'));
  }

  /**
   * A signed URL valid for the configured lifetime; '' when there is no file (yet). A file directly in its
   * owner's folder (`<owner>/<name>`) is signed alone, in the query. A file in a folder of its own
   * (`<owner>/<folder>/<name>`: an OBJ with its MTL and texture) is signed for that folder, in a path segment
   * before its name (`<owner>/<folder>/~<expires>.<sig>/<name>`), so that the files it names resolve
   * relative to its URL to URLs that carry the same signature.
   */
  url(file: Output | undefined, now = Date.now()): string {
    if (file === undefined) return '';
    const expires = Math.max(Math.ceil((now + this.ttlMs) / 1000), this.expiredThrough + 1);
    const slash = file.key.lastIndexOf('/');
    const folder = file.key.slice(0, slash);
    if (folder.includes('/')) {
      return `${this.baseUrl}${FILES_PREFIX}${folder}/~${expires}.${this.signer.sign(`${folder}/`, expires)}${file.key.slice(slash)}`;
    }
    return `${this.baseUrl}${FILES_PREFIX}${file.key}?expires=${expires}&sig=${this.signer.sign(file.key, expires)}`;
  }

  /** Does `sig` sign `signed` (a file key, or a folder key ending in `/`) until `expires`? */
  verify(signed: string, expires: number, sig: string): boolean {
    return this.signer.verify(signed, expires, sig);
  }

  /** Links whose expiry (epoch seconds) is at or before this are expired (expireIssuedLinks). */
  expiredThrough = 0;

  /**
   * Every link handed out so far expires now, as if its lifetime had run out; links handed out from now on
   * are valid for their whole lifetime. What a client that keeps links too long meets, on demand.
   */
  expireIssuedLinks(now = Date.now()): void {
    this.expiredThrough = Math.ceil((now + this.ttlMs) / 1000);
  }

  /** Makes these outputs downloadable (with the files they name): each is built from its recipe on its first download. */
  register(files: Iterable<Output | undefined>): void {
    for (const file of files) {
      if (file === undefined) continue;
      this.recipes.set(file.key, file);
      for (const companion of companionsOf(file)) this.recipes.set(companion.key, companion);
    }
  }

  /** Builds the file of a registered key if it is not on disk yet (before it is served). */
  async prepare(key: string): Promise<void> {
    const file = this.recipes.get(key);
    if (file !== undefined) await this.ensure([file]);
  }

  /** Makes every missing file from its recipe; each file is built at most once. */
  async ensure(files: Iterable<Output | undefined>): Promise<void> {
    const waits: Promise<void>[] = [];
    for (const file of files) {
      if (file === undefined || this.ready.has(file.key)) continue;
      let build = this.building.get(file.key);
      if (build === undefined) {
        build = this.build(file).finally(() => this.building.delete(file.key));
        this.building.set(file.key, build);
      }
      waits.push(build);
    }
    await Promise.all(waits);
  }

  private async build(file: Output): Promise<void> {
    const path = this.path(file.key);
    const exists = await stat(path).then(
      () => true,
      () => false,
    );
    if (!exists) {
      if (this.closed) throw new PoolClosed();
      // Outputs made from a stored input (a mesh from the session's picture) read it from this store's folder.
      const bytes = await this.work.run(
        { kind: 'artifact', recipe: file.recipe, root: this.root },
        { affinity: affinityOf(file.recipe) },
      );
      if (this.closed) throw new PoolClosed();
      await writeFileDurable(path, bytes);
    }
    this.ready.add(file.key);
  }

  /** Stores bytes the client sent. */
  async put(key: string, data: Uint8Array): Promise<void> {
    if (this.closed) throw new PoolClosed();
    await writeFileDurable(this.path(key), data);
    this.ready.add(key);
  }

  /** A fresh temp path for streaming an upload; `adopt` moves it into place. */
  async tempPath(): Promise<string> {
    const dir = join(this.root, '.tmp');
    await mkdir(dir, { recursive: true, mode: 0o700 });
    return join(dir, `${randomHex(8)}.part`);
  }

  async adopt(key: string, tempPath: string): Promise<void> {
    const path = this.path(key);
    await moveFileDurable(tempPath, path);
    this.ready.add(key);
  }
}

/**
 * What a recipe's bytes are made from, when other files are made from it too (a model from a picture, a
 * character, a seeded mesh): its files go to the worker that holds it in memory.
 */
export function affinityOf(recipe: Recipe): string | undefined {
  if ('model' in recipe) return JSON.stringify(recipe.model);
  if ('mesh' in recipe) return JSON.stringify(recipe.mesh);
  if ('character' in recipe) return recipe.character;
  if ('styleZip' in recipe && recipe.styleZip !== undefined) return recipe.styleZip; // the palette read from it
  return undefined;
}

/** Every output recorded anywhere in the engine's state (objects with a string `key` and a `recipe`). */
export function* outputsIn(value: unknown): Generator<Output> {
  if (Array.isArray(value)) {
    for (const item of value) yield* outputsIn(item);
  } else if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    if (typeof record.key === 'string' && record.recipe !== null && typeof record.recipe === 'object')
      yield record as unknown as Output;
    else for (const item of Object.values(record)) yield* outputsIn(item);
  }
}
