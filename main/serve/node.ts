// The node:http adapter of answer.ts: a FileRequest from an IncomingMessage, and an Answer written to a
// ServerResponse. Bodies stream with pipeline, so a client that goes away closes the file or stream too.
import { createReadStream } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream';
import type { Answer, FileRequest } from './answer.ts';

export function nodeFileRequest(req: IncomingMessage): FileRequest {
  return {
    method: req.method ?? 'GET',
    header: (name) => {
      const value = req.headers[name];
      return Array.isArray(value) ? value.join(', ') : value;
    },
  };
}

/** Writes the answer (no body for HEAD, a 304 or an empty range). */
export function sendAnswer(req: IncomingMessage, res: ServerResponse, answer: Answer): void {
  res.writeHead(answer.status, answer.headers);
  const body = answer.body;
  const headOnly = req.method === 'HEAD' || answer.status === 304;
  if (body === undefined || headOnly) {
    if (body && 'stream' in body) body.stream.destroy();
    return void res.end();
  }
  if ('text' in body) return void res.end(body.text);
  if ('stream' in body) return void pipeline(body.stream, res, () => undefined);
  if (body.end < body.start) return void res.end();
  pipeline(createReadStream(body.file, { start: body.start, end: body.end }), res, () => undefined);
}
