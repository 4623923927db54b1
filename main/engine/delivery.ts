// Writing a reply to the socket, or failing to on purpose when a fault rule says so.
import { createReadStream } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import type { FaultRule } from './faults.ts';
import { errorReply, statusText, type Reply } from './http.ts';

/** The answer of a `status` fault: the JSON envelope, or an HTML page like a proxy's. */
export function faultReply(rule: Extract<FaultRule, { kind: 'status' }>, envelope: boolean): Reply {
  const headers: Record<string, string> =
    rule.retryAfterSeconds === undefined ? {} : { 'retry-after': String(rule.retryAfterSeconds) };
  if (!rule.htmlBody) {
    return errorReply(
      rule.status,
      `Injected fault: the service answered ${rule.status} ${statusText(rule.status)}.`,
      envelope,
      headers,
    );
  }
  const title = `${rule.status} ${statusText(rule.status)}`;
  const page =
    typeof rule.htmlBody === 'string'
      ? rule.htmlBody
      : `<html><head><title>${title}</title></head><body><center><h1>${title}</h1></center></body></html>\n`;
  const body = Buffer.from(page);
  return {
    status: rule.status,
    headers: { ...headers, 'content-type': 'text/html', 'content-length': body.length },
    body,
  };
}

const FILE_CHUNK_BYTES = 2 ** 20;

/** Sends `reply`; a `truncate` fault sends half the body then cuts the connection, `drop-response` sends nothing. */
export async function deliver(
  req: IncomingMessage,
  res: ServerResponse,
  reply: Reply,
  fault?: FaultRule,
): Promise<void> {
  if (fault?.kind === 'drop-response') {
    req.socket.destroy();
    return;
  }
  const truncate = fault?.kind === 'truncate';
  res.writeHead(reply.status, reply.headers);
  if (truncate) res.flushHeaders();
  const headOnly = req.method === 'HEAD' || reply.status === 304;
  if (reply.file && !headOnly) {
    const { path, start, end } = reply.file;
    const last = truncate ? start + Math.floor((end - start + 1) / 2) - 1 : end;
    // 1 MiB reads: a sixteenth of the default's system calls and writes, for large outputs.
    // Opened only when there is something to read: a stream never piped would report a file removed meanwhile
    // (the engine closing) as an uncaught error.
    if (last >= start)
      await pipeline(createReadStream(path, { start, end: last, highWaterMark: FILE_CHUNK_BYTES }), res, {
        end: !truncate,
      }).catch(() => req.socket.destroy());
  } else if (reply.body && !headOnly) {
    const body = truncate ? reply.body.subarray(0, Math.floor(reply.body.length / 2)) : reply.body;
    await new Promise<void>((resolve) => res.write(body, () => resolve()));
  }
  if (truncate) req.socket.destroy();
  else res.end();
}
