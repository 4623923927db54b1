// The fetch adapter of answer.ts (Electron's protocol.handle takes a Request and wants a Response): a
// FileRequest from a Request, and an Answer as a Response whose body streams from the file.
import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import type { Answer, FileRequest } from './answer.ts';

/** What is read of a Request (a real one, or any object of this shape). */
export interface RequestLike {
  method: string;
  headers: { get(name: string): string | null };
}

export function fetchFileRequest(request: RequestLike): FileRequest {
  return { method: request.method, header: (name) => request.headers.get(name) ?? undefined };
}

/** The answer as a Response, with `extraHeaders` (the CSP and the other headers every response carries) first. */
export function toResponse(request: RequestLike, answer: Answer, extraHeaders: Record<string, string> = {}): Response {
  const headers = { ...extraHeaders, ...answer.headers };
  const body = answer.body;
  const headOnly = request.method === 'HEAD' || answer.status === 304;
  if (body === undefined || headOnly) {
    if (body && 'stream' in body) body.stream.destroy();
    return new Response(null, { status: answer.status, headers });
  }
  if ('text' in body) return new Response(body.text, { status: answer.status, headers });
  const stream =
    'stream' in body
      ? body.stream
      : body.end < body.start
        ? undefined
        : createReadStream(body.file, { start: body.start, end: body.end });
  return new Response(stream ? (Readable.toWeb(stream) as unknown as ReadableStream<Uint8Array>) : null, {
    status: answer.status,
    headers,
  });
}
