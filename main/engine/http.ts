// HTTP building blocks: the reply value every handler produces, typed errors, envelopes and body reading.
import type { IncomingMessage } from 'node:http';
import { STATUS_CODES } from 'node:http';

export interface Reply {
  status: number;
  headers: Record<string, string | number>;
  /** A buffered body, or a byte range of a file (`end` inclusive) streamed from disk. */
  body?: Buffer;
  file?: { path: string; start: number; end: number };
}

/** An error answer: the status, a message for people, and optional extra headers. */
export class HttpError extends Error {
  readonly status: number;
  readonly headers: Record<string, string>;

  constructor(status: number, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.status = status;
    this.headers = headers;
  }
}

export const statusText = (status: number): string => STATUS_CODES[status] ?? 'Error';

export function jsonReply(status: number, value: unknown, headers: Record<string, string> = {}): Reply {
  const body = Buffer.from(JSON.stringify(value));
  return {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length, ...headers },
    body,
  };
}

/** Error body: the envelope with `data: null`, or the bare `{error, message, statusCode}` of /v3. */
export function errorReply(
  status: number,
  message: string,
  envelope: boolean,
  headers: Record<string, string> = {},
): Reply {
  const body = { error: statusText(status), message, statusCode: status };
  return jsonReply(status, envelope ? { ...body, data: null } : body, headers);
}

/** Reads a JSON body (an empty body reads as `{}`); malformed or oversized bodies are HttpErrors. */
export async function readJsonBody(req: IncomingMessage, limitBytes: number): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limitBytes) {
      throw new HttpError(413, `The request body is larger than ${Math.round(limitBytes / 2 ** 20)} MiB.`);
    }
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new HttpError(400, `Malformed JSON body: ${(error as Error).message}`);
  }
}
