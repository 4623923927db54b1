// Small servers on 127.0.0.1 for the network tests of the launcher (proxy, redirects, chunked bodies, hung
// services): a service in front of the embedded engine whose output links redirect or come chunked, a forward
// proxy (CONNECT for https://, absolute-form requests for http://) that records what went through it, and a
// service that accepts connections and never answers.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { connect, createServer as createTcpServer, type AddressInfo, type Socket } from 'node:net';
import { join } from 'node:path';
import { onTestFinished } from 'vitest';

/** Listens on 127.0.0.1 (closed, its connections destroyed, when the test ends); its port. */
export async function listen(server: Server | import('node:net').Server): Promise<number> {
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  });
  return (server.address() as AddressInfo).port;
}

/** Forwards the request to `target` (an http origin on 127.0.0.1), its answer back as it comes. */
function forward(
  req: IncomingMessage,
  res: ServerResponse,
  target: URL,
  path: string,
  rewrite?: (text: string) => string,
): void {
  const upstream = request(
    {
      host: target.hostname,
      port: target.port,
      method: req.method,
      path,
      headers: { ...req.headers, host: target.host },
    },
    (answer) => {
      const json = rewrite !== undefined && /json/.test(String(answer.headers['content-type']));
      if (!json) {
        res.writeHead(answer.statusCode!, answer.headers);
        answer.pipe(res);
        return;
      }
      const chunks: Buffer[] = [];
      answer.on('data', (c: Buffer) => chunks.push(c));
      answer.on('end', () => {
        const body = Buffer.from(rewrite(Buffer.concat(chunks).toString('utf8')));
        res.writeHead(answer.statusCode!, { ...answer.headers, 'content-length': body.length });
        res.end(body);
      });
    },
  );
  upstream.on('error', () => res.destroy());
  req.pipe(upstream);
}

export interface FrontOptions {
  /** The engine behind it. */
  engineUrl: string;
  /** How clients name this service (its URLs in the engine's answers are rewritten to it). */
  publicOrigin: (port: number) => string;
  /** `redirect`: a file link answers 302 to `redirectOrigin` + the same path; `chunked`: the file comes chunked. */
  files: 'redirect' | 'chunked';
  /** Where a redirect sends (default: the engine's own origin). */
  redirectOrigin?: string;
  /** TLS key and certificate: an https:// service. */
  tls?: { key: Buffer; cert: Buffer };
}

export interface Front {
  port: number;
  origin: string;
  /** The file requests seen (method and path), in order. */
  files: string[];
}

/** A service in front of the engine: its API answered by the engine, its output links redirected or chunked. */
export async function frontOf(options: FrontOptions): Promise<Front> {
  const engine = new URL(options.engineUrl);
  const front: Front = { port: 0, origin: '', files: [] };
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    const path = req.url!;
    if (!path.startsWith('/files/')) {
      forward(req, res, engine, path, (text) => text.split(engine.origin).join(front.origin));
      return;
    }
    front.files.push(`${req.method} ${path.split('?')[0]}`);
    if (options.files === 'redirect') {
      res.writeHead(302, { location: `${options.redirectOrigin ?? engine.origin}${path}`, 'content-length': 0 });
      res.end();
      return;
    }
    const upstream = request(
      { host: engine.hostname, port: engine.port, path, headers: { 'accept-encoding': 'identity' } },
      (answer) => {
        const { 'content-length': _length, ...headers } = answer.headers;
        res.writeHead(answer.statusCode!, { ...headers, 'transfer-encoding': 'chunked' });
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    upstream.end();
  };
  const server = options.tls ? createHttpsServer(options.tls, handler) : createServer(handler);
  front.port = await listen(server);
  front.origin = options.publicOrigin(front.port);
  return front;
}

export interface ForwardProxy {
  url: string;
  /** `CONNECT host:port` and `GET http://host:port/path` lines, in order (queries left out). */
  seen: string[];
}

/** A forward proxy: every host name it is asked for is reached on 127.0.0.1 (the same port). */
export async function forwardProxy(): Promise<ForwardProxy> {
  const seen: string[] = [];
  const server = createServer((req, res) => {
    const target = new URL(req.url!); // absolute-form
    seen.push(`${req.method} ${target.origin}${target.pathname}`);
    const upstream = request(
      {
        host: '127.0.0.1',
        port: target.port || 80,
        method: req.method,
        path: target.pathname + target.search,
        headers: req.headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode!, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    seen.push(`CONNECT ${req.url}`);
    const port = Number(/:(\d+)$/.exec(req.url!)?.[1]);
    const upstream = connect(port, '127.0.0.1', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
    client.on('close', () => upstream.destroy());
  });
  return { url: `http://127.0.0.1:${await listen(server)}`, seen };
}

/** A service that accepts connections, reads what comes, and never answers; the connections it holds. */
export async function silentService(): Promise<{ url: string; connections: () => number }> {
  let count = 0;
  const server = createTcpServer((socket) => {
    count++;
    socket.on('error', () => undefined);
    socket.resume();
  });
  return { url: `http://127.0.0.1:${await listen(server)}`, connections: () => count };
}

/** A self-signed certificate for `host` (openssl), in `dir`: key.pem and cert.pem; undefined without openssl. */
export function certificateFor(host: string, dir: string): { key: Buffer; cert: Buffer; certPath: string } | undefined {
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
        '-days',
        '1',
        '-subj',
        `/CN=${host}`,
        '-addext',
        `subjectAltName=DNS:${host}`,
      ],
      { stdio: 'ignore' },
    );
  } catch {
    return undefined;
  }
  return {
    key: readFileSync(join(dir, 'key.pem')),
    cert: readFileSync(join(dir, 'cert.pem')),
    certPath: join(dir, 'cert.pem'),
  };
}
