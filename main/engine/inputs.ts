// Reading the inputs of sessions, as the service does: the image of an image-to-3D session or a spin, the
// mesh of a retopology or an animation upload, the zip of a style. A data URI (or an upload) is already
// stored; a URL is fetched: one of the engine's own file URLs is read from its files (whatever port the
// engine had when it signed it), any other URL over HTTP, redirects followed, within a size cap and a time
// limit. Other hosts than this machine are read too unless the engine is set to refuse them. URLs are read with
// the project's undici (its own Agent, closed with the reader), never Node's built-in fetch, whose bundled
// undici could crash the whole process on a body sent with `Connection: close` and not read at once; every
// response's body is read to its end or destroyed, within the size cap, the time limit (from connecting to
// the last byte) and an idle limit between chunks. The bytes are
// stored for the processors and checked to be what the session needs; when they cannot be read or are not
// the right kind, the input records why and its session fails with that message.
import { createWriteStream } from 'node:fs';
import { copyFile, rm } from 'node:fs/promises';
import { STATUS_CODES } from 'node:http';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Agent, request, type Dispatcher } from 'undici';
import type { Output } from './artifacts.ts';
import type { FileStore } from './file-store.ts';
import { signedFileUrl } from './files.ts';
import { formatBytes } from '../../shared/format-bytes.ts';
import { checkInput, INPUT_WHAT, InputProblem, MAX_IMAGE_INPUT_BYTES, type InputKind } from './input-check.ts';
import { isReadableScheme, MAX_REDIRECTS, MAX_URL_READ_BYTES, REDIRECT_STATUSES } from '../../shared/url-reading.ts';

export type { InputKind } from './input-check.ts';

/** An input of a session: the URL the client gave or the bytes it sent, and once read, the stored bytes or why they cannot be used. */
export interface InputRef {
  /** The URL the client gave; absent when it sent the bytes (a data URI or an upload). */
  url?: string;
  /** The stored bytes: at once for bytes sent, once read for a URL. */
  file?: Output;
  /** What the input must be; absent in records from before inputs were read (taken as they are). */
  kind?: InputKind;
  /** Being read (fetched and checked). */
  reading?: boolean;
  /** Why the input cannot be used: the whole message, for the session. */
  error?: string;
  /** When reading ended (epoch ms). */
  settled_at?: number;
  /** Where a URL's bytes go: `<read_key>.<extension>` under the files folder. */
  read_key?: string;
}

export interface InputSettings {
  /** Largest input read, in bytes (images: MAX_IMAGE_INPUT_BYTES at most). Default 1 GiB. */
  maxBytes: number;
  /** Time to read one input, from connecting to its last byte. Default 60 s. */
  timeoutMs: number;
  /** Read URLs of other hosts than this machine (`allow`, the default) or only loopback ones and data URIs (`refuse`). */
  remoteHosts: 'allow' | 'refuse';
}

export const DEFAULT_INPUT_SETTINGS: InputSettings = {
  maxBytes: MAX_URL_READ_BYTES,
  timeoutMs: 60_000,
  remoteHosts: 'allow',
};
export const REMOTE_INPUTS_ENV = 'ASSET_STUDIO_ENGINE_REMOTE_INPUTS';

/** The size cap of one kind (a URL's body is cut as soon as it passes it, while it streams) of input: images MAX_IMAGE_INPUT_BYTES, the others the general cap. */
export function maxBytesOf(kind: InputKind, settings: Pick<InputSettings, 'maxBytes'>): number {
  return kind === 'image' ? Math.min(settings.maxBytes, MAX_IMAGE_INPUT_BYTES) : settings.maxBytes;
}

export class InputReader {
  private readonly files: FileStore;
  private readonly settings: InputSettings;
  private readonly save: (changed: InputRef) => Promise<void>;
  private readonly closing = new AbortController();
  private readonly running = new Set<Promise<void>>();
  /** The connections of URL reads; destroyed by close(). */
  private readonly agent: Agent;

  constructor(files: FileStore, settings: InputSettings, save: (changed: InputRef) => Promise<void>) {
    this.files = files;
    this.settings = settings;
    this.save = save;
    this.agent = new Agent({
      connect: { timeout: Math.min(settings.timeoutMs, 30_000) },
      headersTimeout: settings.timeoutMs,
      bodyTimeout: Math.min(settings.timeoutMs, 30_000), // at most this long without a byte
      keepAliveTimeout: 1_000,
    });
  }

  /**
   * Starts reading `ref` as a `kind` (it is marked `reading` at once) and returns; a URL's bytes are stored
   * under `<key>.<extension>`. When reading ends, the ref holds the file or the error, and the state is saved.
   */
  read(ref: InputRef, kind: InputKind, key: string): void {
    ref.kind = kind;
    ref.reading = true;
    ref.read_key = key;
    delete ref.error;
    const job = this.run(ref, kind, key).finally(() => this.running.delete(job));
    this.running.add(job);
  }

  /** Reads again every input that was being read when the engine stopped. */
  resume(state: unknown): void {
    for (const { ref, key } of readingInputs(state)) this.read(ref, ref.kind!, key);
  }

