// A replay of the real service, inside the test process: node:http on 127.0.0.1, port 0. It answers the
// service's endpoints with the bodies of test/replay/fixtures/ (what the vendor's documentation, its SDK and
// its own evaluation scripts show the service answering; see fixtures/README.md), walks the lifecycles those
// bodies show (one step further at each read), and serves the file URLs it hands out, signed Azure-style
// (`?sp=r&st=…&se=…&spr=https&sv=2022-11-02&sr=b&sig=…`), with the bytes of real files of shared/fixtures/real/.
// Every request is logged, so a test can also check that nothing was sent.
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join } from 'node:path';
import { realFixture } from '../fixtures.ts';

export const REPLAY_KEY = 'sk_replay_0123456789abcdef';

/** The signature query of the URLs the service hands out (shape of an Azure blob SAS, as in the SDK's examples). */
export const SAS =
  'sp=r&st=2024-05-23T14:35:54Z&se=2025-05-23T22:35:54Z&spr=https&sv=2022-11-02&sr=b&sig=cmVwbGF5LW5vdC1hLXJlYWwtc2lnbmF0dXJlLTAwMDA%3D';

const FIXTURES = join(import.meta.dirname, 'fixtures');

/** A fixture body as JSON text, with its file host and signature filled in. */
export function fixtureText(name: string, files: string): string {
  return readFileSync(join(FIXTURES, `${name}.json`), 'utf8')
    .replaceAll('{{files}}', files)
    .replaceAll('{{sas}}', SAS);
}

export function fixture<T = any>(name: string, files = 'https://files.example'): T {
  return JSON.parse(fixtureText(name, files)) as T;
}

/** Real bytes for a file the service hands out, by its extension. */
const FILE_BYTES: Record<string, () => Buffer> = {
  '.glb': () => readFileSync(realFixture('glb', 'BoxTextured.glb')),
  '.fbx': () => readFileSync(realFixture('fbx', 'Male_Casual.fbx')),
  '.obj': () => readFileSync(realFixture('obj', 'suzanne', 'blender_282_suzanne.obj')),
  '.png': () => readFileSync(realFixture('images', 'chair.png')),
  '.jpg': () => readFileSync(realFixture('images', 'fox.jpg')),
  '.zip': () => readFileSync(realFixture('zip', 'Platformer Kit (1.0).zip')),
};
const CONTENT_TYPES: Record<string, string> = {
  '.glb': 'model/gltf-binary',
  '.fbx': 'application/octet-stream',
  '.obj': 'text/plain',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.zip': 'application/zip',
};

export interface LoggedRequest {
  method: string;
  /** Path and query as received. */
  url: string;
  path: string;
  query: URLSearchParams;
  body: any;
}

/** How the list endpoint reads its `page` query: a page number, or the number of records to skip. */
export type PageReading = 'page-number' | 'records-skipped';

/** An answer given instead of the fixture's, once, to the next request that matches. */
export interface Override {
  method: string;
  /** Matched against the path (a string must be equal; a RegExp must match). */
  path: string | RegExp;
  status?: number;
  body?: unknown;
  /** Do the work, then close the connection without an answer (a lost answer). */
  drop?: boolean;
  /** How many requests it answers (default 1). */
  times?: number;
  /** Only requests whose query this accepts. */
  query?: (query: URLSearchParams) => boolean;
}

/** The statuses an image-to-3D session goes through, one per read (the last one stays). */
export type Lifecycle = readonly Record<string, unknown>[];

interface Session {
  /** Fixture body (data) of the session at its current step, before the step's fields. */
  base: Record<string, unknown>;
  steps: Lifecycle;
  step: number;
}

export class ReplayServer {
  readonly requests: LoggedRequest[] = [];
  url = '';
  /** How the list endpoint reads `page`. */
  pageReading: PageReading = 'page-number';
  readonly #server: Server;
  readonly #overrides: Override[] = [];
  readonly #sessions = new Map<string, Session>();
  readonly #v3 = new Map<string, { steps: Record<string, unknown>[]; step: number }>();
  readonly #animations = new Map<string, { steps: Record<string, unknown>[]; step: number }>();
  /** Older-form records the list endpoint answers with, newest first. */
  listed: Record<string, unknown>[] = [];
  /** What a create of an image-to-3D session answers (data), before its code is made. */
  createAnswer: 'older' | 'current' = 'older';
  /** Lifecycle of a session made by POST /image-to-3d-sessions. */
  createLifecycle: Lifecycle = OLDER_LIFECYCLE;
  #counter = 0;

