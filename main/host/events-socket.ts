// The web host's event socket: the bridge's events pushed to every page as `{event, payload}` text frames.
// An upgrade is accepted only from the host's own origin with the token (checked by `allow`).
//
// Nothing a peer sends may end the process: the raw socket of an upgrade and every WebSocket have an
// `error` listener (an event emitter throws an `error` nobody listens to). A bad frame (over 1 KiB, bad
// UTF-8, an unknown opcode, an unmasked frame) closes that one socket with the matching close code; a page
// that stops reading its events is dropped before its backlog grows without bound. Everyone else is served on.
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { EventMessage } from '../../shared/bridge/web-protocol.ts';
import type { BridgeService } from './bridge-service.ts';

/** Events a page has not read yet beyond which its socket is dropped (it reconnects and reloads its state). */
export const MAX_BUFFERED_EVENT_BYTES = 8 * 2 ** 20;

export interface EventSocket {
  readonly clients: number;
  close(): Promise<void>;
}

export interface EventSocketOptions {
  path: string;
  /** Why an upgrade is refused (a status line such as `403 Forbidden`), or undefined to accept it. */
  allow: (req: IncomingMessage) => string | undefined;
  /**
   * The subprotocol selected when the page offers it (beside the one carrying its token, which is never
   * echoed back): a browser fails a socket whose offered subprotocols the server does not answer.
   */
  protocol?: string;
  /** Default MAX_BUFFERED_EVENT_BYTES. */
  maxBufferedBytes?: number;
}

export function attachEventSocket(
  server: Server,
  bridge: Pick<BridgeService, 'onAny'>,
  options: EventSocketOptions,
): EventSocket {
  const maxBuffered = options.maxBufferedBytes ?? MAX_BUFFERED_EVENT_BYTES;
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: 1024,
    handleProtocols: (offered) =>
      options.protocol !== undefined && offered.has(options.protocol) ? options.protocol : false,
  });
  const refusedSockets = new Set<Duplex>();
  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    // Node leaves an upgraded socket without an error listener: a peer resetting it would end the process.
    socket.on('error', () => socket.destroy());
    const path = upgradePathOf(req);
    const refused =
      path === undefined ? '400 Bad Request' : path !== options.path ? '404 Not Found' : options.allow(req);
    if (refused !== undefined) {
      // The HTTP server no longer counts an upgrade's socket (closeAllConnections does not reach it): once the
      // answer is written it is destroyed, not left half-open for a peer that never closes its side, which kept
      // the host from ever ending on SIGTERM; close() destroys any still writing.
      refusedSockets.add(socket);
      socket.once('close', () => refusedSockets.delete(socket));
      socket.end(`HTTP/1.1 ${refused}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`, () => socket.destroy());
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws: WebSocket) => {
      // A frame ws refuses: it has already sent the close frame with the code that says why (1009 too large,
      // 1007 bad UTF-8, 1002 protocol) and ends the socket; nothing else to do than not to throw.
      ws.on('error', () => undefined);
      ws.on('message', () => ws.close(1008, 'this socket only sends events')); // commands go through POST /api/call
    });
  };
  server.on('upgrade', onUpgrade);
  const stop = bridge.onAny((event, payload) => {
    const message = { event, payload } as EventMessage;
    const frame = JSON.stringify(message);
    for (const client of wss.clients) {
      if (client.readyState !== client.OPEN) continue;
      if (client.bufferedAmount > maxBuffered)
        client.terminate(); // not reading: its page reconnects
      else client.send(frame);
    }
  });
  return {
    get clients() {
      return wss.clients.size;
    },
    close: () =>
      new Promise<void>((done) => {
        stop();
        server.off('upgrade', onUpgrade);
        for (const socket of refusedSockets) socket.destroy();
        for (const client of wss.clients) client.terminate();
        wss.close(() => done());
      }),
  };
}

/** The path an upgrade asks for; undefined when its target is not a URL. */
function upgradePathOf(req: IncomingMessage): string | undefined {
  try {
    return new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
  } catch {
    return undefined;
  }
}