  /** Resolves once no input is being read. */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }

  /** Stops every read under way (they stay `reading`, and are read again at the next start). */
  async close(): Promise<void> {
    this.closing.abort();
    await Promise.allSettled([...this.running]);
    await this.agent.destroy().catch(() => undefined);
  }

  private async run(ref: InputRef, kind: InputKind, key: string): Promise<void> {
    try {
      if (ref.url === undefined) {
        if (ref.file === undefined) throw new InputProblem('was not stored when it arrived');
        await checkInput(this.files.path(ref.file.key), kind, maxBytesOf(kind, this.settings));
      } else {
        ref.file = await this.readUrl(ref.url, kind, key);
      }
    } catch (error) {
      if (this.closing.signal.aborted) return;
      ref.error = messageOf(ref, kind, error);
      if (ref.url !== undefined) delete ref.file;
    }
    if (this.closing.signal.aborted) return;
    ref.reading = false;
    ref.settled_at = Date.now();
    await this.save(ref).catch(() => undefined);
  }

  /** Reads a URL into the store and checks it; returns the stored file. */
  private async readUrl(given: string, kind: InputKind, key: string): Promise<Output> {
    const url = new URL(given);
    const own = this.ownFile(url);
    const temp = await this.files.tempPath();
    try {
      if (own !== undefined) {
        // One of the engine's own files (an output of an earlier session): copied, so the input stays as it was.
        await this.files.prepare(own);
        await copyFile(this.files.path(own), temp);
      } else {
        await download(url, temp, kind, this.settings, this.closing.signal, this.agent);
      }
      const file: Output = {
        key: `${key}.${await checkInput(temp, kind, maxBytesOf(kind, this.settings))}`,
        recipe: { type: 'input' },
      };
      await this.files.adopt(file.key, temp);
      return file;
    } finally {
      await rm(temp, { force: true });
    }
  }

  /** The key of one of the engine's own file URLs (signed by it, on this machine, whatever its port then); throws when it expired. */
  private ownFile(url: URL): string | undefined {
    if (!isLoopback(url.hostname) && url.hostname !== new URL(this.files.baseUrl || 'http://127.0.0.1').hostname)
      return undefined;
    const named = signedFileUrl(url, this.files);
    if (named === undefined) return undefined;
    if (named.expires * 1000 <= Date.now())
      throw new InputProblem(
        "is one of this engine's file URLs, but it has expired: read its session again for a fresh URL",
      );
    return named.key;
  }
}

/** Every input of the state that is being read, with the key its bytes go under. */
function* readingInputs(value: unknown): Generator<{ ref: InputRef; key: string }> {
  if (Array.isArray(value)) {
    for (const item of value) yield* readingInputs(item);
  } else if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    if (record.reading === true && typeof record.kind === 'string' && typeof record.read_key === 'string') {
      yield { ref: record as InputRef, key: record.read_key };
    } else {
      for (const item of Object.values(record)) yield* readingInputs(item);
    }
  }
}

class FetchProblem extends Error {}

async function download(
  url: URL,
  dest: string,
  kind: InputKind,
  settings: InputSettings,
  closing: AbortSignal,
  dispatcher: Dispatcher,
): Promise<void> {
  const maxBytes = maxBytesOf(kind, settings);
  const cap = `the ${formatBytes(maxBytes)} the engine reads${maxBytes < settings.maxBytes ? ' for an image' : ''}`;
  const signal = AbortSignal.any([AbortSignal.timeout(settings.timeoutMs), closing]);
  let current = url;
  for (let hop = 0; ; hop++) {
    if (!isReadableScheme(current))
      throw new FetchProblem(`it leads to ${current.protocol} URL, which the engine does not read`);
    if (settings.remoteHosts === 'refuse' && !isLoopback(current.hostname)) {
      throw new FetchProblem(
        `the engine is set to read inputs from this machine only (${REMOTE_INPUTS_ENV}=refuse), and ${current.host} is another host: send the file as a data URI, serve it on 127.0.0.1, or start the engine with remote inputs allowed`,
      );
    }
    let res: Dispatcher.ResponseData;
    try {
      res = await request(viaLoopback(current), {
        dispatcher,
        method: 'GET',
        signal,
        headers: { 'user-agent': 'asset-studio-local-engine' },
      });
    } catch (error) {
      throw new FetchProblem(networkReason(error, current, settings));
    }
    // From here the body is read to its end into the file, or destroyed (never left unread on the socket).
    try {
      if (REDIRECT_STATUSES.has(res.statusCode)) {
        const location = headerOf(res.headers, 'location');
        if (location === undefined)
          throw new FetchProblem(
            `${current.host} answered ${res.statusCode} without saying where to (no Location header)`,
          );
        if (hop >= MAX_REDIRECTS) throw new FetchProblem(`it redirects more than ${MAX_REDIRECTS} times`);
        current = new URL(location, current);
        continue;
      }
      if (res.statusCode < 200 || res.statusCode >= 300) {
        const text = STATUS_CODES[res.statusCode];
        throw new FetchProblem(`${current.host} answered ${res.statusCode}${text ? ` ${text}` : ''}`);
      }
      const declared = Number(headerOf(res.headers, 'content-length') ?? NaN);
      if (declared > maxBytes) throw new FetchProblem(`it is ${formatBytes(declared)}, more than ${cap}`);
      let received = 0;
      const counter = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          received += chunk.length;
          if (received > maxBytes) done(new FetchProblem(`it is larger than ${cap}`));
          else done(null, chunk);
        },
      });
      try {
        await pipeline(res.body, counter, createWriteStream(dest, { mode: 0o600 }), { signal });
      } catch (error) {
        if (error instanceof FetchProblem) throw error;
        throw new FetchProblem(networkReason(error, current, settings));
      }
      return;
    } finally {
      if (!res.body.destroyed) {
        res.body.on('error', () => undefined); // its "aborted" is expected: the body was not wanted
        res.body.destroy();
      }
    }
  }
}

