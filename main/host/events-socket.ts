// The web host's event socket: the bridge's events pushed to every page as `{event, payload}` text frames.
// An upgrade is accepted only from the host's own origin with the token (checked by `allow`).
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { EventMessage } from '../../shared/bridge/web-protocol.ts';
import type { BridgeService } from './bridge-service.ts';

export interface EventSocket {
  readonly clients: number;
  close(): Promise<void>;
}

export function attachEventSocket(server: Server, bridge: BridgeService, options: { path: string; allow: (req: IncomingMessage) => string | undefined }): EventSocket {
  const wss = new WebSocketServer({ noServer: true, maxPayload: 1024 });
  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const refused = new URL(req.url ?? '/', 'http://x').pathname !== options.path ? '404 Not Found' : options.allow(req);
    if (refused !== undefined) {
      socket.end(`HTTP/1.1 ${refused}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws: WebSocket) => {
      ws.on('message', () => ws.close(1008, 'this socket only sends events')); // commands go through POST /api/call
    });
  };
  server.on('upgrade', onUpgrade);
  const stop = bridge.onAny((event, payload) => {
    const message = { event, payload } as EventMessage;
    const frame = JSON.stringify(message);
    for (const client of wss.clients) if (client.readyState === client.OPEN) client.send(frame);
  });
  return {
    get clients() {
      return wss.clients.size;
    },
    close: () =>
      new Promise<void>((done) => {
        stop();
        server.off('upgrade', onUpgrade);
        for (const client of wss.clients) client.terminate();
        wss.close(() => done());
      }),
  };
}
