// A lean HTTP/1.1 GET for the download fast path: one request on its own connection (`net.connect`, or
// `tls.connect` with the default CA check), read with `onread` so the body lands straight in buffers the
// consumer owns (its write batches): no per-chunk allocation, no stream machinery. It handles only the
// common case: 200/206 with a Content-Length and no Transfer-Encoding, or any other final status whose
// body is not needed (the connection is then closed). Anything else (a proxy in the environment, 1xx
// other than 100, 3xx, chunked or unframed 200/206) answers `undefined`: the caller uses undici instead.
import { connect as netConnect, isIP, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { proxySettings, trustedCertificates } from '../api/network-env.ts';

export type FastHeaders = Record<string, string | string[] | undefined>;

/** Where the body goes. `space` is called only while the reader is not paused. */
export interface BodySink {
  /** Room for the next read (not empty); its content is the sink's until `filled` says how much was used. */
  space(): Buffer;
  /** The first `bytes` bytes of the last `space()` now hold body bytes. False: pause until `FastResponse.resume()`. */
  filled(bytes: number): boolean;
}

export interface FastGetOptions {
  /** Extra request headers (lowercase names), e.g. range and if-range. */
  headers?: Record<string, string>;
  signal?: AbortSignal | undefined;
  connectTimeoutMs?: number;
  headersTimeoutMs?: number;
  /** Longest silence while the body is being read (not counting pauses asked by the sink). */
  bodyTimeoutMs?: number;
  /** Largest response head accepted (default 64 KiB). */
  maxHeaderBytes?: number;
  /** Trusted certificates (tests); else those of the environment (main/api/network-env.ts: Node's store, NODE_EXTRA_CA_CERTS, the system's with NODE_USE_SYSTEM_CA=1). */
  ca?: string | Buffer | undefined;
}

/** An error of the fast path. `ERR_FAST_GET_TRUNCATED`: the connection closed before Content-Length bytes. */
export class FastGetError extends Error {
  readonly code:
    | 'ERR_FAST_GET_TRUNCATED'
    | 'ERR_FAST_GET_HEADERS_TOO_LARGE'
    | 'ERR_FAST_GET_BAD_RESPONSE'
    | 'ETIMEDOUT';
  constructor(code: FastGetError['code'], message: string) {
    super(message);
    this.name = 'FastGetError';
    this.code = code;
  }
}

const SPILL_BYTES = 64 << 10;

/** Why the fast path does not apply to this URL before any request (undefined: it applies). */
export function fastGetUnsupported(url: URL): string | undefined {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `the scheme ${url.protocol}`;
  if (url.username || url.password) return 'credentials in the URL';
  if (proxySettings() !== undefined) return 'a proxy is configured (HTTP_PROXY or HTTPS_PROXY)';
  return undefined;
}

/**
 * Sends the GET and reads the response head. Undefined: the fast path does not handle this answer (or
 * this URL) and nothing was consumed; use the general client. Rejects with the socket's error (with
 * its `code`), a FastGetError, or the signal's reason.
 */
export async function fastGet(href: string, options: FastGetOptions = {}): Promise<FastResponse | undefined> {
  const url = new URL(href);
  if (fastGetUnsupported(url) !== undefined) return undefined;
  options.signal?.throwIfAborted();
  const reader = new Reader(url, options);
  return reader.head();
}

export class FastResponse {
  readonly status: number;
  readonly headers: FastHeaders;
  /** The body's length (Content-Length) for 200 and 206; undefined for other statuses (their body is not read). */
  readonly contentLength: number | undefined;
  readonly #reader: Reader;

  constructor(reader: Reader, status: number, headers: FastHeaders, contentLength: number | undefined) {
    this.#reader = reader;
    this.status = status;
    this.headers = headers;
    this.contentLength = contentLength;
  }

  /** Reads the whole body into `sink`; rejects with ERR_FAST_GET_TRUNCATED when the connection ends early. */
  readBody(sink: BodySink): Promise<void> {
    return this.#reader.body(sink);
  }

  /** Continues after the sink's `filled` returned false. */
  resume(): void {
    this.#reader.resume();
  }

  /** Stops the transfer: a pending `readBody` rejects with `error` (default: a plain "closed" error). */
  close(error?: Error): void {
    this.#reader.fail(error ?? new Error('the response was closed before its end'));
  }
}

type Phase = 'head' | 'waiting' | 'body' | 'done';
type Settle = { resolve: (value?: FastResponse) => void; reject: (error: Error) => void };

/** The connection's state machine: head, then (once a sink is given) body. */
class Reader {
  readonly #url: URL;
  readonly #options: FastGetOptions;
  readonly #socket: Socket;
  readonly #maxHeaderBytes: number;
  /** Holds the head while it arrives, then bytes read while paused or before the sink came. */
  #spill: Buffer;
  #spillStart = 0;
  #spillEnd = 0;
  /** The buffer the socket reads into next (the spill or the sink's space). */
  #target: Buffer;
  #phase: Phase = 'head';
  #sink: BodySink | undefined;
  #paused = false;
  #remaining = 0;
  #error: Error | undefined;
  #settle: Settle | undefined;
  /** The next read goes into the spill (not into the sink's space). */
  #readingToSpill = true;
  /** The server closed its side; what is in the spill is all there is. */
  #ended = false;
  readonly #requestText: string;
  readonly #onAbort: () => void;

  constructor(url: URL, options: FastGetOptions) {
    this.#url = url;
    this.#options = options;
    this.#maxHeaderBytes = options.maxHeaderBytes ?? 64 << 10;
    this.#spill = Buffer.allocUnsafe(Math.max(SPILL_BYTES, this.#maxHeaderBytes));
    this.#target = this.#spill;
    this.#requestText = this.#requestHead();
    const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
    const https = url.protocol === 'https:';
    const port = Number(url.port) || (https ? 443 : 80);
    const ca = options.ca ?? trustedCertificates();
    const onread = { buffer: () => this.#nextBuffer(), callback: (bytes: number) => this.#onRead(bytes) };
    // `tls.connect` honours `onread` like `net.connect` (its types omit it): decrypted records land in our buffers.
    const tlsOptions = {
      host,
      port,
      onread,
      ALPNProtocols: ['http/1.1'],
      ...(isIP(host) === 0 && { servername: host }),
      ...(ca !== undefined && { ca }),
    };
    this.#socket = https ? tlsConnect(tlsOptions) : netConnect({ host, port, onread });
    const connectTimer = setTimeout(
      () => this.fail(new FastGetError('ETIMEDOUT', `connecting to ${url.host} timed out`)),
      options.connectTimeoutMs ?? 10_000,
    );
    this.#socket.once(https ? 'secureConnect' : 'connect', () => {
      clearTimeout(connectTimer);
      this.#socket.setTimeout(options.headersTimeoutMs ?? 30_000);
      this.#socket.setNoDelay(true);
      this.#socket.write(this.#requestText);
    });
    this.#socket.on('timeout', () =>
      this.fail(new FastGetError('ETIMEDOUT', `the server at ${url.host} sent nothing for too long`)),
    );
    this.#socket.on('error', (error) => this.fail(error));
    this.#socket.on('end', () => this.#onEnd());
    this.#socket.on('close', () => {
      clearTimeout(connectTimer);
      this.#onEnd();
    });
    this.#onAbort = () => {
      const reason: unknown = options.signal?.reason;
      this.fail(reason instanceof Error ? reason : new DOMException('This operation was aborted', 'AbortError'));
    };
    options.signal?.addEventListener('abort', this.#onAbort, { once: true });
  }

  head(): Promise<FastResponse | undefined> {
    return new Promise<FastResponse | undefined>((resolve, reject) => {
      this.#settle = { resolve: resolve as Settle['resolve'], reject };
      if (this.#error) reject(this.#error);
    });
  }

  body(sink: BodySink): Promise<void> {
    if (this.#error) return Promise.reject(this.#error);
    if (this.#phase !== 'waiting') return Promise.reject(new Error('the body was read already or is not readable'));
    this.#sink = sink;
    this.#phase = 'body';
    const done = new Promise<void>((resolve, reject) => {
      this.#settle = { resolve: resolve as Settle['resolve'], reject };
    });
    this.#socket.setTimeout(this.#options.bodyTimeoutMs ?? 60_000);
    if (this.#remaining === 0) this.#finish();
    else this.resume();
    return done;
  }

  resume(): void {
    if (this.#phase !== 'body') return;
    this.#paused = false;
    // Bytes that came while paused (TLS hands over what it decrypted already) go first.
    while (this.#spillEnd > this.#spillStart && !this.#paused && this.#phase === 'body') {
      const room = this.#sink!.space();
      const bytes = this.#spill.copy(room, 0, this.#spillStart, this.#spillEnd);
      this.#spillStart += bytes;
      this.#deliver(bytes);
    }
    if (this.#phase !== 'body' || this.#paused) return;
    if (this.#ended) {
      this.#onEnd();
    } else {
      this.#socket.setTimeout(this.#options.bodyTimeoutMs ?? 60_000);
      this.#socket.resume();
    }
  }

  fail(error: Error): void {
    if (this.#phase === 'done') return;
    this.#phase = 'done';
    this.#error = error;
    this.#cleanup();
    this.#settle?.reject(error);
  }

  #requestHead(): string {
    const lines = [
      `GET ${this.#url.pathname}${this.#url.search} HTTP/1.1`,
      `Host: ${this.#url.host}`,
      'Accept-Encoding: identity',
      'Connection: close',
      'User-Agent: asset-studio',
    ];
    for (const [name, value] of Object.entries(this.#options.headers ?? {})) {
      if (/[\r\n]/.test(name + value)) throw new TypeError(`invalid header ${name}`);
      if (!/^(host|connection|accept-encoding)$/i.test(name)) lines.push(`${name}: ${value}`);
    }
    return `${lines.join('\r\n')}\r\n\r\n`;
  }

  /** The socket asks where its next read goes. */
  #nextBuffer(): Buffer {
    if (this.#phase === 'body' && !this.#paused && this.#spillEnd === this.#spillStart) {
      const room = this.#sink!.space();
      this.#target = room.length > this.#remaining ? room.subarray(0, this.#remaining) : room;
      this.#readingToSpill = false;
      return this.#target;
    }
    if (this.#phase === 'head') {
      this.#target = this.#spill.subarray(this.#spillEnd, this.#maxHeaderBytes);
    } else {
      if (this.#spillStart === this.#spillEnd) this.#spillStart = this.#spillEnd = 0;
      if (this.#spillEnd === this.#spill.length) {
        // Only TLS reads on after a pause, and only what it decrypted already: rare, and bounded.
        const bigger = Buffer.allocUnsafe(this.#spill.length * 2);
        this.#spill.copy(bigger, 0, this.#spillStart, this.#spillEnd);
        this.#spillEnd -= this.#spillStart;
        this.#spillStart = 0;
        this.#spill = bigger;
      }
      this.#target = this.#spill.subarray(this.#spillEnd);
    }
    this.#readingToSpill = true;
    return this.#target;
  }

  #onRead(bytes: number): boolean {
    if (this.#phase === 'done') return false;
    if (!this.#readingToSpill) {
      this.#deliver(bytes); // straight into the sink's space
      return true;
    }
    this.#spillEnd += bytes;
    if (this.#phase === 'head') this.#parseHead();
    else if (this.#phase === 'body' && !this.#paused) this.resume();
    return true;
  }

  /** `bytes` more body bytes are in the sink's space. */
  #deliver(bytes: number): void {
    const used = Math.min(bytes, this.#remaining);
    this.#remaining -= used;
    const more = this.#sink!.filled(used);
    if (this.#remaining === 0) this.#finish();
    else if (!more) this.#pause();
  }

  #pause(): void {
    this.#paused = true;
    this.#socket.setTimeout(0);
    this.#socket.pause();
  }

  #finish(): void {
    if (this.#phase === 'done') return;
    this.#phase = 'done';
    this.#cleanup();
    this.#settle?.resolve();
  }

  #onEnd(): void {
    if (this.#phase === 'done') return;
    if (this.#phase === 'head') {
      this.fail(
        Object.assign(new Error(`the server at ${this.#url.host} closed the connection before answering`), {
          code: 'ECONNRESET',
        }),
      );
    } else if (this.#spillEnd > this.#spillStart || this.#phase === 'waiting') {
      this.#ended = true; // bytes in hand, or no sink yet: the end is seen once they are delivered
    } else {
      this.fail(
        new FastGetError(
          'ERR_FAST_GET_TRUNCATED',
          `the connection closed with ${this.#remaining} bytes of the body missing`,
        ),
      );
    }
  }

  #cleanup(): void {
    this.#options.signal?.removeEventListener('abort', this.#onAbort);
    this.#socket.destroy();
  }

  #parseHead(): void {
    for (;;) {
      const end = this.#spill.indexOf('\r\n\r\n', this.#spillStart, 'latin1');
      if (end < 0 || end >= this.#spillEnd) {
        if (this.#spillEnd >= this.#maxHeaderBytes) {
          this.fail(
            new FastGetError(
              'ERR_FAST_GET_HEADERS_TOO_LARGE',
              `the response head from ${this.#url.host} is larger than ${this.#maxHeaderBytes} bytes`,
            ),
          );
        }
        return;
      }
      const text = this.#spill.toString('latin1', this.#spillStart, end);
      this.#spillStart = end + 4;
      const parsed = parseHead(text);
      if (parsed === undefined) {
        this.fail(
          new FastGetError(
            'ERR_FAST_GET_BAD_RESPONSE',
            `the server at ${this.#url.host} sent a malformed response head`,
          ),
        );
        return;
      }
      const { status, headers } = parsed;
      if (status === 100) continue; // an interim answer; the real one follows
      this.#answer(status, headers);
      return;
    }
  }

  #answer(status: number, headers: FastHeaders): void {
    const settle = this.#settle!;
    if (status < 200 || (status >= 300 && status < 400)) {
      this.#giveUp(settle);
      return;
    }
    let contentLength: number | undefined;
    if (status === 200 || status === 206) {
      const length = headers['content-length'];
      if (headers['transfer-encoding'] !== undefined || typeof length !== 'string' || !/^\d{1,15}$/.test(length)) {
        this.#giveUp(settle);
        return;
      }
      contentLength = Number(length);
    }
    this.#remaining = contentLength ?? 0;
    this.#phase = contentLength === undefined ? 'done' : 'waiting';
    if (contentLength === undefined)
      this.#cleanup(); // the body of an error is not needed
    else this.#pause(); // until a sink is given
    this.#settle = undefined;
    settle.resolve(new FastResponse(this, status, headers, contentLength));
  }

  #giveUp(settle: Settle): void {
    this.#phase = 'done';
    this.#cleanup();
    settle.resolve(undefined);
  }
}

/** Status and headers (lowercase names, repeated ones as arrays) of an HTTP/1.x response head. */
function parseHead(text: string): { status: number; headers: FastHeaders } | undefined {
  const lines = text.split('\r\n');
  const statusLine = /^HTTP\/1\.[01] (\d{3})(?: .*)?$/.exec(lines[0]!);
  if (!statusLine) return undefined;
  const headers: FastHeaders = {};
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!;
    const colon = line.indexOf(':');
    if (colon <= 0 || /\s/.test(line[colon - 1]!) || line[0] === ' ' || line[0] === '\t') return undefined;
    const name = line.slice(0, colon).toLowerCase();
    const value = line.slice(colon + 1).trim();
    const before = headers[name];
    headers[name] = before === undefined ? value : Array.isArray(before) ? [...before, value] : [before, value];
  }
  return { status: Number(statusLine[1]), headers };
}