function headerOf(headers: Dispatcher.ResponseData['headers'], name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return isLocalhostName(host) || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}

/** `localhost` and every `*.localhost` name (RFC 6761), with or without the root's trailing dot. */
function isLocalhostName(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  return host === 'localhost' || host.endsWith('.localhost');
}

/**
 * The URL to connect to: a `*.localhost` name is loopback by definition (RFC 6761) and is never looked up in
 * DNS, where `evil.localhost` could name any machine: it is read from 127.0.0.1, the same port and path.
 */
function viaLoopback(url: URL): URL {
  if (!isLocalhostName(url.hostname)) return url;
  const local = new URL(url);
  local.hostname = '127.0.0.1';
  return local;
}

const NETWORK_REASONS: Record<string, (url: URL) => string> = {
  ENOTFOUND: (url) => `the host ${url.hostname} was not found (a wrong address, or no internet connection)`,
  EAI_AGAIN: (url) => `the host ${url.hostname} could not be looked up (no internet connection?)`,
  ECONNREFUSED: (url) => `nothing answers at ${url.host} (connection refused)`,
  ECONNRESET: (url) => `${url.host} closed the connection before the whole file was sent`,
  ETIMEDOUT: (url) => `${url.host} did not answer (connection timed out)`,
  EHOSTUNREACH: (url) => `${url.host} cannot be reached from this machine`,
  ENETUNREACH: (url) => `${url.host} cannot be reached from this machine (no network)`,
  CERT_HAS_EXPIRED: (url) => `the TLS certificate of ${url.host} has expired`,
  DEPTH_ZERO_SELF_SIGNED_CERT: (url) => `the TLS certificate of ${url.host} is self-signed`,
  UND_ERR_SOCKET: (url) => `${url.host} closed the connection before the whole file was sent`,
  UND_ERR_RES_CONTENT_LENGTH_MISMATCH: (url) => `${url.host} sent fewer bytes than it said (Content-Length)`,
};

/** undici's own time limits: waiting for the answer's headers, or for the next bytes of its body. */
const TIME_LIMIT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT']);

function networkReason(error: unknown, url: URL, settings: InputSettings): string {
  const e = error as { name?: string; code?: string; cause?: { code?: string; name?: string; message?: string } };
  if (e?.name === 'TimeoutError' || e?.cause?.name === 'TimeoutError') {
    return `it was not read within ${Math.round(settings.timeoutMs / 100) / 10} s (the engine's time limit for an input)`;
  }
  const code = e?.cause?.code ?? e?.code;
  if (code === 'UND_ERR_BODY_TIMEOUT')
    return `${url.host} stopped sending for ${Math.round(Math.min(settings.timeoutMs, 30_000) / 100) / 10} s (the engine's limit between two parts of an input)`;
  if (code !== undefined && TIME_LIMIT_CODES.has(code))
    return `it was not read within ${Math.round(settings.timeoutMs / 100) / 10} s (the engine's time limit for an input)`;
  if (code !== undefined && NETWORK_REASONS[code]) return NETWORK_REASONS[code](url);
  return `${url.host} could not be read (${e?.cause?.message ?? (error instanceof Error ? error.message : String(error))})`;
}

/** The input as named in messages: its URL without the query (which may hold a signature), or "sent as a data URI". */
export function describeInput(ref: InputRef, kind: InputKind): string {
  const noun = kind === 'image' ? 'image' : kind === 'style-zip' ? 'zip' : 'mesh';
  if (ref.url === undefined) return `The input ${noun} sent with the request`;
  try {
    const url = new URL(ref.url);
    return `The input ${noun} ${url.origin}${url.pathname}`;
  } catch {
    return `The input ${noun}`;
  }
}

function messageOf(ref: InputRef, kind: InputKind, error: unknown): string {
  const what = describeInput(ref, kind);
  if (error instanceof InputProblem) return `${what} ${error.reason}. Give ${INPUT_WHAT[kind]}.`;
  if (error instanceof FetchProblem) return `${what} could not be read: ${error.message}.`;
  return `${what} could not be read (${error instanceof Error ? error.message : String(error)}).`;
}
