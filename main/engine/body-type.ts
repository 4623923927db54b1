// The Content-Type a request body must have: JSON endpoints take `application/json` (UTF-8, with or
// without a charset parameter); the animation upload also takes a file as `multipart/form-data`.
// Anything else, or a body without a Content-Type, is a 415 naming what to send instead.
import type { IncomingMessage } from 'node:http';
import { HttpError } from './http.ts';

/** How the body is read: as JSON, as a multipart form, or not at all (there is none). */
export type BodyKind = 'json' | 'multipart' | 'empty';

const JSON_TYPE = 'application/json';
const MULTIPART_TYPE = 'multipart/form-data';

export function bodyKindOf(req: IncomingMessage, accepts: { multipart: boolean }): BodyKind {
  const header = req.headers['content-type']?.trim() ?? '';
  const expected = accepts.multipart
    ? `send JSON with Content-Type: ${JSON_TYPE}, or the file as ${MULTIPART_TYPE} (field "file")`
    : `send the body as JSON with Content-Type: ${JSON_TYPE}`;
  if (header === '') {
    if (!hasBody(req)) return 'empty';
    throw unsupported(`The request has a body but no Content-Type header: ${expected}.`, accepts);
  }
  const [type = '', ...params] = header.split(';').map((part) => part.trim());
  const mediaType = type.toLowerCase();
  if (mediaType === JSON_TYPE) {
    const charset = params
      .map(parseParam)
      .find((p) => p.name === 'charset')
      ?.value.toLowerCase();
    if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
      throw unsupported(
        `JSON bodies must be UTF-8, but the Content-Type says charset=${charset}: send UTF-8 JSON with Content-Type: ${JSON_TYPE}.`,
        accepts,
      );
    }
    return 'json';
  }
  if (accepts.multipart && mediaType === MULTIPART_TYPE) return 'multipart';
  throw unsupported(`Content-Type ${mediaType} is not accepted here: ${expected}.`, accepts);
}

/** A body is announced by a non-zero Content-Length or by Transfer-Encoding (chunked). */
function hasBody(req: IncomingMessage): boolean {
  if (req.headers['transfer-encoding'] !== undefined) return true;
  const length = req.headers['content-length'];
  return length !== undefined && Number(length) > 0;
}

function parseParam(param: string): { name: string; value: string } {
  const at = param.indexOf('=');
  if (at < 0) return { name: param.toLowerCase(), value: '' };
  return {
    name: param.slice(0, at).trim().toLowerCase(),
    value: param
      .slice(at + 1)
      .trim()
      .replace(/^"(.*)"$/, '$1'),
  };
}

function unsupported(message: string, accepts: { multipart: boolean }): HttpError {
  return new HttpError(415, message, {
    'accept-post': accepts.multipart ? `${JSON_TYPE}, ${MULTIPART_TYPE}` : JSON_TYPE,
  });
}
