// Requests shaped as the public clients other people wrote for the service send them (a Python script with
// `requests`, a Unity script with UnityWebRequest), not through our own client: plain fetch, bodies written
// as those clients write them, only the base URL pointed at the engine. Plus a loopback file server for
// the inputs such clients name by URL.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { KEY } from '../engine/helpers.ts';

/** JSON as Python's `json.dumps` writes it by default (`", "` and `": "` separators, non-ASCII escaped). */
export function pythonJson(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string')
    return JSON.stringify(value).replace(
      /[\u007f-\uffff]/g,
      (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
    );
  if (Array.isArray(value)) return `[${value.map(pythonJson).join(', ')}]`;
  return `{${Object.entries(value as Record<string, unknown>)
    .map(([k, v]) => `${pythonJson(k)}: ${pythonJson(v)}`)
    .join(', ')}}`;
}

export interface RawAnswer {
  status: number;
  /** The parsed JSON body (the text when it is not JSON). */
  body: any;
}

async function answer(res: Response): Promise<RawAnswer> {
  const text = await res.text();
  try {
    return { status: res.status, body: JSON.parse(text) };
  } catch {
    return { status: res.status, body: text };
  }
}

/** `requests.post(url, headers={"x-api-key": KEY, "Content-Type": "application/json"}, data=json.dumps(body))`. */
export async function pythonPost(url: string, body: unknown, key = KEY): Promise<RawAnswer> {
  return answer(
    await fetch(url, {
      method: 'POST',
      headers: {
        'x-api-key': key,
        'Content-Type': 'application/json',
        'User-Agent': 'python-requests/2.31.0',
        Accept: '*/*',
      },
      body: pythonJson(body),
    }),
  );
}

/** `requests.get(url, headers={"x-api-key": KEY})`. */
export async function pythonGet(url: string, key = KEY): Promise<RawAnswer> {
  return answer(
    await fetch(url, { headers: { 'x-api-key': key, 'User-Agent': 'python-requests/2.31.0', Accept: '*/*' } }),
  );
}

/** A Unity script's `UnityWebRequest.Post(url, form)` with a file in the multipart field `file`. */
export async function unityUpload(url: string, bytes: Uint8Array, filename: string, key = KEY): Promise<RawAnswer> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)], { type: 'application/octet-stream' }), filename);
  return answer(
    await fetch(url, {
      method: 'POST',
      headers: { 'x-api-key': key, 'User-Agent': 'UnityPlayer/2022.3.10f1 (UnityWebRequest/1.0, libcurl/8.1.1-DEV)' },
      body: form,
    }),
  );
}

/** Polls the GET `url` until `done` holds for the answer's `data` (or the bare body of /v3). */
export async function pollData(url: string, done: (data: any) => boolean, limitMs = 20_000): Promise<any> {
  const until = Date.now() + limitMs;
  for (;;) {
    const got = await pythonGet(url);
    const data = url.includes('/v3/') ? got.body : got.body?.data;
    if (got.status === 200 && done(data)) return data;
    if (Date.now() > until)
      throw new Error(`condition not reached in ${limitMs} ms; last answer: ${JSON.stringify(got).slice(0, 500)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export interface LoopbackFiles {
  /** The URL of `path` on this server. */
  url(path: string): string;
  close(): Promise<void>;
}

/** Serves fixed files on 127.0.0.1 (any other path: 404), as a bucket would serve a client's inputs. */
export async function serveFiles(files: Record<string, { type: string; bytes: Uint8Array }>): Promise<LoopbackFiles> {
  const server: Server = createServer((req, res) => {
    const file = files[new URL(req.url ?? '/', 'http://x').pathname];
    if (file === undefined) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': file.type, 'content-length': file.bytes.length });
    res.end(req.method === 'HEAD' ? undefined : file.bytes);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