  constructor() {
    this.#server = createServer((req, res) => {
      this.#handle(req, res).catch((error: unknown) => {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: 'replay', message: String(error), statusCode: 500 }));
      });
    });
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
    return this;
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  /** The host of the file URLs (a blob container path on this server). */
  get files(): string {
    return `${this.url}/blob`;
  }

  fixture<T = any>(name: string): T {
    return fixture<T>(name, this.files);
  }

  /** The next matching request(s) get this answer instead. */
  override(o: Override): void {
    this.#overrides.push({ times: 1, ...o });
  }

  /** Requests to the service's endpoints (file downloads left out). */
  apiRequests(): LoggedRequest[] {
    return this.requests.filter((r) => !r.path.startsWith('/blob/'));
  }

  /** An image-to-3D session that walks these steps (fields merged over the base body), one per read. */
  addSession(base: Record<string, unknown>, steps: Lifecycle = [{}]): string {
    const code = String(base.session_code);
    this.#sessions.set(code, { base, steps, step: 0 });
    return code;
  }

  /** A v3 session read back as these bodies, one per read (the last one stays). */
  addV3(id: string, steps: Record<string, unknown>[]): void {
    this.#v3.set(id, { steps, step: 0 });
  }

  addAnimation(code: string, steps: Record<string, unknown>[]): void {
    this.#animations.set(code, { steps, step: 0 });
  }

  /** A new session code, as the service makes them. */
  newCode(): string {
    this.#counter++;
    return `SESSION_${1732000000 + this.#counter}_${String(4270760 + this.#counter).padStart(7, '0')}`;
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://replay');
    const raw = await readBody(req);
    let body: any = raw;
    if (raw !== '' && String(req.headers['content-type'] ?? '').includes('json')) body = JSON.parse(raw);
    const method = req.method ?? 'GET';
    const path = decodeURIComponent(url.pathname);
    this.requests.push({ method, url: req.url ?? '/', path, query: url.searchParams, body });

    if (path.startsWith('/blob/')) return this.#serveFile(path, url.searchParams, res);
    if (req.headers['x-api-key'] !== REPLAY_KEY)
      return send(res, 401, { error: 'Unauthorized', message: 'Invalid API key', statusCode: 401 });

    const at = this.#overrides.findIndex(
      (o) =>
        o.method === method &&
        (typeof o.path === 'string' ? o.path === path : o.path.test(path)) &&
        (o.query === undefined || o.query(url.searchParams)),
    );
    const override = at >= 0 ? this.#overrides[at]! : undefined;
    if (override) {
      override.times = (override.times ?? 1) - 1;
      if (override.times <= 0) this.#overrides.splice(at, 1);
      if (!override.drop) return send(res, override.status ?? 200, override.body);
    }
    const answer = this.#route(method, path, url.searchParams, body);
    if (override?.drop) {
      req.socket.destroy(); // the work is done, the answer is lost
      return;
    }
    if (!answer) return send(res, 404, { error: 'Not Found', message: `no route ${method} ${path}`, statusCode: 404 });
    send(res, answer.status, answer.body);
  }

  #route(
    method: string,
    path: string,
    query: URLSearchParams,
    body: any,
  ): { status: number; body: unknown } | undefined {
    const env = (data: unknown, message = 'Retrieved', status = 200) => ({
      status,
      body: { error: '', message, statusCode: status, data },
    });
    let m: RegExpExecArray | null;
    if (method === 'POST' && path === '/image-to-3d-sessions') {
      const code = this.newCode();
      const now = new Date().toISOString();
      const data =
        this.createAnswer === 'older'
          ? { ...this.fixture('image-to-3d-create-older').data, created_at: now, updated_at: now }
          : { ...this.fixture('image-to-3d-get-current').data, session_status: 'queued', percent_done: 0 };
      data.session_code = code;
      data.image_url = typeof body?.image_url === 'string' ? body.image_url : data.image_url;
      this.addSession(this.#sessionBase(code, data), this.createLifecycle);
      const listed = this.fixture('image-to-3d-list').data.results[0];
      this.listed.unshift({
        ...listed,
        session_code: code,
        image_url: data.image_url,
        created_at: now,
        status: 'uploaded',
      });
      return env(data, 'Created', 201);
    }
    if (method === 'GET' && path === '/image-to-3d-sessions') return env(this.#list(query));
    if ((m = /^\/image-to-3d-sessions\/get-mesh\/([^/]+)$/.exec(path)) && method === 'GET') {
      const s = this.#read(m[1]!, false);
      if (!s) return undefined;
      const keys = ['mesh_url_usdz', 'mesh_url_glb', 'mesh_url', 'mesh_url_zip', 'preview_mesh_url_zip'] as const;
      const rec: Record<string, unknown> = Object.fromEntries(keys.map((k) => [k, s[k] ?? '']));
      rec.preview_mesh_url_glb = s.preview_mesh_url_glb ?? '';
      rec.preview_mesh_url_usdz = s.preview_mesh_url_usdz ?? '';
      rec.status = s.status ?? s.session_status;
      return env([rec]);
    }
    if ((m = /^\/image-to-3d-sessions\/get-3d\/(preview|refine)\/([^/]+)$/.exec(path)) && method === 'POST') {
      const ack = this.fixture('get-3d-refine-ack').data;
      const text = JSON.stringify(ack).replaceAll('SESSION_P_44569824122', m[2]!).replaceAll('refine', m[1]!);
      return env(JSON.parse(text), 'Generating Mesh');
    }
    if ((m = /^\/image-to-3d-sessions\/([^/]+)$/.exec(path)) && method === 'GET') {
      const s = this.#read(m[1]!, true);
      return s ? env(s) : undefined;
    }
    if (method === 'POST' && path === '/tti-sessions') {
      const data = this.fixture('text-to-image-create').data;
      data.session_code = this.newCode();
      data.prompt = body?.prompt ?? data.prompt;
      return env(data, 'Created', 201);
    }
    if (method === 'POST' && path === '/tti-styles')
      return env(this.fixture('text-to-image-style-create').data, 'Created', 201);
    if (method === 'GET' && path === '/mesh-animation') return env(this.fixture('mesh-animation-list').data);
    if (method === 'POST' && path === '/mesh-animation/upload') {
      const data = this.fixture('mesh-animation-upload').data;
      const code = this.newCode();
      const got = this.fixture('mesh-animation-get').data;
      const read = (status: string, extra: Record<string, unknown> = {}) =>
        JSON.parse(JSON.stringify({ ...got, status, prompts: [], ...extra }).replaceAll(got.session_code, code));
      // As the vendor's list and get examples show it: being read, then ready, then its library clips made.
      this.addAnimation(code, [
        read('init_processing', { animation_url: '', animation_library: [] }),
        read('init_done', { animation_url: '', animation_library: [] }),
        read('predefined_done'),
      ]);
      return env({ ...data, session_code: code }, 'Success');
    }
    if (method === 'POST' && path === '/mesh-animation/text-multi') {
      const a = this.#animations.get(String(body?.session_code));
      if (!a) return undefined;
      const got = this.fixture('mesh-animation-get').data;
      const code = String(body.session_code);
      const texts: string[] = Array.isArray(body?.texts) ? body.texts : [];
      const prompt = (text: string, i: number, status: string) => ({
        ...got.prompts[0],
        _id: `65f2f507fc53d02bcdb9b2c${i}`,
        session_code: code,
        text,
        status,
        mesh_url: status === 'text_done' ? `${this.files}/animations/${code}_prompt_${i}.fbx?${SAS}` : '',
      });
      const last = a.steps.at(-1)!;
      a.steps = [
        { ...last, prompts: texts.map((t, i) => prompt(t, i, 'text_processing')) },
        { ...last, status: 'predefined_done', prompts: texts.map((t, i) => prompt(t, i, 'text_done')) },
      ];
      a.step = 0;
      return env({ responses: texts.map((text) => ({ text, message: 'Success', isError: false })) }, 'Success');
    }
    if ((m = /^\/mesh-animation\/([^/]+)$/.exec(path)) && method === 'GET') {
      const a = this.#animations.get(m[1]!);
      if (!a) return undefined;
      const data = a.steps[Math.min(a.step, a.steps.length - 1)];
      a.step++;
      return env(data);
    }
    if (method === 'POST' && path === '/v3/sessions') {
      const id = this.newCode();
      if (body?.type === 'retopology') {
        const done = this.fixture('retopology-get');
        const text = JSON.stringify(done).replaceAll(done._id, id);
        const complete = JSON.parse(text);
        const meshUrl = String(body.input?.mesh ?? '');
        complete.input.mesh.data.glb_url = meshUrl;
        complete.input.model = body.input?.model ?? 'swift';
        const incomplete = structuredClone(complete);
        incomplete.status = 'incomplete';
        for (const mesh of incomplete.output.meshes) {
          mesh.status = 'incomplete';
          mesh.data = { obj_url: '', image_url: '' };
        }
        this.addV3(id, [incomplete, complete]);
        return { status: 201, body: incomplete };
      }
      const created = this.fixture('v3-image-to-3d-create');
      created._id = id;
      const complete = this.fixture('v3-image-to-3d-complete');
      complete._id = id;
      this.addV3(id, [created, complete]);
      return { status: 201, body: created };
    }
    if ((m = /^\/v3\/sessions\/([^/]+)$/.exec(path)) && method === 'GET') {
      const v = this.#v3.get(m[1]!);
      if (!v) return undefined;
      const data = v.steps[Math.min(v.step, v.steps.length - 1)];
      v.step++;
      return { status: 200, body: data };
    }
    return undefined;
  }

  /** The session's body at its current step; a read by GET moves it one step on. */
  #read(code: string, advance: boolean): Record<string, any> | undefined {
    const s = this.#sessions.get(code);
    if (!s) return undefined;
    const step = s.steps[Math.min(s.step, s.steps.length - 1)]!;
    if (advance) s.step++;
    const text = JSON.stringify({ ...s.base, ...step });
    return JSON.parse(text.replaceAll('{{files}}', this.files).replaceAll('{{sas}}', SAS));
  }

  /** A session's fields from the create answer, with its files at this server. */
  #sessionBase(code: string, created: Record<string, unknown>): Record<string, unknown> {
    const older = this.fixture('image-to-3d-get-older').data;
    const text = JSON.stringify({ ...older, ...created, status: older.status }).replaceAll(older.session_code, code);
    const base = JSON.parse(text);
    delete base.status;
    return base;
  }

  /** The list, as the service pages it: `page` read as a page number (from 1) or as the records to skip. */
  #list(query: URLSearchParams): Record<string, unknown> {
    const limit = Number(query.get('limit') ?? 10);
    const page = Number(query.get('page') ?? (this.pageReading === 'page-number' ? 1 : 0));
    const skip = this.pageReading === 'page-number' ? (page - 1) * limit : page;
    const all = this.listed;
    return {
      ...this.fixture('image-to-3d-list').data,
      results: all.slice(skip, skip + limit),
      page,
      skip,
      limit,
      totalPages: Math.max(1, Math.ceil(all.length / limit)),
      totalResults: all.length,
    };
  }

  #serveFile(path: string, query: URLSearchParams, res: ServerResponse): void {
    // A signed URL is refused without its signature, as a blob store would.
    if (!query.get('sig') || query.get('sp') !== 'r') {
      res.writeHead(403, { 'content-type': 'application/xml' });
      res.end('<?xml version="1.0" encoding="utf-8"?><Error><Code>AuthenticationFailed</Code></Error>');
      return;
    }
    const ext = extname(path).toLowerCase();
    const bytes = FILE_BYTES[ext]?.();
    if (!bytes) {
      res.writeHead(404, { 'content-type': 'application/xml' });
      res.end('<?xml version="1.0" encoding="utf-8"?><Error><Code>BlobNotFound</Code></Error>');
      return;
    }
    res.writeHead(200, {
      'content-type': CONTENT_TYPES[ext] ?? 'application/octet-stream',
      'content-length': bytes.length,
      'x-ms-blob-type': 'BlockBlob',
    });
    res.end(bytes);
  }
}

/** The older flow as the official SDK follows it: spins, then the preview mesh (`training_preview`), then the refine. */
export const OLDER_LIFECYCLE: Lifecycle = [
  { status: 'spin_generate_processing' },
  { status: 'spin_generate_done' },
  { status: 'training_preview' },
  {
    status: 'preview_done',
    preview_mesh_url_glb: '{{files}}/preview/mesh.glb?{{sas}}',
  },
];

export async function startReplay(): Promise<ReplayServer> {
  return new ReplayServer().start();
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (text += chunk));
    req.on('end', () => resolve(text));
    req.on('error', reject);
  });
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}
